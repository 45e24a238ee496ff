/* Estimates: depth-limited alpha-beta (alphabeta.c, ab_horizon) with a heuristic at the horizon,
   deepened one ply at a time, for positions no proof reaches. Scores are heuristic units: a settled
   score s reads s * SS_HEURISTIC_UNIT, and an evaluation stays below the smallest of those (36 units). */
#include "alphabeta.h"

/* Lines only one side holds marks on, weighted 4**marks, for the side to move; under misère such
   lines are the side's liabilities, so the sign turns. */
int horizon_score(const ss_game *g, mask mine, mask theirs) {
    int64_t total = 0;
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        int a = count(line & mine), b = count(line & theirs);
        if (!b && a) total += (int64_t)1 << (2 * a);
        else if (!a && b) total -= (int64_t)1 << (2 * b);
    }
    if (g->misere) total = -total;
    if (total > HORIZON_LIMIT) total = HORIZON_LIMIT;
    if (total < -HORIZON_LIMIT) total = -HORIZON_LIMIT;
    return (int)total;
}

void estimate_position(const ss_game *g, ss_table *t, mask mine, mask theirs, int max_depth,
                       const ss_budget *budget, ss_result *r) {
    searcher s;
    searcher_start(&s, g, t, budget);
    mask my_thr = threats_of(g, mine, theirs), their_thr = threats_of(g, theirs, mine);
    int empty = g->cells - count(mine | theirs), reached = 0, estimate = 0, best_move = SS_NO_MOVE;
    if (max_depth > empty) max_depth = empty; /* that deep, the horizon is the end of every game */
    for (int depth = 1; depth <= max_depth; depth++) {
        int v = ab_horizon(&s, mine, theirs, my_thr, their_thr, depth, -HORIZON_INFINITE, HORIZON_INFINITE, 0);
        if (s.m.halted) break;
        tt_entry e;
        reached = depth;
        estimate = v;
        best_move = tt_find(t, tt_key_of(mine, theirs), &e) ? e.best : SS_NO_MOVE;
        /* a forced end within the horizon: deeper finds the same */
        if (v >= HORIZON_SETTLED || v <= -HORIZON_SETTLED) break;
    }
    meter_report(&s.m, r);
    r->depth = reached;
    r->estimate = estimate;
    r->best_move = best_move;
    r->lower = SS_SCORE_MIN;
    r->upper = SS_SCORE_MAX;
    r->stopped = s.m.stopped;
}
