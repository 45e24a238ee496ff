/* Two-slot buckets: a position goes to the slot of its key if present, else the one that proved less. */
#include <stdlib.h>
#include <string.h>

#include "tt.h"

enum { MIN_LOG2 = 4, MAX_LOG2 = 30 };

static const uint64_t EMPTY_KEY = ~(uint64_t)0; /* mine == theirs == all cells: no position */

static uint64_t bucket_of(const ss_table *t, uint64_t mine, uint64_t theirs) {
    uint64_t h = mine * 0x9E3779B97F4A7C15ULL ^ (theirs + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return (h >> t->shift) & t->mask & ~(uint64_t)1;
}

ss_table *ss_table_new(int log2_entries) {
    if (log2_entries < MIN_LOG2 || log2_entries > MAX_LOG2) return NULL;
    ss_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    size_t n = (size_t)1 << log2_entries;
    t->entries = malloc(n * sizeof(tt_entry));
    if (!t->entries) {
        free(t);
        return NULL;
    }
    t->mask = n - 1;
    t->shift = 64 - log2_entries;
    ss_table_clear(t);
    return t;
}

void ss_table_free(ss_table *t) {
    if (!t) return;
    free(t->entries);
    free(t);
}

void ss_table_clear(ss_table *t) {
    memset(t->entries, 0xFF, (t->mask + 1) * sizeof(tt_entry));
    t->fingerprint = 0;
}

void tt_use_for(ss_table *t, uint64_t fingerprint) {
    if (t->fingerprint != fingerprint) {
        ss_table_clear(t);
        t->fingerprint = fingerprint;
    }
}

const tt_entry *tt_find(const ss_table *t, uint64_t mine, uint64_t theirs) {
    const tt_entry *pair = t->entries + bucket_of(t, mine, theirs);
    for (int i = 0; i < 2; i++)
        if (pair[i].mine == mine && pair[i].theirs == theirs) return pair + i;
    return NULL;
}

static uint8_t log2_work(int64_t nodes) {
    uint8_t w = 0;
    while (nodes > 1) {
        nodes >>= 1;
        w++;
    }
    return w;
}

void tt_store(ss_table *t, uint64_t mine, uint64_t theirs, int lower, int upper, int best, int64_t nodes) {
    tt_entry *pair = t->entries + bucket_of(t, mine, theirs);
    uint8_t work = log2_work(nodes);
    tt_entry *e = NULL;
    for (int i = 0; i < 2 && !e; i++)
        if (pair[i].mine == mine && pair[i].theirs == theirs) e = pair + i;
    if (e) {
        if (lower < e->lower) lower = e->lower;
        if (upper > e->upper) upper = e->upper;
        if (best == SS_NO_MOVE) best = e->best;
        if (work < e->work) work = e->work;
    } else if (pair[0].mine == EMPTY_KEY || work >= pair[0].work) {
        pair[1] = pair[0]; /* the costlier slot's entry gets a second chance in the other slot */
        e = pair;
    } else {
        e = pair + 1;
    }
    e->mine = mine;
    e->theirs = theirs;
    e->lower = (int8_t)lower;
    e->upper = (int8_t)upper;
    e->best = (int8_t)best;
    e->work = work;
}
