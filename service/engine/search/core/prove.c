/* The exact search's driver: null-window searches (alphabeta.c) that narrow a position's bounds, the
   result first, then the score; and the loops over a position's moves.

   The result is proven two ways in turn, each on a doubling allowance of nodes, until one finishes:
   windows around 0 (is it a win? is it at least a draw?), best for draws; and deepening on the game's
   length (a win within 1 ply? no loss within 2? a win within 3? ...), best where one side wins
   quickly, as on 7x7k4, where it proved positions after 6 plies with 120 times fewer nodes. The
   cost stays within a small factor of the better of the two. */
#include "alphabeta.h"
#include "columns.h"

enum { FIRST_ALLOWANCE = 4096 };

typedef struct {
    mask mine, theirs, my_thr, their_thr; /* by cells, or (col.on) by column bits: theirs = all stones */
    int n;      /* marks on the board */
    int lo, hi; /* proven bounds on its score */
} root;

static root root_of(const ss_game *g, mask mine, mask theirs, int lo, int hi) {
    root r = {mine, theirs, NO_CELLS, NO_CELLS, count(mine | theirs), lo < SS_SCORE_MIN ? SS_SCORE_MIN : lo,
              hi > SS_SCORE_MAX ? SS_SCORE_MAX : hi};
    if (g->col.on) {
        const columns *c = &g->col;
        r.mine = column_bits(c, mine);
        r.theirs = r.mine | column_bits(c, theirs);
        r.my_thr = column_wins(c, r.mine, r.theirs);
        r.their_thr = column_wins(c, r.mine ^ r.theirs, r.theirs);
    } else {
        r.my_thr = threats_of(g, mine, theirs);
        r.their_thr = threats_of(g, theirs, mine);
    }
    return r;
}

/* The root's best move from the table: a cell, or SS_NO_MOVE when none is known to reach `lo`. */
static int root_best(const ss_game *g, ss_table *t, const root *r) {
    tt_entry e;
    if (g->col.on) {
        if (!tt_find(t, tt_key_of(r->mine, r->theirs | COLUMN_KEY_TAG), &e) || e.lower < r->lo || e.best == SS_NO_MOVE)
            return SS_NO_MOVE;
        return g->col.cell_of[e.best];
    }
    return tt_find(t, tt_key_of(r->mine, r->theirs), &e) && e.lower >= r->lo ? e.best : SS_NO_MOVE;
}

static int result_known(int lo, int hi) { return lo >= 1 || hi <= -1 || (lo >= 0 && hi <= 0); }

/* Whether the score is at least `target` (lo < target <= hi), by one null-window search that narrows
   the bounds; 0 when halted. */
