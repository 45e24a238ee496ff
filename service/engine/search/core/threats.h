/* Threat-space search: sequences of threats that force a line, by fours and by threes (threats.c). */
#ifndef SS_TSS_H
#define SS_TSS_H

#include <stdint.h>

#include "board.h"

/* 1 when the attacker, to move, forces a line by continuous threats (found within `budget` nodes): then
   *cells holds the sequence's cells and those a defender's mark could change it through (see threats.c). */
int tss_find(const ss_game *g, mask attacker, mask defender, int64_t budget, mask *cells,
             int64_t *nodes);

/* 1 when the attacker, to move, forces a line by fours (unless `fours_known_not`: the caller searched
   them already), or by up to `depth` threes (quiet ones too when `quiet`: threats.c) each of whose
   answers it refutes in turn, found within
   `budget` nodes (0: no limit; the fours searches' nodes counted) and before `deadline` (on
   ss_monotonic(); 0: none), the root's move never a cell of `banned`: then *zone holds the proof's zone
   (zones.c; without its guard cells when `guard` is 0, which is unsound: ss_pn_options.unguarded) and
   *first, unless NULL, the tree's first move (-1 when the root won by fours alone). */
int tss_threes_find(const ss_game *g, mask attacker, mask defender, int depth, int fours_known_not, int quiet,
                    mask banned, int64_t budget, double deadline, int guard, mask *zone, int64_t *nodes,
                    int *first);

/* The defender to move after the attacker's threat: what it may answer, by kind. TSS_ESCAPES: it
   completes a line, threatens twice itself, or the attacker threatens nothing. TSS_BLOCK (a four) and
   TSS_ANSWERS (a three): *answers holds every reply that does not lose at once, *next the attacker's
   move after any other (the cell of its line, or where it makes two threats at once) and *cut the cells
   that stop that move (the answers but the defender's own fours). TSS_TWO_THREATS: it loses, and *cut
   holds the two threats. The double threat's cell is never one of `banned` (none such: TSS_ESCAPES). */
enum { TSS_ESCAPES, TSS_BLOCK, TSS_ANSWERS, TSS_TWO_THREATS };
int tss_answers(const ss_game *g, mask attacker, mask defender, mask banned, mask *answers, mask *cut, int *next);

#endif
