/* The transposition table: proven bounds on a position's score, and its best move. */
#ifndef SS_TT_H
#define SS_TT_H

#include <stdint.h>

#include "mask.h"
#include "sanmoku_search.h"

enum { TT_WAYS = 3 };

/* A position's key: two words that tell it from every other position of its game. With masks of 64 bits
   they are its two masks themselves, so a hit is never another position's. Wider masks do not fit a
   bucket of one cache line: the key is then two hashes of them, 64 bits and 32 (`check`), which a hit
   must both match (a wrong hit: about one probe in 2**90). This is the one place the width shows. */
#if SS_MASK_WORDS == 1
typedef uint64_t tt_check;
typedef int8_t tt_score; /* a score, and a move */
enum { TT_PAD = 4 };
#else
typedef uint32_t tt_check;
typedef int16_t tt_score; /* scores reach SS_BIG = 1000, moves SS_MAX_CELLS */
enum { TT_PAD = 7 };
#endif

typedef struct {
    uint64_t a; /* by cells: the side to move's marks, by columns (columns.h): its stones */
    tt_check b; /* by cells: the other side's marks; by columns: all the stones with COLUMN_KEY_TAG */
} tt_key;

#if SS_MASK_WORDS == 1
static inline tt_key tt_key_of(mask first, mask second) { return (tt_key){first, second}; }
#else
static inline tt_key tt_key_of(mask first, mask second) {
    uint64_t x = mask_word(first), y = mask_word(second);
    uint64_t a = x ^ (y + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    uint64_t b = (y ^ (x + 0x94D049BB133111EBULL) * 0xBF58476D1CE4E5B9ULL);
    return (tt_key){a ^ (a >> 29), (tt_check)((b ^ (b >> 31)) >> 32)};
}
#endif

/* One cache line: three positions, each with its key and what is known of it. */
typedef struct {
    uint64_t a[TT_WAYS];  /* the keys' words; a[i] == EMPTY_KEY (b[i] all ones too): an empty way */
    tt_check b[TT_WAYS];
    tt_score lower[TT_WAYS], upper[TT_WAYS]; /* proven bounds on the position's score */
    tt_score best[TT_WAYS]; /* its best move (a cell, or by columns a column bit); SS_NO_MOVE: unknown */
    uint8_t work[TT_WAYS];  /* log2 of the nodes that proved it: the replacement keeps the costliest */
    uint8_t unused[TT_PAD]; /* pads the bucket to 64 bytes */
} tt_bucket;

struct ss_table {
    tt_bucket *buckets;   /* 2**log2_buckets of them, aligned to a cache line (a huge page when large) */
    uint64_t mask;        /* buckets - 1 */
    uint64_t fingerprint; /* of the game whose entries these are */
    int empty;            /* cleared and not yet used: any game may take it as it is */
};

/* What the table knows of a position. */
typedef struct {
    int lower, upper; /* proven bounds on its score */
    int best;         /* its best move, or SS_NO_MOVE */
} tt_entry;

static inline tt_bucket *tt_bucket_of(const ss_table *t, tt_key k) {
    uint64_t h = k.a * 0x9E3779B97F4A7C15ULL ^ (k.b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return t->buckets + (h & t->mask);
}

/* Ask for a position's bucket ahead of its probe: the probe is the search's main wait on memory. */
static inline void tt_prefetch(const ss_table *t, tt_key k) {
    __builtin_prefetch(tt_bucket_of(t, k));
}

/* 1 and the entry of this position, or 0. */
int tt_find(const ss_table *t, tt_key k, tt_entry *out);

/* Intersect what is known of the position with [lower, upper]; `best` replaces the best move unless it
   is SS_NO_MOVE. */
void tt_store(ss_table *t, tt_key k, int lower, int upper, int best, int64_t nodes);

/* Clear the table unless it already holds this game's entries. */
void tt_use_for(ss_table *t, uint64_t fingerprint);

#endif
