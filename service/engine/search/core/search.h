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

#endif
