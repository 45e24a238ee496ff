/* Exact negamax with alpha-beta over scores that carry the game's length, and the null-window driver
   that narrows a position's bounds: the result first, then the score by bisection.

   The result is proven two ways in turn, each on a doubling allowance of nodes, until one finishes:
   windows around 0 (is it a win? is it at least a draw?), best for draws; and deepening on the game's
   length (a win within 1 ply? no loss within 2? a win within 3? ...), best where one side wins
   quickly, as on 7x7k4, where it proved positions after 6 plies with 120 times fewer nodes. The
   cost stays within a small factor of the better of the two. */
#include "node.h"
#include "order.h"
#include "search.h"

/* Fail-soft: a score <= alpha is an upper bound on the true one, >= beta a lower bound, else exact.
   When the budget or the allowance runs out it returns 0 with s->m.halted set, and stores nothing on
   the way up. */
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
    tt_entry e;
    if (tt_find(s->tt, mine, theirs, &e)) {
        s->m.tt_hits++;
        hint = e.best;
        if (e.lower > alpha) {
            alpha = e.lower;
            if (alpha >= beta) return alpha;
        }
        if (e.upper < beta) {
            beta = e.upper;
            if (alpha >= beta) return beta;
        }
    }
    for (uint64_t m = nd.moves; m; m &= m - 1) /* the children's entries arrive while the moves are ordered */
        tt_prefetch(s->tt, theirs, mine | bit(lowest_cell(m)));
    int best = SS_SCORE_MIN - 1, best_move = SS_NO_MOVE;
    move_list list;
    if (hint != SS_NO_MOVE && nd.moves & bit(hint)) { /* the table's move alone first: it often cuts */
        list.n = 1;
        list.cell[0] = (int8_t)hint;
        list.threats[0] = threats_after(s->g, my_thr, mine, theirs, hint);
        nd.moves &= ~bit(hint);
    } else {
        order_moves(s->g, nd.moves, mine, theirs, my_thr, SS_NO_MOVE, &list);
        nd.moves = 0;
    }
    for (int i = 0; i < list.n; i++) {
        int cell = list.cell[i];
        int floor = best > alpha ? best : alpha;
        int v = -negamax(s, theirs, mine | bit(cell), their_thr & ~bit(cell), list.threats[i], -beta, -floor,
                         ply + 1);
        if (s->m.halted) return 0;
        if (v > best) {
            best = v;
            best_move = cell;
            if (v >= beta) {
                s->m.cutoffs++;
                break;
            }
        }
        if (i == list.n - 1 && nd.moves) { /* the hint did not cut: now the others, in order */
            order_moves(s->g, nd.moves, mine, theirs, my_thr, SS_NO_MOVE, &list);
            nd.moves = 0;
            i = -1;
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

enum { FIRST_ALLOWANCE = 4096 };

typedef struct {
    uint64_t mine, theirs, my_thr, their_thr;
    int n;      /* marks on the board */
    int lo, hi; /* proven bounds on its score */
} root;

static int result_known(int lo, int hi) { return lo >= 1 || hi <= -1 || (lo >= 0 && hi <= 0); }

/* Whether the score is at least `target` (lo < target <= hi), by one null-window search that narrows
   the bounds; 0 when halted. */
static int probe(searcher *s, root *r, int target) {
    int v = negamax(s, r->mine, r->theirs, r->my_thr, r->their_thr, target - 1, target, 0);
    if (s->m.halted) return 0;
    if (v >= target) r->lo = v;
    else r->hi = v;
    return 1;
}

static int around_zero(searcher *s, root *r) {
    while (!result_known(r->lo, r->hi))
        if (!probe(s, r, r->hi > 0 && r->lo < 1 ? 1 : 0)) return 0;
    return 1;
}

/* Deepening from ply *d on: a win within d plies when d is the mover's winning parity, else no loss
   within d. Past the last ply both questions are the ones around 0, so the result is then known. */
static int by_length(searcher *s, root *r, int *d) {
    for (; !result_known(r->lo, r->hi) && r->n + *d <= s->g->cells; ++*d) {
        int wins = s->g->misere ? *d % 2 == 0 : *d % 2 == 1;
        int target = wins ? win_at(r->n + *d) : loss_at(r->n + *d) + 1;
        if (r->lo < target && target <= r->hi && !probe(s, r, target)) return 0;
    }
    return around_zero(s, r);
}

static void prove_result(searcher *s, root *r) {
    int d = 1;
    for (int64_t allowance = FIRST_ALLOWANCE; !s->m.stopped; allowance *= 2) {
        meter_allow(&s->m, allowance);
        if (around_zero(s, r) || s->m.stopped) break;
        meter_allow(&s->m, allowance);
        if (by_length(s, r, &d)) break;
    }
    meter_allow(&s->m, 0);
}

void ss_prove(const ss_game *g, ss_table *t, uint64_t mine, uint64_t theirs, int goal, const ss_budget *budget,
              ss_result *result) {
    searcher s;
    searcher_start(&s, g, t, budget);
    root r = {mine, theirs, ss_threats(g, mine, theirs), ss_threats(g, theirs, mine), count(mine | theirs),
              result->lower < SS_SCORE_MIN ? SS_SCORE_MIN : result->lower,
              result->upper > SS_SCORE_MAX ? SS_SCORE_MAX : result->upper};
    prove_result(&s, &r);
    while (goal == SS_GOAL_SCORE && r.lo < r.hi && !s.m.stopped) {
        int middle = r.lo + (r.hi - r.lo) / 2;
        if (!probe(&s, &r, middle + 1)) break;
    }
    tt_entry e;
    result->lower = r.lo;
    result->upper = r.hi;
    result->best_move = tt_find(t, mine, theirs, &e) && e.lower >= r.lo ? e.best : SS_NO_MOVE;
    result->estimate = 0;
    meter_report(&s.m, result);
}
