/* What the exact search and the estimate share: the state of one call. */
#ifndef SS_SEARCH_H
#define SS_SEARCH_H

#include "budget.h"
#include "game.h"
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

/* search.c's negamax on column bitboards (column.c), for games with col.on: `mine` the stones of the
   side to move, `occupied` all of them, and each side's threats (column_wins). */
int column_negamax(searcher *s, uint64_t mine, uint64_t occupied, uint64_t my_thr, uint64_t their_thr, int alpha,
                   int beta, int ply);

#endif
