/* The budget of one call: node counting, the clock read every few thousand nodes, the cancel flag. */
#ifndef SS_BUDGET_H
#define SS_BUDGET_H

#include <stdint.h>

#include "sanmoku_search.h"

enum { CHECK_EVERY = 4096 }; /* nodes between reads of the clock: about a millisecond */

typedef struct {
    const ss_budget *budget;
    double started;
    int64_t nodes;
    int64_t next_check;
    int stopped;
    int deepest;              /* plies below the root the search reached */
} meter;

void meter_start(meter *m, const ss_budget *budget);

/* Whether the budget is spent; reads the clock and the cancel flag only every CHECK_EVERY nodes. */
int meter_check_now(meter *m);

static inline int meter_tick(meter *m, int ply) {
    if (ply > m->deepest) m->deepest = ply;
    if (++m->nodes >= m->next_check) return meter_check_now(m);
    return m->stopped;
}

void meter_report(const meter *m, ss_result *r);

#endif
