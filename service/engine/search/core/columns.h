/* Gravity boards whose lines are the rows, columns and diagonals of k cells (Connect Four and its
   other sizes) as column bitboards: each column a run of rows + 1 bits from the bottom, the top one a
   sentinel never set, so that a shift by 1 moves up a column, by rows + 1 along a row and by rows or
   rows + 2 along a diagonal, and no shift carries a line over from one column into the next. The
   moves, the threats and the lines are then a few shifts and masks, where the lines through a cell
   took a loop: Pons's solver and BitBully play Connect Four this way. Used when the board fits in 64
   bits so (columns * (rows + 1) <= 64: every gravity board up to 8 columns of 7). */
#ifndef SS_COLUMN_H
#define SS_COLUMN_H

#include <stdint.h>

#include "mask.h"
#include "sanmoku_search.h"

enum { COLUMN_MAX = 32 }; /* columns of one row and its sentinel in 64 bits */

typedef struct {
    int on;                 /* the game is played on column bitboards */
    int k, h1;              /* line length; bits per column (rows + 1) */
    int cols;               /* how many columns */
    mask bottom, board; /* each column's lowest bit; every cell's bit */
    int8_t cell_of[64];     /* the board's cell of a column bit; -1: a sentinel */
    int8_t bit_of[SS_MAX_CELLS]; /* the column bit of a board's cell */
    mask by_centre[COLUMN_MAX]; /* the columns' masks, the centre's first, then outward */
} columns;

/* Entries of column bitboards carry this bit in their second key (the occupied cells, whose top bit is
   always a sentinel or beyond the board): never equal to a key of cells in rows, which the estimates
   of the same game store in the same table. */
#define COLUMN_KEY_TAG bit(63)

/* bit x of the result is bit x + d of p */
static inline mask column_shift(mask p, int d) { return d > 0 ? shift_down(p, d) : shift_up(p, -d); }

/* The empty cells where the stones `p` would complete a line of four: Pons's compute_winning_position,
   written again from the idea (three stones in a row and the cell at either end or in either gap). */
static inline mask column_wins4(const columns *c, mask p, mask occupied) {
    mask r = shift_up(p, 1) & shift_up(p, 2) & shift_up(p, 3);
    const int steps[3] = {c->h1, c->h1 - 1, c->h1 + 1};
    for (int i = 0; i < 3; i++) {
        int s = steps[i];
        mask pair = shift_up(p, s) & shift_up(p, 2 * s);
        r |= pair & (shift_up(p, 3 * s) | shift_down(p, s));
        pair = shift_down(p, s) & shift_down(p, 2 * s);
        r |= pair & (shift_down(p, 3 * s) | shift_up(p, s));
    }
    return r & c->board & ~occupied;
}

/* The same for lines of any length: each cell of a window of k along each direction in turn empty. */
static inline mask column_wins_any(const columns *c, mask p, mask occupied) {
    const int steps[4] = {1, c->h1, c->h1 - 1, c->h1 + 1};
    mask r = NO_CELLS;
    for (int i = 0; i < 4; i++) {
        for (int gap = 0; gap < c->k; gap++) {
            mask all = ALL_CELLS;
            for (int j = 0; j < c->k; j++)
                if (j != gap) all &= column_shift(p, (j - gap) * steps[i]);
            r |= all;
        }
    }
    return r & c->board & ~occupied;
}

static inline mask column_wins(const columns *c, mask p, mask occupied) {
    return c->k == 4 ? column_wins4(c, p, occupied) : column_wins_any(c, p, occupied);
}

/* Cells (bit r * cols + col) to column bits, and back. */
static inline mask column_bits(const columns *c, mask cells) {
    mask out = NO_CELLS;
    for (; any(cells); cells = without_lowest(cells)) out |= bit(c->bit_of[lowest_cell(cells)]);
    return out;
}

#endif
