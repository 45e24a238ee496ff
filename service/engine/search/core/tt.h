/* The transposition table: proven bounds on a position's score, and its best move. */
#ifndef SS_TT_H
#define SS_TT_H

#include <stdint.h>

#include "sanmoku_search.h"

typedef struct {
    uint64_t mine, theirs; /* the whole position is the key: a hit is never another position's */
    int8_t lower, upper;
    int8_t best;           /* SS_NO_MOVE when unknown */
    uint8_t work;          /* log2 of the nodes that proved it: what the replacement scheme keeps */
    uint32_t unused;
} tt_entry;

struct ss_table {
    tt_entry *entries;     /* pairs: slot 0 keeps the costlier entry, slot 1 the latest */
    uint64_t mask;         /* entries - 1, even: a pair starts at an even index */
    int shift;
    uint64_t fingerprint;  /* of the game whose entries these are */
};

/* The entry of this position, or NULL. */
const tt_entry *tt_find(const ss_table *t, uint64_t mine, uint64_t theirs);

/* Intersect what is known of the position with [lower, upper]; `best` replaces the best move unless it
   is SS_NO_MOVE. */
void tt_store(ss_table *t, uint64_t mine, uint64_t theirs, int lower, int upper, int best, int64_t nodes);

/* Clear the table unless it already holds this game's entries. */
void tt_use_for(ss_table *t, uint64_t fingerprint);

#endif
