/* Exact negamax with alpha-beta over scores that carry the game's length, and the null-window driver
   that narrows a position's bounds: the result first (windows around 0), then the score by bisection. */
#include "node.h"
#include "order.h"
#include "search.h"

/* Fail-soft: a score <= alpha is an upper bound on the true one, >= beta a lower bound, else exact.
   When the budget runs out it returns 0 with s->m.stopped set, and stores nothing on the way up. */
static int negamax(searcher *s, uint64_t mine, uint64_t theirs, uint64_t my_thr, uint64_t their_thr,
                   int alpha, int beta, int ply) {
    if (meter_tick(&s->m, ply)) return 0;
    int64_t nodes_before = s->m.nodes;
    node nd;
    int score;
    if (settle(s->g, mine, theirs, my_thr, their_thr, &nd, &score)) return score;
    if (beta > nd.hi) {
        beta = nd.hi;
        if (alpha >= beta) return beta;
    }
    if (alpha < nd.lo) {
        alpha = nd.lo;
        if (alpha >= beta) return alpha;
    }
    int hint = SS_NO_MOVE;
    const tt_entry *e = tt_find(s->tt, mine, theirs);
    if (e) {
        hint = e->best;
        if (e->lower > alpha) {
            alpha = e->lower;
            if (alpha >= beta) return alpha;
        }
        if (e->upper < beta) {
            beta = e->upper;
            if (alpha >= beta) return beta;
        }
    }
    move_list list;
    order_moves(s->g, nd.moves, mine, theirs, my_thr, hint, &list);
    int best = SS_SCORE_MIN - 1, best_move = SS_NO_MOVE;
    for (int i = 0; i < list.n; i++) {
        int cell = list.cell[i];
        int floor = best > alpha ? best : alpha;
        int v = -negamax(s, theirs, mine | bit(cell), their_thr & ~bit(cell), list.threats[i], -beta, -floor,
                         ply + 1);
        if (s->m.stopped) return 0;
        if (v > best) {
            best = v;
            best_move = cell;
            if (v >= beta) break;
        }
    }
    int lower = nd.lo, upper = nd.hi;
    if (best <= alpha) {
        upper = best;
        best_move = SS_NO_MOVE; /* every move failed low: none is known to be better */
    } else if (best >= beta) {
        lower = best;
    } else {
        lower = upper = best;
    }
    tt_store(s->tt, mine, theirs, lower, upper, best_move, s->m.nodes - nodes_before);
    return best;
}

static int result_known(int lo, int hi) { return lo >= 1 || hi <= -1 || (lo >= 0 && hi <= 0); }

/* The null window (probe, probe + 1) to search next: around 0 until the result is known, then the
   middle of the bounds. */
static int next_probe(int lo, int hi) {
    if (!result_known(lo, hi)) return hi > 0 && lo < 0 ? 0 : lo >= 0 ? 0 : -1;
    return lo + (hi - lo) / 2;
}

void ss_prove(const ss_game *g, ss_table *t, uint64_t mine, uint64_t theirs, int goal, const ss_budget *budget,
              ss_result *r) {
    searcher s;
    searcher_start(&s, g, t, budget);
    uint64_t my_thr = ss_threats(g, mine, theirs), their_thr = ss_threats(g, theirs, mine);
    int lo = r->lower < SS_SCORE_MIN ? SS_SCORE_MIN : r->lower;
    int hi = r->upper > SS_SCORE_MAX ? SS_SCORE_MAX : r->upper;
    while (lo < hi && !(goal == SS_GOAL_RESULT && result_known(lo, hi))) {
        int probe = next_probe(lo, hi);
        int v = negamax(&s, mine, theirs, my_thr, their_thr, probe, probe + 1, 0);
        if (s.m.stopped) break;
        if (v > probe) lo = v;
        else hi = v;
    }
    const tt_entry *e = tt_find(t, mine, theirs);
    r->lower = lo;
    r->upper = hi;
    r->best_move = e && e->lower >= lo ? e->best : SS_NO_MOVE;
    r->estimate = 0;
    meter_report(&s.m, r);
}
