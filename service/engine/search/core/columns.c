/* Whether a board is searched on column bitboards (columns.h), and their shape. The exact search then
   runs on them (alphabeta.c, by columns): the same negamax over the same scores and table as by cells,
   with each node's rules as shifts. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "columns.h"

static int compare_masks(const void *a, const void *b) {
    ss_mask x = *(const ss_mask *)a, y = *(const ss_mask *)b;
    return (x > y) - (x < y);
}

/* Whether the game's lines are exactly the flat board's rows, columns and diagonals of k cells. */
static int straight_lines(const ss_game *g, int k) {
    const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    ss_mask *want = malloc(sizeof(ss_mask) * (size_t)(4 * g->cells)), *have = malloc(sizeof(ss_mask) * (size_t)g->n_lines);
    int n = 0, same = want && have;
    for (int r = 0; same && r < g->rows; r++)
        for (int c = 0; c < g->cols; c++)
            for (int d = 0; d < 4; d++) {
                int r_end = r + (k - 1) * dr[d], c_end = c + (k - 1) * dc[d];
                if (r_end >= g->rows || c_end < 0 || c_end >= g->cols) continue;
                ss_mask line = 0;
                for (int i = 0; i < k; i++) line |= bit((r + i * dr[d]) * g->cols + c + i * dc[d]);
                want[n++] = line;
            }
    if (same && n == g->n_lines) {
        memcpy(have, g->lines, sizeof(ss_mask) * (size_t)n);
        qsort(want, (size_t)n, sizeof(ss_mask), compare_masks);
        qsort(have, (size_t)n, sizeof(ss_mask), compare_masks);
        same = memcmp(want, have, sizeof(ss_mask) * (size_t)n) == 0;
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
    int k = count(g->lines[0]), h1 = g->rows + 1;
    /* every shift of column_wins stays below 64 bits */
    if (k < 2 || g->cols > COLUMN_MAX || g->cols * h1 > 64 || (k - 1) * (h1 + 1) >= 64) return;
    if (!straight_lines(g, k)) return;
    c->k = k;
    c->h1 = h1;
    c->cols = g->cols;
    for (int col = 0; col < g->cols; col++) {
        c->bottom |= bit(col * h1);
        for (int row = 0; row < g->rows; row++) { /* row 0 of the cells is the top, of the bits the bottom */
            int b = col * h1 + row, cell = (g->rows - 1 - row) * g->cols + col;
            c->board |= bit(b);
            c->cell_of[b] = (int8_t)cell;
            c->bit_of[cell] = (int8_t)b;
        }
    }
    for (int i = 0; i < g->cols; i++) { /* Pons's column order: the centre, then alternately out */
        int col = g->cols / 2 + (1 - 2 * (i % 2)) * (i + 1) / 2;
        c->by_centre[i] = (((ss_mask)1 << g->rows) - 1) << (col * h1);
    }
    c->on = 1;
}
