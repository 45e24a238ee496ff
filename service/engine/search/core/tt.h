/* The transposition table: proven bounds on a position's score, and its best move. */
#ifndef SS_TT_H
#define SS_TT_H

#include <stdint.h>

#include "sanmoku_search.h"

enum { TT_WAYS = 3 };

/* One cache line: three positions, each keyed by both mask of marks (a hit is never another
   position's), with what is known of it. */
typedef struct {
    uint64_t mine[TT_WAYS], theirs[TT_WAYS];
    int8_t lower[TT_WAYS], upper[TT_WAYS];
    int8_t best[TT_WAYS]; /* SS_NO_MOVE when unknown */
    uint8_t work[TT_WAYS]; /* log2 of the nodes that proved it: the replacement keeps the costliest */
    uint32_t unused;
} tt_bucket;

struct ss_table {
    tt_bucket *buckets;
    uint64_t mask;        /* buckets - 1 */
    uint64_t fingerprint; /* of the game whose entries these are */
    int empty;            /* cleared and not yet used: any game may take it as it is */
};

typedef struct {
    int lower, upper, best;
} tt_entry;

static inline tt_bucket *tt_bucket_of(const ss_table *t, uint64_t mine, uint64_t theirs) {
    uint64_t h = mine * 0x9E3779B97F4A7C15ULL ^ (theirs + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return t->buckets + (h & t->mask);
}

/* Ask for a position's bucket ahead of its probe: the probe is the search's main wait on memory. */
static inline void tt_prefetch(const ss_table *t, uint64_t mine, uint64_t theirs) {
    __builtin_prefetch(tt_bucket_of(t, mine, theirs));
}

/* 1 and the entry of this position, or 0. */
int tt_find(const ss_table *t, uint64_t mine, uint64_t theirs, tt_entry *out);

/* Intersect what is known of the position with [lower, upper]; `best` replaces the best move unless it
   is SS_NO_MOVE. */
void tt_store(ss_table *t, uint64_t mine, uint64_t theirs, int lower, int upper, int best, int64_t nodes);

/* Clear the table unless it already holds this game's entries. */
void tt_use_for(ss_table *t, uint64_t fingerprint);

#endif
