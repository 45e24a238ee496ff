/* The board and its rules, as bitboards derived once from the board's description: which cells can be
   played, the lines through each cell, the threats a move creates, and the lines as the provers read
   them. */
#ifndef SS_BOARD_H
#define SS_BOARD_H

#include <stdint.h>

#include "columns.h"
#include "mask.h"
#include "sanmoku_search.h"

/* How gravity moves, by steps: cell c of `cells` waits for cell c + step (a step of a regular grid is its
   number of columns, the cell below; a board may have several, or none). */
typedef struct {
    int step;      /* from a waiting cell to the cell it waits for */
    mask cells; /* the cells that wait by this step */
} wait_step;

/* A board's rules as bitboards, derived once from its description (ss_board). Under gravity, a 3x4 grid
   numbered row by row from the top waits by one step, +4 (the cell below), the bottom row for none:

        cells        waits for        wait_steps: {+4, cells 0-7}
      0  1  2  3     4  5  6  7       unwaiting:  cells 8-11
      4  5  6  7     8  9 10 11       freed_by[9]: cell 5
      8  9 10 11     -  -  -  -
*/
enum { MAX_PHASES = 8 }; /* of the lines apart (below): windows of up to nine cells */
/* The steps of the windows: a flat board has 4 (a row, a column, two diagonals), a box of layers 13
   (each cell's 26 neighbours, half of them: a window runs one way from its first cell). */
enum { MAX_STEPS = 13 };

struct ss_game {
    int cells;                          /* cells 0 .. cells - 1 */
    int misere;                         /* completing a line loses */
    int gravity;                        /* some cell waits for another: not every empty cell is playable */
    mask full;                       /* every cell */
    ss_cell wait[SS_MAX_CELLS];         /* the cell each cell waits for; SS_NO_CELL: none */
    mask unwaiting;                  /* the cells that wait for none: playable whenever empty */
    mask freed_by[SS_MAX_CELLS];     /* the cells that wait for cell c: playable once c is taken */
    int n_wait_steps;                   /* how many steps gravity moves by (0 without gravity) */
    wait_step wait_steps[SS_MAX_CELLS]; /* the waiting cells by their step */
    int n_lines;                        /* how many lines */
    mask *lines;                     /* the winning (misère: losing) sets of cells */
    mask *flanks;                    /* per line, the cells beside its ends ("exactly k"); NULL: k or more */
    int through_start[SS_MAX_CELLS + 1]; /* lines through cell c: through[through_start[c] ..[c + 1]) */
    mask *through;                   /* the lines through each cell in turn (through_start) */
    mask *through_flanks;            /* the flanks of those lines in the same order; NULL: k or more */
    /* The lines in families: lines linked through sharing two cells or more (on a flat board, the
       windows of one row, column or diagonal), family f's lines being lines[family_line[i]] for i in
       family_start[f] .. family_start[f + 1]; the pairing search only links lines of one family. */
    int n_families;                     /* how many families */
    int *family_start, *family_line;    /* where each family starts in family_line; the lines in turn */
    /* The lines as windows, when they all are (a flat board's rows, columns and diagonals): each of
       line_length cells, its first cell shifted n_shifts times by one of the steps `shifts`, the first
       cells of the windows of step shifts[i] in starts[i]; the threats are then found for all the
       windows of a step at once (ss_threats). n_shifts = -1: they are not (a torus's lines wrap). */
    int n_shifts, line_length;          /* the steps the windows take, and their length */
    int shifts[MAX_STEPS];              /* the steps: from a window's cell to its next */
    mask starts[MAX_STEPS];          /* the first cells of the windows of each step */
    /* Under "exactly k", the first cells of the windows of each step whose flanks hold the cell before
       the first (first - step) and the cell after the last (first + k * step): a mark of the window's
       owner there takes the window away. */
    mask flank_before[MAX_STEPS], flank_after[MAX_STEPS];
    /* The pairing search's lines apart (pairing.c, pairing_setup): with the lines windows of length k,
       for each of their steps and each phase p < k - 1, the first cells of the windows whose place along
       their row (column, diagonal) is p modulo k - 1; two of them share at most one cell. n_phases: k - 1,
       or 0 when not set (the lines not windows, k - 1 past MAX_PHASES or below 2). */
    int n_phases;
    mask apart[MAX_STEPS][MAX_PHASES];
    uint64_t fingerprint;               /* tells a table which game its entries belong to */
    columns col;                        /* col.on: searched on column bitboards (columns.h) */
};

