/* Pairing strategies: disjoint pairs of empty cells such that every line the attacker could still
   complete holds one of the pairs; the defender answers a move on one cell of a pair with the other. */
#ifndef SS_PAIRING_H
#define SS_PAIRING_H

#include <stdint.h>

#include "board.h"

/* Why a pairing search found none: lines (`lines`: all their cells) that have no pairing on their own,
   and their empty cells then (`gaps`). lines 0: nothing known (the budget ran out). A position where
   those lines are all still free of the defender, with no empty cell among them outside `gaps`, has no
   pairing either: a pairing of it would pair those lines on cells that were empty (pairing_memo.h). */
typedef struct {
    uint64_t lines, gaps;
} pairing_failure;

/* 1 and the paired cells (*cells; pairs[] gets the pairs, room for SS_MAX_CELLS / 2) when a pairing of
   the empty cells blocks every line free of `defender`'s marks, 0 when none exists or none was found
   within `budget` steps of the search (a budget of 0: no limit), with why (*why). With the attacker to
   move the pairs must all be empty, as here; a defender to move plays first (see ss_pairing_find). */
int pairing_search(const ss_game *g, uint64_t attacker, uint64_t defender, int64_t budget, uint64_t *cells,
                   int8_t (*pairs)[2], int *n_pairs, pairing_failure *why);

/* Frees the calling thread's buffers of the search (a thread about to end calls it). */
void pairing_release(void);

#endif