static int probe(searcher *s, root *r, int target) {
    int v = s->g->col.on ? ab_columns(s, r->mine, r->theirs, r->my_thr, r->their_thr, target - 1, target, 0)
                         : ab_cells(s, r->mine, r->theirs, r->my_thr, r->their_thr, target - 1, target, 0);
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
   within d; until the result is known, or (`score`) the score. Past the last ply both questions are the
   ones around 0, so the result is then known. 0 when halted. */
static int lengths(searcher *s, root *r, int *d, int score) {
    for (; (score ? r->lo < r->hi : !result_known(r->lo, r->hi)) && r->n + *d <= s->g->cells; ++*d) {
        int wins = s->g->misere ? *d % 2 == 0 : *d % 2 == 1;
        int target = wins ? win_at(r->n + *d) : loss_at(r->n + *d) + 1;
        if (r->lo < target && target <= r->hi && !probe(s, r, target)) return 0;
    }
    return 1;
}

static int by_length(searcher *s, root *r, int *d) { return lengths(s, r, d, 0) && around_zero(s, r); }

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

void prove_position(const ss_game *g, ss_table *t, mask mine, mask theirs, int goal, const ss_budget *budget,
                    ss_result *result) {
    searcher s;
    searcher_start(&s, g, t, budget);
    root r = root_of(g, mine, theirs, result->lower, result->upper);
    prove_result(&s, &r);
    /* The score of a result known from elsewhere (the provers: its bounds span the whole game) is found
       as a result is, the shortest lengths first, each probe no deeper than its length, before halving
       what is left: halving from the middle first asked about the end of the game (a loss of 7x7k5
       after 12 plies, 18 plies long: 0.48 s instead of 3.5 s). */
    int d = 1;
    if (goal == SS_GOAL_SCORE && !s.m.stopped) lengths(&s, &r, &d, 1);
    while (goal == SS_GOAL_SCORE && r.lo < r.hi && !s.m.stopped) {
        int middle = r.lo + (r.hi - r.lo) / 2;
        if (!probe(&s, &r, middle + 1)) break;
    }
    result->lower = r.lo;
    result->upper = r.hi;
    result->best_move = root_best(g, t, &r);
    result->estimate = 0;
    meter_report(&s.m, result);
}

/* All of a position's moves proven in one call: the loop that shares a budget between them. On
   positions near the end each move's search takes microseconds and a call from Python around it ten
   times that (Connect Four after 28 plies: 110 us a position through the calls, 10 us in Pons's
   solver), so the loop runs here, as the engine in Python ran it. */
void prove_moves(const ss_game *g, ss_table *t, mask mine, mask theirs, const int32_t *cells, int n,
                    int goal, const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent) {
    ss_result total = {.lower = SS_SCORE_MIN, .upper = SS_SCORE_MAX, .best_move = SS_NO_MOVE};
    for (int evenly = 1; evenly >= 0; evenly--) {
        int left = 0;
        for (int i = 0; i < n; i++) left += !goal_met(goal, lower[i], upper[i]);
        for (int i = 0; i < n && left; i++) {
            if (goal_met(goal, lower[i], upper[i])) continue;
            if (budget_spent(budget, total.nodes)) {
                total.stopped = 1;
                *spent = total;
                return;
            }
            ss_budget part = budget_share(budget, total.nodes, evenly ? 1.0 / left : 1.0);
            left--;
            ss_result child = {.lower = -upper[i], .upper = -lower[i], .best_move = SS_NO_MOVE};
            prove_position(g, t, theirs, mine | bit(cells[i]), goal, budget ? &part : 0, &child);
            lower[i] = -child.upper;
            upper[i] = -child.lower;
            result_add_spent(&total, &child);
            total.stopped |= child.stopped;
        }
    }
    *spent = total;
}

void score_moves(const ss_game *g, ss_table *t, mask mine, mask theirs, const int32_t *cells, int n,
                    int32_t *scores, ss_result *spent) {
    ss_result total = {.lower = SS_SCORE_MIN, .upper = SS_SCORE_MAX, .best_move = SS_NO_MOVE};
    mask occupied = mine | theirs, completes = threats_of(g, mine, theirs);
    int32_t ending = SS_BIG - (count(occupied) + 1); /* a move that completes a line: the game's last */
    for (int i = 0; i < n; i++) {
        mask move = bit(cells[i]);
        if (any(completes & move)) {
            scores[i] = g->misere ? -ending : ending;
        } else if (same(occupied | move, g->full)) {
            scores[i] = 0;
        } else {
            ss_result child = {.lower = SS_SCORE_MIN, .upper = SS_SCORE_MAX, .best_move = SS_NO_MOVE};
            prove_position(g, t, theirs, mine | move, SS_GOAL_SCORE, 0, &child);
            scores[i] = -child.lower;
            result_add_spent(&total, &child);
        }
    }
    *spent = total;
}

int score_all(const ss_game *g, ss_table *t, mask mine, mask theirs, int32_t *cells, int32_t *scores,
                 ss_result *spent) {
    ss_result none = {.lower = SS_SCORE_MIN, .upper = SS_SCORE_MAX, .best_move = SS_NO_MOVE};
    mask occupied = mine | theirs;
    *spent = none;
    if (same(occupied, g->full)) return 0;
    for (int i = 0; i < g->n_lines; i++) {
        if (same(theirs & g->lines[i], g->lines[i])) return 0; /* the side that just moved made a line */
    }
    int n = 0;
    for (mask left = playable(g, occupied); any(left); left = without_lowest(left)) cells[n++] = lowest_cell(left);
    score_moves(g, t, mine, theirs, cells, n, scores, spent);
    return n;
}