/* The empty cells where `player` would complete a line (ss_threats, board.c). */
mask threats_of(const ss_game *g, mask player, mask other);

/* Fills g->col: whether the game is searched on column bitboards, and their shape. */
void columns_setup(ss_game *g);

/* Sets of at most 64 things that are not cells (a group's lines, a search's groups, a group's covers):
   plain words, whatever the width of a mask. */
static inline uint64_t word_bit(int i) { return (uint64_t)1 << i; }
static inline int word_lowest(uint64_t word) { return __builtin_ctzll(word); }
static inline int word_count(uint64_t word) { return __builtin_popcountll(word); }

/* Cell c moved to c + step: the cells that `cells` wait for by the step. */
static inline mask to_waited(int step, mask cells) { return step > 0 ? shift_up(cells, step) : shift_down(cells, -step); }

/* Cell c moved to c - step: the cells that would wait for `cells` by the step. */
static inline mask to_waiting(int step, mask cells) { return step > 0 ? shift_down(cells, step) : shift_up(cells, -step); }

/* The cells the side to move may play: every empty cell, or under gravity every empty cell whose
   wait-cell is taken (on a grid, the lowest empty cell of each column). */
static inline mask playable(const ss_game *g, mask occupied) {
    mask empty = g->full & ~occupied;
    if (!g->gravity) return empty;
    mask ready = g->unwaiting;
    for (int i = 0; i < g->n_wait_steps; i++)
        ready |= to_waiting(g->wait_steps[i].step, occupied) & g->wait_steps[i].cells;
    return empty & ready;
}

/* The cells some cell of `cells` waits for (on a grid, the cells below them). */
static inline mask waited_for(const ss_game *g, mask cells) {
    mask out = NO_CELLS;
    for (int i = 0; i < g->n_wait_steps; i++)
        out |= to_waited(g->wait_steps[i].step, cells & g->wait_steps[i].cells);
    return out;
}

/* The first cells of the windows of step shifts[i] that a mark of `player` beside them takes away from
   it ("exactly k"; none under "k or more"). */
static inline mask flanked(const ss_game *g, int i, mask player) {
    if (!g->flanks) return NO_CELLS;
    int step = g->shifts[i];
    mask out = shift_up(player, step) & g->flank_before[i];
    /* none has a cell after it when k steps pass the widest board the build holds (nor a shift as long) */
    if (any(g->flank_after[i])) out |= shift_down(player, g->line_length * step) & g->flank_after[i];
    return out;
}

/* `player`'s threats after it plays `cell` (its threats before are `threats`; the opponent holds
   `other`): the lines through the cell that now lack exactly one empty cell add that cell. Under
   "exactly k" a mark can also take threats away (beside a line, it makes the line part of a longer
   run), so they are found again. */
static inline mask threats_after(const ss_game *g, mask threats, mask player, mask other,
                                     int cell) {
    mask now = player | bit(cell);
    if (g->flanks) return threats_of(g, now, other);
    threats &= ~bit(cell);
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        mask line = g->through[i];
        mask missing = line & ~now;
        if (!any(line & other) && any(missing) && !more_than_one(missing)) threats |= missing;
    }
    return threats;
}

/* The lines as the provers read them (normal rule, no gravity): the cells that complete a line now
   (threats), the moves that make a threat, and the moves that make two at once (double threats). A line
   counts for a side while the other side holds none of its cells. */

/* The empty cells where `p` completes a line (`o` holds the rest of the board's marks). */
static inline mask pl_threats(const ss_game *g, mask p, mask o) { return threats_of(g, p, o); }

/* For `p` to move: after[c] |= the cells that become p's threats when p plays c (lines free of `o` with
   exactly two empty cells, c one of them); the cells where p makes a threat; and (*doubles) those where
   p makes two distinct threats at once. `after` has room for SS_MAX_CELLS and is cleared here. */
