/* The proof-number search's table and what its files share. */
#ifndef SS_PNS_H
#define SS_PNS_H

#include <stdint.h>

#include "budget.h"
#include "board.h"

enum { PN_INF = 0x3fffffff };

/* One position of a question "can the attacker force a line?": its proof and disproof numbers (0 and
   PN_INF when solved) and, when disproven, the zone its disproof depends on. */
typedef struct {
    uint64_t att, def, zone;
    uint32_t pn, dn;
    uint32_t work;   /* nodes spent below it (saturated): the replacement keeps the costliest */
    uint8_t to_move; /* 1: the attacker, 2: the defender, 0: a free slot */
    uint8_t rule;    /* solved before expansion: SS_BY_PAIRING, SS_BY_THREATS; else SS_BY_SEARCH */
    uint8_t reply;   /* the move that settled it, plus 1 (0: none known): a disproven defender's node's
                        reply that holds, a proven attacker's node's winning move (pn_children.c: killers) */
} pn_entry;

struct ss_pn_table {
    pn_entry *slots; /* buckets of PN_WAYS consecutive slots */
    uint64_t mask;   /* slots - 1 */
    uint64_t fingerprint;
    /* Bit filters over the positions' Zobrist keys: a bit set per position stored proven, disproven, or
       open with no pairing (UNPAIRED); never cleared but with the table (an entry replaced leaves its
       bit: a probe that passes still reads the slots). The probes of pt_inherited() and
       pt_unpaired_below() (pn_table.c), one per mark and most of them finding nothing, read the slots
       only where their bit is set, and each probe costs an exclusive or: a mark more or fewer changes
       the key by one key of the cell. */
    uint64_t *proven_bits, *disproven_bits, *unpaired_bits;
    uint64_t att_key[SS_MAX_CELLS], def_key[SS_MAX_CELLS], side_key;
};

/* A second thread's help with one question whose attacker is to move (families.c): the attacker's moves
   there it settled, each asked as a question of its own on its own table. The question's search takes
   them in at its root (pn_absorb_help in pn_help.c) and marks the moves it settled itself, for the helper to
   skip. Masks of cells, read and written atomically; a move's zone is written before its bit. */
typedef struct {
    uint64_t disproven, proven; /* by the helper */
    uint64_t zone[SS_MAX_CELLS];
    uint64_t settled_at_root;   /* by the question's own search */
    int32_t focus;              /* the move the search is in (SS_NO_MOVE: none): the helper takes others */
    int32_t stop;               /* set when the question's search returns: the helper stops */
    double deadline;            /* the question's (0: none) */
} pn_help;

/* ss_pn_prove with a helper's answers taken in at the root (help: NULL for none). */
void pn_prove_helped(const ss_game *g, ss_pn_table *t, uint64_t att, uint64_t def, int att_to_move,
                     const ss_budget *budget, pn_help *help, ss_pn_result *result);

#endif
