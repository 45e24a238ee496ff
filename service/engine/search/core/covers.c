/* Enumerating a group's covers, depth-first: the first line not yet covered, each pair of its free cells,
   the pairs serving most lines first; a cover is kept when no cover kept before uses a subset of its
   cells (and replaces those that use a superset). At most WALK_STEPS steps per group.

   Sibling positions of a search share most of their groups (a move changes at most four), so each
   thread keeps the covers of the groups it has seen in a direct-mapped cache, keyed by the group's lines
   (compared whole, not by a hash alone: a collision costs a walk, never a wrong cover). Groups of more
   than CACHED_LINES lines, or covers of more than CACHED_PAIRS pairs, are walked every time. */
#include <stdlib.h>
#include <string.h>

#include "covers.h"

enum { WALK_STEPS = 4096, CACHED_LINES = 8, CACHED_PAIRS = 8, CACHE_SLOTS = 4096 };

typedef struct {
    const uint64_t *lines; /* the group's live lines, as their empty cells */
    int n_lines;
    int8_t stack[SS_MAX_CELLS / 2][2];
    int depth;
    int first_cover;
    int steps; /* of this group's walk: at most WALK_STEPS */
} cover_walk;

static void keep_cover(pairing_state *st, cover_walk *w, uint64_t used) {
    for (int i = w->first_cover; i < st->n_covers; i++) {
        uint64_t other = st->covers[i].cells;
        if ((other & used) == other) return; /* a cover with a subset of its cells is kept already */
    }
    if (st->n_covers - w->first_cover >= MAX_COVERS || st->n_pool + w->depth > MAX_POOL) return;
    for (int i = w->first_cover; i < st->n_covers; i++) { /* it replaces the covers it is a subset of */
        if ((st->covers[i].cells & used) == used) st->covers[i--] = st->covers[--st->n_covers];
    }
    cover *c = &st->covers[st->n_covers++];
    c->cells = used;
    c->first = st->n_pool;
    c->n = w->depth;
    memcpy(st->pool[st->n_pool], w->stack, sizeof(int8_t[2]) * (size_t)w->depth);
    st->n_pool += w->depth;
}

static void walk(pairing_state *st, cover_walk *w, uint64_t covered, uint64_t used) {
    if (++w->steps > WALK_STEPS) return;
    int line = -1;
    for (int i = 0; i < w->n_lines && line < 0; i++)
        if (!(covered >> i & 1)) line = i;
    if (line < 0) {
        keep_cover(st, w, used);
        return;
    }
    uint64_t free = w->lines[line] & ~used;
    int cells[SS_MAX_CELLS], n = 0;
    for (uint64_t m = free; m; m &= m - 1) cells[n++] = lowest_cell(m);
    /* each pair with the lines it serves, most first */
    enum { MAX_PAIRS = 128 };
    uint64_t pair_cells[MAX_PAIRS], serves[MAX_PAIRS];
    int n_pairs = 0;
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n && n_pairs < MAX_PAIRS; b++) {
            uint64_t p = bit(cells[a]) | bit(cells[b]), lines = 0;
            for (int i = 0; i < w->n_lines; i++)
                if ((w->lines[i] & p) == p) lines |= (uint64_t)1 << i;
            int j = n_pairs++;
            for (; j > 0 && count(serves[j - 1]) < count(lines); j--) {
                pair_cells[j] = pair_cells[j - 1];
                serves[j] = serves[j - 1];
            }
            pair_cells[j] = p;
            serves[j] = lines;
        }
    }
    for (int j = 0; j < n_pairs; j++) {
        uint64_t p = pair_cells[j];
        w->stack[w->depth][0] = (int8_t)lowest_cell(p);
        w->stack[w->depth][1] = (int8_t)lowest_cell(p & (p - 1));
        w->depth++;
        walk(st, w, covered | serves[j], used | p);
        w->depth--;
        if (w->steps > WALK_STEPS) return;
    }
}

typedef struct {
    uint64_t lines[CACHED_LINES]; /* the group's lines, sorted; n_lines 0: a free slot */
    int n_lines, n_covers;
    uint64_t cells[MAX_COVERS];
    int8_t pairs[MAX_COVERS][CACHED_PAIRS][2];
    int8_t n_pairs[MAX_COVERS];
} cached_group;

static _Thread_local cached_group *cache; /* CACHE_SLOTS groups: 5 MB per thread that pairs */

void covers_release(void) {
    free(cache);
    cache = NULL;
}

static cached_group *slot_of(const uint64_t *sorted, int n) {
    if (!cache && !(cache = calloc(CACHE_SLOTS, sizeof *cache))) return NULL;
    uint64_t h = (uint64_t)n;
    for (int i = 0; i < n; i++) h = (h ^ sorted[i]) * 0x9E3779B97F4A7C15ULL, h ^= h >> 31;
    return cache + (h % CACHE_SLOTS);
}

static void finish_group(pairing_state *st, int first) {
    for (int i = first + 1; i < st->n_covers; i++) { /* insertion sort by the number of cells */
        cover c = st->covers[i];
        int j = i;
        for (; j > first && count(st->covers[j - 1].cells) > count(c.cells); j--) st->covers[j] = st->covers[j - 1];
        st->covers[j] = c;
    }
    st->groups[st->n_groups].first = first;
    st->groups[st->n_groups].n = st->n_covers - first;
    st->n_groups++;
}

int add_group(pairing_state *st, const uint64_t *lines, int n_lines) {
    int first = st->n_covers;
    cached_group *slot = NULL;
    uint64_t sorted[CACHED_LINES];
    if (n_lines <= CACHED_LINES) {
        for (int i = 0; i < n_lines; i++) {
            int j = i;
            for (; j > 0 && sorted[j - 1] > lines[i]; j--) sorted[j] = sorted[j - 1];
            sorted[j] = lines[i];
        }
        slot = slot_of(sorted, n_lines);
    }
    if (slot && slot->n_lines == n_lines && !memcmp(slot->lines, sorted, sizeof(uint64_t) * (size_t)n_lines)) {
        for (int i = 0; i < slot->n_covers && st->n_pool + slot->n_pairs[i] <= MAX_POOL; i++) {
            cover *c = &st->covers[st->n_covers++];
            c->cells = slot->cells[i];
            c->first = st->n_pool;
            c->n = slot->n_pairs[i];
            memcpy(st->pool[st->n_pool], slot->pairs[i], sizeof(int8_t[2]) * (size_t)c->n);
            st->n_pool += c->n;
        }
    } else {
        cover_walk w = {lines, n_lines, {{0}}, 0, first, 0};
        walk(st, &w, 0, 0);
        int fits = slot != NULL;
        for (int i = first; i < st->n_covers; i++) fits &= st->covers[i].n <= CACHED_PAIRS;
        if (fits) {
            slot->n_lines = n_lines;
            memcpy(slot->lines, sorted, sizeof(uint64_t) * (size_t)n_lines);
            slot->n_covers = st->n_covers - first;
            for (int i = 0; i < slot->n_covers; i++) {
                const cover *c = &st->covers[first + i];
                slot->cells[i] = c->cells;
                slot->n_pairs[i] = (int8_t)c->n;
                memcpy(slot->pairs[i], st->pool[c->first], sizeof(int8_t[2]) * (size_t)c->n);
            }
        }
    }
    finish_group(st, first);
    return st->n_covers > first;
}
