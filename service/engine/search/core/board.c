/* A board built from its description (ss_board): its waits, lines, families and windows, and its
   threats computed from scratch. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "pairing.h"

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ULL;
}

static int family_root(int *parent, int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* g->family_start and g->family_line: a union of the lines sharing two cells or more; 0 when out of
   memory. */
static int families_setup(ss_game *g) {
    int n = g->n_lines;
    int *parent = malloc(sizeof(int) * (size_t)(n ? n : 1));
    g->family_start = malloc(sizeof(int) * (size_t)(n + 1));
    g->family_line = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!parent || !g->family_start || !g->family_line) {
        free(parent);
        return 0;
    }
    for (int i = 0; i < n; i++) parent[i] = i;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (more_than_one(g->lines[i] & g->lines[j])) parent[family_root(parent, i)] = family_root(parent, j);
    int at = 0;
    g->n_families = 0;
    for (int i = 0; i < n; i++) {
        if (family_root(parent, i) != i) continue;
        g->family_start[g->n_families++] = at;
        for (int j = 0; j < n; j++)
            if (family_root(parent, j) == i) g->family_line[at++] = j;
    }
    g->family_start[g->n_families] = at;
    free(parent);
    return 1;
}

/* g->shifts and g->starts (board.h): every line a window of one length along one of four steps. */
static void windows_setup(ss_game *g) {
    g->n_shifts = -1;
    int length = g->n_lines ? count(g->lines[0]) : 0, n = 0;
    if (length < 2) return;
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        int first = lowest_cell(line), step = lowest_cell(without_lowest(line)) - first, k = 0;
        if (count(line) != length || first + (length - 1) * step >= SS_MAX_CELLS) return;
        mask window = NO_CELLS;
        for (int j = 0; j < length; j++) window |= bit(first + j * step);
        if (!same(window, line)) return;
        while (k < n && g->shifts[k] != step) k++;
        if (k == MAX_STEPS) return;
        if (k == n) g->shifts[n++] = step;
        g->starts[k] |= bit(first);
        if (!g->flanks) continue;
        /* the flanks must be the cells before and after the window, as flanked() reads them */
        int before = first - step, after = first + length * step;
        mask read = NO_CELLS;
        if (before >= 0 && any(g->flanks[i] & bit(before))) read |= bit(before), g->flank_before[k] |= bit(first);
        if (after < SS_MAX_CELLS && any(g->flanks[i] & bit(after))) read |= bit(after), g->flank_after[k] |= bit(first);
        if (!same(read, g->flanks[i])) return;
    }
    g->n_shifts = n;
    g->line_length = length;
}

/* Whether the description is one the core can play: 1 to SS_MAX_CELLS cells, each line a non-empty set
   of them, each wait-cell another cell of the board, and no chain of waits that comes back to its
   start (its cells could never be played). */
static int described(const ss_board *b) {
    if (!b || b->cells < 1 || b->cells > SS_MAX_CELLS || b->n_lines < 0 || (b->n_lines && !b->lines)) return 0;
    mask full = first_cells(b->cells);
    for (int i = 0; i < b->n_lines; i++)
        if (!any(mask_in(b->lines[i])) || any(mask_in(b->lines[i]) & ~full)) return 0;
    for (int i = 0; b->flanks && i < b->n_lines; i++) /* beside a line: on the board, off the line */
        if (any(mask_in(b->flanks[i]) & ~full) || any(mask_in(b->flanks[i]) & mask_in(b->lines[i]))) return 0;
    if (!b->waits) return 1;
    for (int c = 0; c < b->cells; c++) {
        int w = b->waits[c];
        if (w != SS_NO_CELL && (w < 0 || w >= b->cells || w == c)) return 0;
    }
    for (int c = 0; c < b->cells; c++) { /* a chain longer than the board has come back */
        int at = c, steps = 0;
        while (at != SS_NO_CELL && steps++ <= b->cells) at = b->waits[at];
        if (at != SS_NO_CELL) return 0;
    }
    return 1;
}

/* g->wait, unwaiting, freed_by and wait_steps (board.h) from each cell's wait-cell. */
static void waits_setup(ss_game *g, const int32_t *waits) {
    g->unwaiting = g->full;
    for (int c = 0; c < g->cells; c++) {
        int w = waits ? waits[c] : SS_NO_CELL, i = 0;
        g->wait[c] = (ss_cell)w;
        if (w == SS_NO_CELL) continue;
        g->gravity = 1;
        g->unwaiting &= ~bit(c);
        g->freed_by[w] |= bit(c);
        while (i < g->n_wait_steps && g->wait_steps[i].step != w - c) i++;
        if (i == g->n_wait_steps) g->wait_steps[g->n_wait_steps++] = (wait_step){w - c, NO_CELLS};
        g->wait_steps[i].cells |= bit(c);
    }
}

