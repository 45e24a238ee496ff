/* The search core's entry points for the tests only (tests/core_debug.py), compiled into the same
 * extension as sanmoku_search.h: the provers' parts on their own (the pairings, the threat sequences and
 * trees the proof-number search settles positions by), and what a transposition table holds. The service
 * never calls them.
 *
 * build_core.py hands this file to cffi's cdef as it does sanmoku_search.h: the same C subset.
 */
#ifndef SANMOKU_DEBUG_H
#define SANMOKU_DEBUG_H

#include <stdint.h>

#include "sanmoku_search.h"

/* The positions the table holds (a pass over all of it). */
int64_t ss_table_positions(const ss_table *table);

/* A pairing strategy of `defender` against `attacker`: disjoint pairs of empty cells, every line free of
   the defender's marks holding one (pairs[2 i], pairs[2 i + 1]; room for SS_MAX_CELLS). With the
   attacker to move every pair must be empty; with the defender to move it may first play *first_move
   (SS_NO_MOVE: no need). 1 when one is found within `budget` steps of the search (0: no limit). */
int ss_pairing_find(const ss_game *game, ss_mask attacker, ss_mask defender, int defender_to_move,
                    int64_t budget, ss_cell *pairs, int *n_pairs, int32_t *first_move);

/* Why the attacker to move has no pairing against it: 0 and the lines the search found none for (*lines:
   all their cells; 0 when not known) with their empty cells (*gaps); 1 when it found a pairing. A
   position with more marks, none of the defender's on those lines and no cell of theirs empty that is
   not in *gaps, has none either: the proof-number search skips its search (pairing.h). */
int ss_pairing_failure(const ss_game *game, ss_mask attacker, ss_mask defender, int64_t budget,
                       ss_mask *lines, ss_mask *gaps);

/* The pairing searches since the counts were last reset, by the calling thread and by the threads that
   have ended (a search past 64 cells runs on a thread of its own): counts[0] how many, counts[1] the
   steps of their walks (pairing.c: each group's covers) in all, counts[2] the most steps of one search's
   walks; reset: start the counts again after reading them. */
void ss_pairing_counts(int64_t *counts, int reset);

/* A threat tree of `attacker`, to move: 1 when it forces a line by fours, or by up to `depth` threes
   (moves after which it would make two threats at once) each of whose answers it refutes in turn, found
   within `budget` nodes (0: no limit); *zone then holds the cells the proof depends on (zones.c), with
   the guard cells unless options->unguarded (NULL: the defaults; only the guard is read). */
int ss_threat_tree(const ss_game *game, ss_mask attacker, ss_mask defender, int depth, int64_t budget,
                   const ss_pn_options *options, ss_mask *zone);

#endif
