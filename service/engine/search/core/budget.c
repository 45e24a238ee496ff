/* A monotonic clock shared with Python, and the checks of a budget. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime under -std=c11 */
#include <time.h>

#include "budget.h"

double ss_monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void meter_start(meter *m, const ss_budget *budget) {
    m->budget = budget;
    m->started = ss_monotonic();
    m->nodes = 0;
    m->next_check = 0; /* a spent budget stops the search at its first node */
    m->check_every = FIRST_CHECK;
    m->checked = m->started;
    m->allowance_end = 0;
    m->stopped = m->halted = 0;
    m->deepest = 0;
    m->cutoffs = m->tt_hits = 0;
}

void meter_allow(meter *m, int64_t nodes) {
    m->allowance_end = nodes > 0 ? m->nodes + nodes : 0;
    m->halted = m->stopped;
    if (m->allowance_end && m->allowance_end < m->next_check) m->next_check = m->allowance_end;
}

/* The nodes until the next read, from how long those since the last one took. */
static void pace(meter *m, double now) {
    double took = now - m->checked;
    m->checked = now;
    if (took > CHECK_SECONDS && m->check_every > 1)
        m->check_every /= 2;
    else if (took < CHECK_SECONDS / 4 && m->check_every < CHECK_EVERY)
        m->check_every *= 2;
}

int meter_check_now(meter *m) {
    const ss_budget *b = m->budget;
    double now = ss_monotonic();
    pace(m, now);
    m->next_check = m->nodes + m->check_every;
    if (m->allowance_end && m->next_check > m->allowance_end) m->next_check = m->allowance_end;
    if (b && !m->stopped) {
        if (b->max_nodes > 0 && m->next_check > b->max_nodes) m->next_check = b->max_nodes;
        if ((b->max_nodes > 0 && m->nodes >= b->max_nodes) ||
            (b->cancel && __atomic_load_n(b->cancel, __ATOMIC_RELAXED)) ||
            (b->deadline > 0 && now >= b->deadline))
            m->stopped = 1;
    }
    m->halted = m->stopped || (m->allowance_end && m->nodes >= m->allowance_end);
    return m->halted;
}

void meter_report(const meter *m, ss_result *r) {
    r->nodes = m->nodes;
    r->seconds = ss_monotonic() - m->started;
    r->depth = m->deepest;
    r->stopped = m->stopped;
    r->cutoffs = m->cutoffs;
    r->tt_hits = m->tt_hits;
}

void result_add_spent(ss_result *total, const ss_result *child) {
    total->nodes += child->nodes;
    total->seconds += child->seconds;
    total->cutoffs += child->cutoffs;
    total->tt_hits += child->tt_hits;
    if (child->depth > total->depth) total->depth = child->depth;
}

int budget_spent(const ss_budget *b, int64_t used) {
    if (!b) return 0;
    return (b->max_nodes > 0 && used >= b->max_nodes) || (b->cancel && __atomic_load_n(b->cancel, __ATOMIC_RELAXED)) ||
           (b->deadline > 0 && ss_monotonic() >= b->deadline);
}

ss_budget budget_share(const ss_budget *b, int64_t used, double fraction) {
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
