/* The proof-number search's table and what its files share. */
#ifndef SS_PNS_H
#define SS_PNS_H

#include <stdint.h>

#include "budget.h"
#include "game.h"

enum { PN_INF = 0x3fffffff };

/* One position of a question "can the attacker force a line?": its proof and disproof numbers (0 and
   PN_INF when solved) and, when disproven, the zone its disproof depends on. */
typedef struct {
    uint64_t att, def, zone;
    uint32_t pn, dn;
    uint32_t work;   /* nodes spent below it (saturated): the replacement keeps the costliest */
    uint8_t to_move; /* 1: the attacker, 2: the defender, 0: a free slot */
    uint8_t rule;    /* solved before expansion: SS_BY_PAIRING, SS_BY_THREATS; else SS_BY_SEARCH */
} pn_entry;

struct ss_pn_table {
    pn_entry *slots; /* buckets of PN_WAYS consecutive slots */
    uint64_t mask;   /* slots - 1 */
    uint64_t fingerprint;
    /* A bit per hash of the positions solved (set when one is stored, never cleared but with the
       table; 128 KB, in the caches where the slots are not): the inherited entries' probes, one per
       mark and most of them finding nothing, read the slots only where a bit is set. */
    uint64_t *solved;
};

#endif
