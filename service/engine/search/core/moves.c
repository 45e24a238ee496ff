/* All of a position's moves proven in one call: the loop that shares a budget between them. On
   positions near the end each move's search takes microseconds and a call from Python around it ten
   times that (Connect Four after 28 plies: 110 us a position through the calls, 10 us in Pons's
   solver), so the loop runs here, as the engine in Python ran it. */
#include "moves.h"

int moves_met(int goal, int lo, int hi) {
    return lo == hi || (goal == SS_GOAL_RESULT && (lo >= 1 || hi <= -1 || (lo >= 0 && hi <= 0)));
}

int moves_spent(const ss_budget *b, int64_t used) {
    if (!b) return 0;
    return (b->max_nodes > 0 && used >= b->max_nodes) || (b->cancel && __atomic_load_n(b->cancel, __ATOMIC_RELAXED)) ||
           (b->deadline > 0 && ss_monotonic() >= b->deadline);
}

ss_budget moves_share(const ss_budget *b, int64_t used, double fraction) {
    ss_budget out = {0, 0, 0};
    if (!b) return out;
    out.cancel = b->cancel;
    if (b->deadline > 0) {
        double now = ss_monotonic(), left = b->deadline - now;
        out.deadline = now + (left > 0 ? left : 0) * fraction;
    }
    if (b->max_nodes > 0) {
        int64_t nodes = (int64_t)((double)(b->max_nodes - used) * fraction);
        out.max_nodes = nodes > 1 ? nodes : 1;
    }
    return out;
}

void ss_prove_moves(const ss_game *g, ss_table *t, uint64_t mine, uint64_t theirs, const int32_t *cells, int n,
                    int goal, const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent) {
    ss_result total = {SS_SCORE_MIN, SS_SCORE_MAX, SS_NO_MOVE, 0, 0, 0, 0, 0};
    for (int evenly = 1; evenly >= 0; evenly--) {
        int left = 0;
        for (int i = 0; i < n; i++) left += !moves_met(goal, lower[i], upper[i]);
        for (int i = 0; i < n && left; i++) {
            if (moves_met(goal, lower[i], upper[i])) continue;
            if (moves_spent(budget, total.nodes)) {
                total.stopped = 1;
                *spent = total;
                return;
            }
            ss_budget part = moves_share(budget, total.nodes, evenly ? 1.0 / left : 1.0);
            left--;
            ss_result child = {-upper[i], -lower[i], SS_NO_MOVE, 0, 0, 0, 0, 0};
            ss_prove(g, t, theirs, mine | bit(cells[i]), goal, budget ? &part : 0, &child);
            lower[i] = -child.upper;
            upper[i] = -child.lower;
            result_add_spent(&total, &child);
            total.stopped |= child.stopped;
        }
    }
    *spent = total;
}

void ss_score_moves(const ss_game *g, ss_table *t, uint64_t mine, uint64_t theirs, const int32_t *cells, int n,
                    int32_t *scores, ss_result *spent) {
    ss_result total = {SS_SCORE_MIN, SS_SCORE_MAX, SS_NO_MOVE, 0, 0, 0, 0, 0};
    uint64_t occupied = mine | theirs, completes = ss_threats(g, mine, theirs);
    int32_t ending = SS_BIG - (count(occupied) + 1); /* a move that completes a line: the game's last */
    for (int i = 0; i < n; i++) {
        uint64_t move = bit(cells[i]);
        if (completes & move) {
            scores[i] = g->misere ? -ending : ending;
        } else if ((occupied | move) == g->full) {
            scores[i] = 0;
        } else {
            ss_result child = {SS_SCORE_MIN, SS_SCORE_MAX, SS_NO_MOVE, 0, 0, 0, 0, 0};
            ss_prove(g, t, theirs, mine | move, SS_GOAL_SCORE, 0, &child);
            scores[i] = -child.lower;
            result_add_spent(&total, &child);
        }
    }
    *spent = total;
}

int ss_score_all(const ss_game *g, ss_table *t, uint64_t mine, uint64_t theirs, int32_t *cells, int32_t *scores,
                 ss_result *spent) {
    ss_result none = {SS_SCORE_MIN, SS_SCORE_MAX, SS_NO_MOVE, 0, 0, 0, 0, 0};
    uint64_t occupied = mine | theirs;
    *spent = none;
    if (occupied == g->full) return 0;
    for (int i = 0; i < g->n_lines; i++) {
        if ((theirs & g->lines[i]) == g->lines[i]) return 0; /* the side that just moved made a line */
    }
    int n = 0;
    for (uint64_t left = playable(g, occupied); left; left &= left - 1) cells[n++] = lowest_cell(left);
    ss_score_moves(g, t, mine, theirs, cells, n, scores, spent);
    return n;
}