static inline mask pl_threat_moves(const ss_game *g, mask p, mask o, mask *after,
                                       mask *doubles) {
    mask empty = g->full & ~(p | o), makers = NO_CELLS, twice = NO_CELLS;
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        if (any(line & o) || (g->flanks && any(g->flanks[i] & p))) continue; /* "exactly k": p beside */
        mask gaps = line & empty;
        if (!more_than_one(gaps) || more_than_one(without_lowest(gaps))) continue; /* exactly two */
        int a = lowest_cell(gaps), b = lowest_cell(without_lowest(gaps));
        if (!any(makers & bit(a))) after[a] = NO_CELLS;
        if (!any(makers & bit(b))) after[b] = NO_CELLS;
        makers |= gaps;
        after[a] |= bit(b);
        after[b] |= bit(a);
        if (more_than_one(after[a])) twice |= bit(a);
        if (more_than_one(after[b])) twice |= bit(b);
    }
    *doubles = twice;
    return makers;
}

/* The cells that become p's threats when p plays `cell` (after[cell] of pl_threat_moves). */
static inline mask pl_partners(const ss_game *g, mask p, mask o, int cell) {
    mask empty = g->full & ~(p | o), partners = NO_CELLS;
    if (!any(empty & bit(cell))) return NO_CELLS;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        mask line = g->through[i], gaps = line & empty & ~bit(cell);
        if (g->through_flanks && any(g->through_flanks[i] & p)) continue; /* "exactly k": p beside */
        if (!any(line & o) && any(gaps) && !more_than_one(gaps)) partners |= gaps;
    }
    return partners;
}

/* pl_threat_moves without `after`: the cells where p makes a threat, and (*doubles) two at once. On a
   flat board, all of a step's windows at once (as ss_threats): those free of `o` with exactly two empty
   cells (a bit-sliced count), then how many such windows each cell is a gap of; a cell in two or more
   makes two distinct threats unless the windows share their other gap, which pl_partners tells. */
static inline mask pl_threat_makers(const ss_game *g, mask p, mask o, mask *doubles) {
    if (g->n_shifts < 0) {
        mask after[SS_MAX_CELLS];
        return pl_threat_moves(g, p, o, after, doubles);
    }
    mask empty = g->full & ~(p | o), once = NO_CELLS, twice = NO_CELLS;
    for (int i = 0; i < g->n_shifts; i++) {
        mask open = g->starts[i] & ~flanked(g, i, p), one = NO_CELLS, two = NO_CELLS, three = NO_CELLS;
        int step = g->shifts[i];
        for (int j = 0, shift = 0; j < g->line_length; j++, shift += step) {
            mask gap = shift_down(empty, shift);
            open &= ~shift_down(o, shift);
            three |= two & gap;
            two |= one & gap;
            one |= gap;
        }
        open &= two & ~three;
        for (int j = 0, shift = 0; any(open) && j < g->line_length; j++, shift += step) {
            mask cells = shift_up(open, shift) & empty;
            twice |= once & cells;
            once |= cells;
        }
    }
    mask both = NO_CELLS;
    for (mask m = twice; any(m); m = without_lowest(m))
        if (more_than_one(pl_partners(g, p, o, lowest_cell(m)))) both |= lowest_only(m);
    *doubles = both;
    return once;
}

/* Whether some line is still free of `o`'s marks (its owner could complete it). */
static inline int pl_has_line(const ss_game *g, mask o) {
    for (int i = 0; i < g->n_lines; i++)
        if (!any(g->lines[i] & o)) return 1;
    return 0;
}

/* `zone` grown until every line free of `o` that avoids `skip` has at least `need` of its empty cells in
   it (or all of them): the cells that keep the lines' counts of empty cells out of reach of marks played
   outside the zone. */
static inline mask pl_cover(const ss_game *g, mask o, mask empty, mask skip, int need,
                                mask zone) {
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        if (any(line & (o | skip))) continue;
        mask gaps = line & empty;
        for (int have = count(gaps & zone); have < need && any(gaps & ~zone); have++)
            zone |= bit(lowest_cell(gaps & ~zone));
    }
    return zone;
}

#endif
