/* Whether a board is searched on column bitboards (columns.h), and their shape, found from the board's
   description alone: its waits must make columns (each cell that waits for none the foot of a chain,
   each cell waited for by one cell at most, every chain as tall, the chains ordered by their feet's
   numbers), and its lines must be exactly the rows, columns and diagonals of k cells of the grid those
   columns make. The exact search then runs on them (alphabeta.c, by columns): the same negamax over
   the same scores and table as by cells, with each node's rules as shifts. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "columns.h"

/* The grid the waits make: cell[col][row], row 0 at the foot of a column. */
typedef struct {
    int cols, rows;                             /* how many columns, and the cells of each */
    int8_t cell[COLUMN_MAX][SS_MAX_CELLS]; /* the cell at each column and height */
} grid;

/* 1 and the grid when the waits make columns of one height, at most COLUMN_MAX of them. */
static int columns_of(const ss_game *g, grid *out) {
    out->cols = 0;
    out->rows = -1;
    for (mask feet = g->unwaiting; any(feet); feet = without_lowest(feet)) {
        if (out->cols == COLUMN_MAX) return 0;
        int cell = lowest_cell(feet), height = 0;
        for (;;) {
            out->cell[out->cols][height++] = (int8_t)cell;
            mask above = g->freed_by[cell];
            if (!any(above)) break;
            if (more_than_one(above)) return 0; /* two cells wait for one: not a column */
            cell = lowest_cell(above);
        }
        if (out->rows >= 0 && height != out->rows) return 0;
        out->rows = height;
        out->cols++;
    }
    return out->cols * out->rows == g->cells;
}

static int compare_masks(const void *a, const void *b) {
    mask x = *(const mask *)a, y = *(const mask *)b;
    return mask_order(x, y);
}

/* Whether the game's lines are exactly the grid's rows, columns and diagonals of k cells. */
static int straight_lines(const ss_game *g, const grid *at, int k) {
    const int dc[4] = {1, 0, 1, 1}, dr[4] = {0, 1, 1, -1}; /* along a row, up a column, the two diagonals */
    mask *want = malloc(sizeof(mask) * (size_t)(4 * g->cells)), *have = malloc(sizeof(mask) * (size_t)g->n_lines);
    int n = 0, same = want && have;
    for (int col = 0; same && col < at->cols; col++)
        for (int row = 0; row < at->rows; row++)
            for (int d = 0; d < 4; d++) {
                int col_end = col + (k - 1) * dc[d], row_end = row + (k - 1) * dr[d];
                if (col_end >= at->cols || row_end < 0 || row_end >= at->rows) continue;
                mask line = NO_CELLS;
                for (int i = 0; i < k; i++) line |= bit(at->cell[col + i * dc[d]][row + i * dr[d]]);
                want[n++] = line;
            }
    if (same && n == g->n_lines) {
        memcpy(have, g->lines, sizeof(mask) * (size_t)n);
        qsort(want, (size_t)n, sizeof(mask), compare_masks);
        qsort(have, (size_t)n, sizeof(mask), compare_masks);
        same = memcmp(want, have, sizeof(mask) * (size_t)n) == 0;
    } else {
        same = 0;
    }
    free(want);
    free(have);
    return same;
}

void columns_setup(ss_game *g) {
    columns *c = &g->col;
    memset(c, 0, sizeof *c);
    memset(c->cell_of, -1, sizeof c->cell_of);
    if (!g->gravity || g->misere || g->n_lines == 0) return;
    grid at;
    if (!columns_of(g, &at)) return;
    int k = count(g->lines[0]), h1 = at.rows + 1;
    /* every shift of column_wins stays below 64 bits */
    if (k < 2 || at.cols * h1 > 64 || (k - 1) * (h1 + 1) >= 64) return;
    if (!straight_lines(g, &at, k)) return;
    c->k = k;
    c->h1 = h1;
    c->cols = at.cols;
    for (int col = 0; col < at.cols; col++) {
        c->bottom |= bit(col * h1);
        for (int row = 0; row < at.rows; row++) {
            int b = col * h1 + row, cell = at.cell[col][row];
            c->board |= bit(b);
            c->cell_of[b] = (int8_t)cell;
            c->bit_of[cell] = (int8_t)b;
        }
    }
    for (int i = 0; i < at.cols; i++) { /* Pons's column order: the centre, then alternately out */
        int col = at.cols / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2;
        c->by_centre[i] = shift_up(first_cells(at.rows), col * h1);
    }
    c->on = 1;
}
