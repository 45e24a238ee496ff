/* The budget of one call: node counting, the clock read every few thousand nodes (fewer where nodes are
   slow: a board of hundreds of cells and lines), the cancel flag. */
#ifndef SS_BUDGET_H
#define SS_BUDGET_H

#include <stdint.h>

#include "sanmoku_search.h"

/* Nodes between reads of the clock: at most CHECK_EVERY (about a millisecond on a board of 64 cells), fewer
   while the nodes between two reads take longer than CHECK_SECONDS (a 15x15 board's nodes take 100 to 1000
   times longer: 4096 of them overran a 300 ms budget by seconds). The first read comes after FIRST_CHECK. */
enum { CHECK_EVERY = 4096, FIRST_CHECK = 1 };
#define CHECK_SECONDS 0.001

typedef struct {
    const ss_budget *budget;  /* the call's (NULL: none) */
    double started;           /* ss_monotonic() when the call began */
    int64_t nodes;            /* positions searched so far */
    int64_t next_check;       /* the node count at which the clock and the cancel flag are read next */
    int64_t check_every;      /* nodes between two reads: halved when they took long, doubled when quick */
    double checked;           /* ss_monotonic() at the last read */
    int64_t allowance_end;    /* the node count where the current search pauses; 0: none */
    int stopped;              /* the budget is spent: the call ends */
    int halted;               /* stopped, or the allowance is spent: the search unwinds */
    int deepest;              /* plies below the root the search reached */
    int64_t cutoffs, tt_hits; /* reported with the nodes (see ss_result) */
} meter;

void meter_start(meter *m, const ss_budget *budget);

/* Let the next searches run `nodes` more nodes (0: no allowance, only the budget), then halt. */
void meter_allow(meter *m, int64_t nodes);

/* Whether to halt; reads the clock and the cancel flag only every CHECK_EVERY nodes. */
int meter_check_now(meter *m);

static inline int meter_tick(meter *m, int ply) {
    if (ply > m->deepest) m->deepest = ply;
    if (++m->nodes >= m->next_check) return meter_check_now(m);
    return m->halted;
}

void meter_report(const meter *m, ss_result *r);

/* What a search spent, added to a total (one call's searches of several moves). */
void result_add_spent(ss_result *total, const ss_result *child);

/* Whether the budget is spent, `used` nodes of it so far (NULL: no budget, never). */
int budget_spent(const ss_budget *b, int64_t used);
/* `fraction` of what is left of the budget (as the Python engine's Spending.share). */
ss_budget budget_share(const ss_budget *b, int64_t used, double fraction);

#endif
