/* Depth-limited alpha-beta with a heuristic at the horizon, deepened one ply at a time, for positions
   no proof reaches. Scores are heuristic units: a settled score s reads s * SS_HEURISTIC_UNIT, and an
   evaluation stays below the smallest of those (36 units). */
#include "node.h"
#include "order.h"
#include "alphabeta.h"

enum {
    EVALUATION_LIMIT = 30 * SS_HEURISTIC_UNIT,
    SETTLED = (SS_BIG - SS_MAX_CELLS) * SS_HEURISTIC_UNIT, /* the least |score| of a game's end */
    INFINITE = SS_BIG * SS_HEURISTIC_UNIT + 1
};

/* Lines only one side holds marks on, weighted 4**marks, for the side to move; under misère such
   lines are the side's liabilities, so the sign turns. */
static int evaluate(const ss_game *g, uint64_t mine, uint64_t theirs) {
    int64_t total = 0;
    for (int i = 0; i < g->n_lines; i++) {
        uint64_t line = g->lines[i];
        int a = count(line & mine), b = count(line & theirs);
        if (!b && a) total += (int64_t)1 << (2 * a);
        else if (!a && b) total -= (int64_t)1 << (2 * b);
    }
    if (g->misere) total = -total;
    if (total > EVALUATION_LIMIT) total = EVALUATION_LIMIT;
    if (total < -EVALUATION_LIMIT) total = -EVALUATION_LIMIT;
    return (int)total;
}

static int alphabeta(searcher *s, uint64_t mine, uint64_t theirs, uint64_t my_thr, uint64_t their_thr,
                     int depth, int alpha, int beta, int ply) {
    if (meter_tick(&s->m, ply)) return 0;
    node nd;
    int score;
    if (settle(s->g, mine, theirs, my_thr, their_thr, &nd, &score)) return score * SS_HEURISTIC_UNIT;
    int hint = SS_NO_MOVE;
    tt_entry e;
    if (tt_find(s->tt, mine, theirs, &e)) {
        s->m.tt_hits++;
        if (e.lower == e.upper) return e.lower * SS_HEURISTIC_UNIT; /* proven: no horizon */
        hint = e.best;
    }
    if (depth == 0) return evaluate(s->g, mine, theirs);
    move_list list;
    order_moves(s->g, nd.moves, mine, theirs, my_thr, hint, &list);
    int best = -INFINITE, best_move = SS_NO_MOVE;
    for (int i = 0; i < list.n; i++) {
        int cell = list.cell[i];
        int floor = best > alpha ? best : alpha;
        int v = -alphabeta(s, theirs, mine | bit(cell), their_thr & ~bit(cell), list.threats[i], depth - 1, -beta,
                           -floor, ply + 1);
        if (s->m.halted) return 0;
        if (v > best) {
            best = v;
            best_move = cell;
            if (v >= beta) {
                s->m.cutoffs++;
                break;
            }
        }
    }
    if ((depth > 1 || ply == 0) && best > alpha) /* the next iteration's first move; no bound */
        tt_store(s->tt, mine, theirs, SS_SCORE_MIN, SS_SCORE_MAX, best_move, 0);
    return best;
}

void ss_estimate(const ss_game *g, ss_table *t, uint64_t mine, uint64_t theirs, int max_depth,
                 const ss_budget *budget, ss_result *r) {
    searcher s;
    searcher_start(&s, g, t, budget);
    uint64_t my_thr = ss_threats(g, mine, theirs), their_thr = ss_threats(g, theirs, mine);
    int empty = g->cells - count(mine | theirs), reached = 0, estimate = 0, best_move = SS_NO_MOVE;
    if (max_depth > empty) max_depth = empty; /* that deep, the horizon is the end of every game */
    for (int depth = 1; depth <= max_depth; depth++) {
        int v = alphabeta(&s, mine, theirs, my_thr, their_thr, depth, -INFINITE, INFINITE, 0);
        if (s.m.halted) break;
        tt_entry e;
        reached = depth;
        estimate = v;
        best_move = tt_find(t, mine, theirs, &e) ? e.best : SS_NO_MOVE;
        if (v >= SETTLED || v <= -SETTLED) break; /* a forced end within the horizon: deeper finds the same */
    }
    meter_report(&s.m, r);
    r->depth = reached;
    r->estimate = estimate;
    r->best_move = best_move;
    r->lower = SS_SCORE_MIN;
    r->upper = SS_SCORE_MAX;
    r->stopped = s.m.stopped;
}
