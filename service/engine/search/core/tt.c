/* Buckets of one cache line (a probe costs one memory access): a new position takes the place of the
   one that proved the least. */
#define _DEFAULT_SOURCE /* madvise under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sanmoku_debug.h"
#include "tt.h"

enum { MIN_LOG2 = 4, MAX_LOG2 = 28, LINE = 64, HUGE_PAGE = 2 << 20 };

_Static_assert(sizeof(tt_bucket) == LINE, "a bucket is one cache line");

static const uint64_t EMPTY_KEY = ~(uint64_t)0; /* a key of all ones in both words: no position */

ss_table *ss_table_new(int log2_buckets) {
    if (log2_buckets < MIN_LOG2 || log2_buckets > MAX_LOG2) return NULL;
    ss_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    size_t n = (size_t)1 << log2_buckets, bytes = n * sizeof(tt_bucket);
    t->buckets = aligned_alloc(bytes >= HUGE_PAGE ? HUGE_PAGE : LINE, bytes);
    /* Huge pages: a probe lands on a random page of tens of megabytes, and with 4 kB pages nearly every
       probe missed the TLB as well as the cache (a third of the search's time went to that). */
    if (t->buckets && bytes >= HUGE_PAGE) madvise(t->buckets, bytes, MADV_HUGEPAGE);
    if (!t->buckets) {
        free(t);
        return NULL;
    }
    t->mask = n - 1;
    ss_table_clear(t);
    return t;
}

void ss_table_free(ss_table *t) {
    if (!t) return;
    free(t->buckets);
    free(t);
}

void ss_table_clear(ss_table *t) {
    memset(t->buckets, 0xFF, (t->mask + 1) * sizeof(tt_bucket));
    t->fingerprint = 0;
    t->empty = 1;
}

int64_t ss_table_positions(const ss_table *t) {
    int64_t held = 0;
    for (uint64_t i = 0; i <= t->mask; i++)
        for (int w = 0; w < TT_WAYS; w++) held += t->buckets[i].a[w] != EMPTY_KEY;
    return held;
}

void tt_use_for(ss_table *t, uint64_t fingerprint) {
    if (t->fingerprint == fingerprint) return;
    if (!t->empty) ss_table_clear(t); /* a second clear of a cleared table costs a pass over memory */
    t->fingerprint = fingerprint;
    t->empty = 0;
}

static int way_of(const tt_bucket *b, tt_key k) {
    for (int i = 0; i < TT_WAYS; i++)
        if (b->a[i] == k.a && b->b[i] == k.b) return i;
    return -1;
}

int tt_find(const ss_table *t, tt_key k, tt_entry *out) {
    const tt_bucket *b = tt_bucket_of(t, k);
    int i = way_of(b, k);
    if (i < 0) return 0;
    out->lower = b->lower[i];
    out->upper = b->upper[i];
    out->best = b->best[i];
    return 1;
}

static uint8_t log2_work(int64_t nodes) {
    uint8_t w = 0;
    while (nodes > 1) {
        nodes >>= 1;
        w++;
    }
    return w;
}

void tt_store(ss_table *t, tt_key k, int lower, int upper, int best, int64_t nodes) {
    tt_bucket *b = tt_bucket_of(t, k);
    uint8_t work = log2_work(nodes);
    int i = way_of(b, k);
    if (i >= 0) {
        if (lower < b->lower[i]) lower = b->lower[i];
        if (upper > b->upper[i]) upper = b->upper[i];
        if (best == SS_NO_MOVE) best = b->best[i];
        if (work < b->work[i]) work = b->work[i];
    } else {
        i = 0; /* an empty way has work 255 but key EMPTY_KEY: take it first */
        for (int j = 0; j < TT_WAYS; j++) {
            if (b->a[j] == EMPTY_KEY) {
                i = j;
                break;
            }
            if (b->work[j] < b->work[i]) i = j;
        }
        b->a[i] = k.a;
        b->b[i] = k.b;
    }
    b->lower[i] = (tt_score)lower;
    b->upper[i] = (tt_score)upper;
    b->best[i] = (tt_score)best;
    b->work[i] = work;
}
