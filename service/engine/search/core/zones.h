/* Proof zones: the cells a proof of the attacker's win depends on (zones.c explains why each rule
   is sound). */
#ifndef SS_PROOF_ZONE_H
#define SS_PROOF_ZONE_H

#include <stdint.h>

#include "board.h"

/* `zone` grown until every line free of `att` (the defender could still complete it) has at least
   `need` of its empty cells in it, or all of them: the guard against the defender's extra marks.
   `guard` 0 (ss_pn_options.unguarded, for a test only) leaves the zone as it is, which is unsound. */
mask pz_guard(const ss_game *g, int guard, mask att, mask def, int need, mask zone);

/* The zone of a proof that ends with the attacker to move playing `cell`, which makes the threats
   `threats` (two or more cells where it then completes a line), the defender having none of its own. */
mask pz_double(const ss_game *g, int guard, mask att, mask def, int cell, mask threats);

/* The zone of a win by a threat sequence whose cells (threats.c: moves, replies, final threats, the lines
   through the replies) are `cells`, the attacker to move. */
mask pz_sequence(const ss_game *g, int guard, mask att, mask def, mask cells);

/* A zone as stored: 0 is a proof whose zone is not known, the whole board. */
static inline mask pz_known(const ss_game *g, mask zone) { return any(zone) ? zone : g->full; }

#endif
