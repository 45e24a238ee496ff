/* What the exact search and the estimate share: the state of one call. */
#ifndef SS_SEARCH_H
#define SS_SEARCH_H

#include "budget.h"
#include "board.h"
#include "tt.h"

typedef struct {
    const ss_game *g;
    ss_table *tt;
    meter m;
} searcher;

static inline void searcher_start(searcher *s, const ss_game *g, ss_table *tt, const ss_budget *budget) {
    s->g = g;
    s->tt = tt;
    meter_start(&s->m, budget);
    tt_use_for(tt, g->fingerprint);
}

/* Narrow the window [*alpha, *beta] to the score's known range [lo, hi]: 1 when it closes, with the
   score to return (fail-soft: the bound that closed it) in *cut. */
static inline int narrow(int *alpha, int *beta, int lo, int hi, int *cut) {
    if (*alpha < lo) {
        *alpha = lo;
        if (*alpha >= *beta) return *cut = *alpha, 1;
    }
    if (*beta > hi) {
        *beta = hi;
        if (*alpha >= *beta) return *cut = *beta, 1;
    }
    return 0;
}

/* The same by what the table knows of the position (keyed a, b); *hint becomes its best move, or
   SS_NO_MOVE. */
static inline int narrow_by_table(searcher *s, uint64_t a, uint64_t b, int *alpha, int *beta, int *hint, int *cut) {
    tt_entry e;
    *hint = SS_NO_MOVE;
    if (!tt_find(s->tt, a, b, &e)) return 0;
    s->m.tt_hits++;
    *hint = e.best;
    return narrow(alpha, beta, e.lower, e.upper, cut);
}

/* Whether the bounds [lo, hi] meet `goal` (SS_GOAL_RESULT: the result is known; SS_GOAL_SCORE: exact). */
static inline int goal_met(int goal, int lo, int hi) {
    return lo == hi || (goal == SS_GOAL_RESULT && (lo >= 1 || hi <= -1 || (lo >= 0 && hi <= 0)));
}

/* search.c's negamax on column bitboards (column.c), for games with col.on: `mine` the stones of the
   side to move, `occupied` all of them, and each side's threats (column_wins). */
int column_negamax(searcher *s, uint64_t mine, uint64_t occupied, uint64_t my_thr, uint64_t their_thr, int alpha,
                   int beta, int ply);

#endif
