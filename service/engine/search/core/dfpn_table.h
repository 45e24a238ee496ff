/* The proof-number search's table (dfpn_table.c): its positions, look-ups and stores, and the probes of
   the positions one mark away that monotony settles. */
#ifndef SS_PN_TABLE_H
#define SS_PN_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "budget.h"

enum { PN_INF = 0x3fffffff };

#if SS_MASK_WORDS == 1
typedef uint8_t pn_reply; /* a cell plus 1 */
#else
typedef uint16_t pn_reply;
#endif

/* One position of a question "can the attacker force a line?": its proof and disproof numbers (0 and
   PN_INF when solved) and, when disproven, the zone its disproof depends on. */
typedef struct {
    mask att, def, zone; /* the attacker's marks, the defender's; the zone (0: not known) */
    uint32_t pn, dn;        /* its proof and disproof numbers */
    uint32_t work;   /* nodes spent below it (saturated): the replacement keeps the costliest */
    uint8_t to_move; /* 1: the attacker, 2: the defender, 0: a free slot */
    uint8_t rule;    /* solved before expansion: SS_BY_PAIRING, SS_BY_THREATS; else SS_BY_SEARCH */
    pn_reply reply;  /* the move that settled it, plus 1 (0: none known): a disproven defender's node's
                        reply that holds, a proven attacker's node's winning move (dfpn.c: killers) */
} pn_entry;

struct ss_pn_table {
    pn_entry *slots; /* buckets of PN_WAYS consecutive slots */
    uint64_t mask;   /* slots - 1 */
    uint64_t fingerprint; /* of the game whose entries these are */
    /* Bit filters over the positions' Zobrist keys: a bit set per position stored proven, disproven, or
       open with no pairing (UNPAIRED); never cleared but with the table (an entry replaced leaves its
       bit: a probe that passes still reads the slots). The probes of pt_inherited() and
       pt_unpaired_below() (dfpn_table.c), one per mark and most of them finding nothing, read the slots
       only where their bit is set, and each probe costs an exclusive or: a mark more or fewer changes
       the key by one key of the cell. */
    uint64_t *proven_bits, *disproven_bits, *unpaired_bits; /* the filters, 2**filter_log bits each */
    int filter_log;                                         /* by the slots' count (dfpn_table.c) */
    uint64_t att_key[SS_MAX_CELLS], def_key[SS_MAX_CELLS], side_key; /* the Zobrist keys of the marks
                                                                          and of the attacker to move */
};

/* A position of a question: the attacker's and the defender's marks, and who is to move. */
typedef struct {
    mask att, def; /* the attacker's marks, the defender's */
    int att_to_move;  /* 1: the attacker is to move */
} pn_node;

enum { PN_WAYS = 4 };
/* In an open attacker's node's entry (beside its rule): no pairing was found for it. By monotony none
   exists for the position with an attacker's mark more either (its lines open to the attacker are the
   same, its empty cells fewer: a pairing of it would be one of the smaller position), so its pairing
   search is skipped, and it carries the flag on. */
enum { UNPAIRED = 0x80 };

static inline int pt_solved(const pn_entry *e) { return e->pn == 0 || e->dn == 0; }

/* In the header, inlined: the look-ups are the search's most frequent calls. */
static inline uint8_t pt_side(pn_node n) { return n.att_to_move ? 1 : 2; }

static inline uint64_t pt_hash(pn_node n) {
    uint64_t h = mask_word(n.att) * 0x9E3779B97F4A7C15ULL ^ (mask_word(n.def) + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)n.att_to_move * 0xD6E8FEB86659FD93ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 32;
    return h;
}

/* The bucket of PN_WAYS slots the position's entry goes in. */
static inline pn_entry *pt_bucket(const ss_pn_table *t, pn_node n) {
    return t->slots + (pt_hash(n) & t->mask & ~(uint64_t)(PN_WAYS - 1));
}

/* The position's entry, or NULL. */
static inline const pn_entry *pt_lookup(const ss_pn_table *t, pn_node n) {
    pn_entry *b = pt_bucket(t, n);
    for (int i = 0; i < PN_WAYS; i++)
        if (b[i].to_move == pt_side(n) && same(b[i].att, n.att) && same(b[i].def, n.def)) return b + i;
    return NULL;
}

/* Keep the position's numbers, zone, the nodes spent below it (`work`), what settled it (`rule`, with
   UNPAIRED) and the move that settled it (`reply`, -1: none); a full bucket loses its cheapest entry. */
void pt_store(ss_pn_table *t, pn_node n, uint32_t pn, uint32_t dn, mask zone, int64_t work, int rule, int reply);
/* Whether the position with one of the attacker's marks fewer is known to have no pairing (UNPAIRED). */
/* ss_pn_table_numbers on the core's masks (entry.c). */
int pt_numbers(const ss_pn_table *t, mask att, mask def, int att_to_move, uint32_t *pn, uint32_t *dn);
int pt_unpaired_below(const ss_pn_table *t, pn_node n);
/* A solved entry one mark away that settles `n` by monotony or by its zone, or NULL (dfpn_table.c). */
const pn_entry *pt_inherited(const ss_pn_table *t, pn_node n);

#endif