ss_game *ss_game_new(const ss_board *b) {
    if (!described(b)) return NULL;
    ss_game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->cells = b->cells;
    g->misere = b->misere != 0;
    g->full = first_cells(g->cells);
    waits_setup(g, b->waits);
    int n_lines = b->n_lines;
    g->n_lines = n_lines;
    g->lines = malloc(sizeof(mask) * (size_t)(n_lines ? n_lines : 1));
    int total = 0;
    for (int i = 0; i < n_lines; i++) total += count(mask_in(b->lines[i]));
    g->through = malloc(sizeof(mask) * (size_t)(total ? total : 1));
    if (b->flanks) {
        g->flanks = malloc(sizeof(mask) * (size_t)(n_lines ? n_lines : 1));
        g->through_flanks = malloc(sizeof(mask) * (size_t)(total ? total : 1));
    }
    if (!g->lines || !g->through || (b->flanks && (!g->flanks || !g->through_flanks))) {
        ss_game_free(g);
        return NULL;
    }
    for (int i = 0; i < n_lines; i++) g->lines[i] = mask_in(b->lines[i]);
    for (int i = 0; b->flanks && i < n_lines; i++) g->flanks[i] = mask_in(b->flanks[i]);
    const mask *lines = g->lines;
    int at = 0;
    for (int c = 0; c < g->cells; c++) {
        g->through_start[c] = at;
        for (int i = 0; i < n_lines; i++) {
            if (!any(lines[i] & bit(c))) continue;
            if (g->flanks) g->through_flanks[at] = g->flanks[i];
            g->through[at++] = lines[i];
        }
    }
    g->through_start[g->cells] = at;
    uint64_t h = mix(mix(0, (uint64_t)g->cells), (uint64_t)g->misere);
    for (int c = 0; c < g->cells; c++) h = mix(h, (uint64_t)(g->wait[c] + 1));
    for (int i = 0; i < n_lines; i++) h = mix(h, mask_word(lines[i]));
    for (int i = 0; g->flanks && i < n_lines; i++) h = mix(h, mask_word(g->flanks[i]) + 1);
    g->fingerprint = h;
    if (!families_setup(g)) {
        ss_game_free(g);
        return NULL;
    }
    windows_setup(g);
    if (!g->flanks) pairing_setup(g); /* a pairing's lines are k or more */
    if (!g->flanks) columns_setup(g); /* a column's wins are k or more */
    return g;
}

void ss_game_free(ss_game *g) {
    if (!g) return;
    free(g->lines);
    free(g->flanks);
    free(g->through);
    free(g->through_flanks);
    free(g->family_start);
    free(g->family_line);
    free(g);
}

/* The windows of each step at once: those free of `other` with exactly one empty cell (a bit-sliced
   count of their empty cells: `one` at least one, `two` at least two), then their empty cells. */
static mask window_threats(const ss_game *g, mask player, mask other) {
    mask empty = g->full & ~(player | other), threats = NO_CELLS;
    for (int i = 0; i < g->n_shifts; i++) {
        mask open = g->starts[i] & ~flanked(g, i, player), one = NO_CELLS, two = NO_CELLS;
        int step = g->shifts[i];
        for (int j = 0, shift = 0; j < g->line_length; j++, shift += step) {
            mask gap = shift_down(empty, shift);
            open &= ~shift_down(other, shift);
            two |= one & gap;
            one |= gap;
        }
        open &= one & ~two;
        for (int j = 0, shift = 0; any(open) && j < g->line_length; j++, shift += step)
            threats |= shift_up(open, shift) & empty;
    }
    return threats;
}

mask threats_of(const ss_game *g, mask player, mask other) {
    if (g->n_shifts >= 0) return window_threats(g, player, other);
    mask threats = NO_CELLS;
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        mask missing = line & ~player;
        if (!any(line & other) && any(missing) && !more_than_one(missing) && !(g->flanks && any(g->flanks[i] & player)))
            threats |= missing;
    }
    return threats;
}

ss_mask ss_threats(const ss_game *g, ss_mask player, ss_mask other) {
    return mask_out(threats_of(g, mask_in(player), mask_in(other)));
}
