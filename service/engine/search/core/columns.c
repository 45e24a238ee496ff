/* The exact search on column bitboards (column.h): the same negamax over the same scores and table as
   search.c's, with each node's rules as shifts. A node knows both sides' threats (the empty cells
   where each would complete a line), so it wins at once on a playable threat of its own, blocks the
   opponent's (two: lost), never plays under one (the opponent would complete it on top), and wins in
   three when a safe move lies under two threats of its own stacked (BitBully's double threat: the
   opponent must block the first and so gives the second). */
#include <stdlib.h>
#include <string.h>

#include "node.h"
#include "alphabeta.h"

static int compare_masks(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether the game's lines are exactly the flat board's rows, columns and diagonals of k cells. */
static int straight_lines(const ss_game *g, int k) {
    const int dr[4] = {0, 1, 1, 1}, dc[4] = {1, 0, 1, -1};
    uint64_t *want = malloc(sizeof(uint64_t) * (size_t)(4 * g->cells)), *have = malloc(sizeof(uint64_t) * (size_t)g->n_lines);
    int n = 0, same = want && have;
    for (int r = 0; same && r < g->rows; r++)
        for (int c = 0; c < g->cols; c++)
            for (int d = 0; d < 4; d++) {
                int r_end = r + (k - 1) * dr[d], c_end = c + (k - 1) * dc[d];
                if (r_end >= g->rows || c_end < 0 || c_end >= g->cols) continue;
                uint64_t line = 0;
                for (int i = 0; i < k; i++) line |= bit((r + i * dr[d]) * g->cols + c + i * dc[d]);
                want[n++] = line;
            }
    if (same && n == g->n_lines) {
        memcpy(have, g->lines, sizeof(uint64_t) * (size_t)n);
        qsort(want, (size_t)n, sizeof(uint64_t), compare_masks);
        qsort(have, (size_t)n, sizeof(uint64_t), compare_masks);
        same = memcmp(want, have, sizeof(uint64_t) * (size_t)n) == 0;
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
        c->by_centre[i] = (((uint64_t)1 << g->rows) - 1) << (col * h1);
    }
    c->on = 1;
}

typedef struct {
    int n;
    uint64_t move[COLUMN_MAX];
    uint64_t threats[COLUMN_MAX]; /* the mover's threats after the move: the child needs them */
} column_moves;

/* By the threats each move leaves its player (Pons's order), the centre's first among equals. */
static void order(const columns *c, uint64_t moves, uint64_t mine, uint64_t occupied, column_moves *out) {
    int score[COLUMN_MAX];
    int n = 0;
    for (int col = 0; moves; col++) {
        uint64_t move = moves & c->by_centre[col];
        if (!move) continue;
        moves &= ~move;
        uint64_t threats = column_wins(c, mine | move, occupied | move);
        int s = count(threats), i = n++;
        for (; i > 0 && score[i - 1] < s; i--) {
            score[i] = score[i - 1];
            out->move[i] = out->move[i - 1];
            out->threats[i] = out->threats[i - 1];
        }
        score[i] = s;
        out->move[i] = move;
        out->threats[i] = threats;
    }
    out->n = n;
}

int column_negamax(searcher *s, uint64_t mine, uint64_t occupied, uint64_t my_thr, uint64_t their_thr, int alpha,
                   int beta, int ply) {
    if (meter_tick(&s->m, ply)) return 0;
    const ss_game *g = s->g;
    const columns *c = &g->col;
    int n = count(occupied);
    uint64_t moves = (occupied + c->bottom) & c->board;
    if (my_thr & moves) return win_at(n + 1);
    uint64_t forced = their_thr & moves;
    if (forced) {
        if (more_than_one(forced)) return loss_at(n + 2);
        moves = forced;
    }
    moves &= ~(their_thr >> 1);
    if (!moves) return loss_at(n + 2);
    if (n + 2 >= g->cells) return 0; /* my move cannot win, nor the opponent's last after it */
    if (moves & (my_thr >> 1) & (my_thr >> 2)) return win_at(n + 3);
    int lo = n + 4 <= g->cells ? loss_at(n + 4) : 0, hi = win_at(n + 3), hint, cut;
    if (narrow(&alpha, &beta, lo, hi, &cut)) return cut;
    int64_t nodes_before = s->m.nodes;
    uint64_t theirs = mine ^ occupied;
    if (narrow_by_table(s, mine, occupied | COLUMN_KEY_TAG, &alpha, &beta, &hint, &cut)) return cut;
    for (uint64_t m = moves; m; m &= m - 1) tt_prefetch(s->tt, theirs, (occupied | (m & -m)) | COLUMN_KEY_TAG);
    int best = SS_SCORE_MIN - 1, best_move = SS_NO_MOVE;
    column_moves list;
    if (hint != SS_NO_MOVE && moves & bit(hint)) { /* the table's move alone first: it often cuts */
        list.n = 1;
        list.move[0] = bit(hint);
        list.threats[0] = column_wins(c, mine | bit(hint), occupied | bit(hint));
        moves &= ~bit(hint);
    } else {
        order(c, moves, mine, occupied, &list);
        moves = 0;
    }
    for (int i = 0; i < list.n; i++) {
        uint64_t move = list.move[i];
        int floor = best > alpha ? best : alpha;
        int v = -column_negamax(s, theirs, occupied | move, their_thr & ~move, list.threats[i], -beta, -floor, ply + 1);
        if (s->m.halted) return 0;
        if (v > best) {
            best = v;
            best_move = lowest_cell(move);
            if (v >= beta) {
                s->m.cutoffs++;
                break;
            }
        }
        if (i == list.n - 1 && moves) { /* the hint did not cut: now the others, in order */
            order(c, moves, mine, occupied, &list);
            moves = 0;
            i = -1;
        }
    }
    int lower = lo, upper = hi;
    if (best <= alpha) {
        upper = best;
        best_move = SS_NO_MOVE;
    } else if (best >= beta) {
        lower = best;
    } else {
        lower = upper = best;
    }
    tt_store(s->tt, mine, occupied | COLUMN_KEY_TAG, lower, upper, best_move, s->m.nodes - nodes_before);
    return best;
}
