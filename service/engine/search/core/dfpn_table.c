/* The proof-number search's table: buckets of PN_WAYS entries by a hash of the position, the cheapest
   entry (an open one before a solved one) replaced when a bucket is full; the bit filters that keep the
   probes of the positions one mark away cheap (dfpn.h); and those probes themselves, which settle a
   position by monotony (a mark of one's own never hurts). */
#include <stdlib.h>
#include <string.h>

#include "dfpn_table.h"

/* A filter has four bits a slot, at least 2**21 (the service's tables: 256 KB a filter) and at most 2**31.
   Bits are never cleared but with the table, so a filter of a fixed size saturates in a long proof: at 2**21
   bits beside 2**23 slots, a Qubic proof's probes found their bit set almost always, and pt_inherited took
   47 % of its time (perf). */
enum { FILTER_LOG_MIN = 21, FILTER_LOG_MAX = 31, FILTER_BITS_A_SLOT_LOG = 2 };

static uint64_t filter_words(const ss_pn_table *t) { return (uint64_t)1 << (t->filter_log - 6); }

ss_pn_table *ss_pn_table_new(int log2_slots) {
    if (log2_slots < 2 || log2_slots > 34) return NULL;
    ss_pn_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->slots = calloc((size_t)1 << log2_slots, sizeof(pn_entry));
    int filter_log = log2_slots + FILTER_BITS_A_SLOT_LOG;
    t->filter_log = filter_log < FILTER_LOG_MIN ? FILTER_LOG_MIN
                    : filter_log > FILTER_LOG_MAX ? FILTER_LOG_MAX
                                                  : filter_log;
    t->proven_bits = calloc(filter_words(t), sizeof(uint64_t));
    t->disproven_bits = calloc(filter_words(t), sizeof(uint64_t));
    t->unpaired_bits = calloc(filter_words(t), sizeof(uint64_t));
    if (!t->slots || !t->proven_bits || !t->disproven_bits || !t->unpaired_bits) {
        ss_pn_table_free(t); /* frees t too */
        return NULL;
    }
    t->mask = ((uint64_t)1 << log2_slots) - 1;
    uint64_t seed = 0x5A4E4D4F4B55ULL; /* splitmix64's sequence from a fixed seed: the same keys every run */
    for (int i = 0; i <= 2 * SS_MAX_CELLS; i++) {
        uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        if (i < SS_MAX_CELLS) t->att_key[i] = z;
        else if (i < 2 * SS_MAX_CELLS) t->def_key[i - SS_MAX_CELLS] = z;
        else t->side_key = z;
    }
    return t;
}

void ss_pn_table_free(ss_pn_table *t) {
    if (!t) return;
    free(t->slots);
    free(t->proven_bits);
    free(t->disproven_bits);
    free(t->unpaired_bits);
    free(t);
}

static void clear_filters(ss_pn_table *t) {
    memset(t->proven_bits, 0, filter_words(t) * sizeof(uint64_t));
    memset(t->disproven_bits, 0, filter_words(t) * sizeof(uint64_t));
    memset(t->unpaired_bits, 0, filter_words(t) * sizeof(uint64_t));
}

void ss_pn_table_clear(ss_pn_table *t) {
    memset(t->slots, 0, (size_t)(t->mask + 1) * sizeof(pn_entry));
    clear_filters(t);
}

void *ss_pn_table_memory(ss_pn_table *t, uint64_t *bytes) {
    *bytes = (t->mask + 1) * sizeof(pn_entry);
    return t->slots;
}

uint64_t ss_pn_table_game(const ss_pn_table *t) { return t->fingerprint; }



/* The position's Zobrist key: the solved bits' hash, which a mark more or fewer changes by one key. */
static uint64_t zobrist(const ss_pn_table *t, pn_node n) {
    uint64_t z = n.att_to_move ? t->side_key : 0;
    for (mask m = n.att; any(m); m = without_lowest(m)) z ^= t->att_key[lowest_cell(m)];
    for (mask m = n.def; any(m); m = without_lowest(m)) z ^= t->def_key[lowest_cell(m)];
    return z;
}

static void mark(const ss_pn_table *t, uint64_t *bits, uint64_t z) {
    uint64_t i = z >> (64 - t->filter_log);
    bits[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* Whether the position of Zobrist key `z` may be marked in `bits` (no: it is not in the table so). */
static int maybe(const ss_pn_table *t, const uint64_t *bits, uint64_t z) {
    uint64_t i = z >> (64 - t->filter_log);
    return (bits[i >> 6] >> (i & 63)) & 1;
}

/* The filter bit of the entry stored for `n` (t->proven_bits and so on), if any. */
static void mark_entry(ss_pn_table *t, pn_node n, uint32_t pn, uint32_t dn, int rule) {
    uint64_t *bits = pn == 0                ? t->proven_bits
                     : dn == 0              ? t->disproven_bits
                     : (rule & UNPAIRED)    ? t->unpaired_bits
                                            : NULL;
    if (bits) mark(t, bits, zobrist(t, n));
}

/* After the slots were read from a file: the solved bits of what they hold. */
void ss_pn_table_set_game(ss_pn_table *t, uint64_t fingerprint) {
    t->fingerprint = fingerprint;
    clear_filters(t);
    for (uint64_t i = 0; i <= t->mask; i++) {
        const pn_entry *e = t->slots + i;
        if (e->to_move) mark_entry(t, (pn_node){e->att, e->def, e->to_move == 1}, e->pn, e->dn, e->rule);
    }
}


int pt_numbers(const ss_pn_table *t, mask att, mask def, int att_to_move, uint32_t *pn,
                        uint32_t *dn) {
    const pn_entry *e = pt_lookup(t, (pn_node){att, def, att_to_move != 0});
    if (!e) return 0;
    *pn = e->pn;
    *dn = e->dn;
    return 1;
}

void pt_store(ss_pn_table *t, pn_node n, uint32_t pn, uint32_t dn, mask zone, int64_t work, int rule,
                  int reply) {
    pn_entry *b = pt_bucket(t, n), *slot = NULL;
    for (int i = 0; i < PN_WAYS && !slot; i++)
        if (b[i].to_move == pt_side(n) && same(b[i].att, n.att) && same(b[i].def, n.def)) slot = b + i;
    for (int i = 0; i < PN_WAYS && !slot; i++)
        if (!b[i].to_move) slot = b + i;
    if (!slot) { /* the cheapest entry goes, an open one before a solved one */
        slot = b;
        for (int i = 1; i < PN_WAYS; i++) {
            int better = pt_solved(slot) && !pt_solved(b + i);
            if (better || (pt_solved(slot) == pt_solved(b + i) && b[i].work < slot->work)) slot = b + i;
        }
    }
    /* an open node stored again keeps its flag (mid() stores it without a search of its pairing) */
    int keep = slot->to_move == pt_side(n) && (slot->rule & UNPAIRED) && same(slot->att, n.att) && same(slot->def, n.def);
    slot->att = n.att;
    slot->def = n.def;
    slot->to_move = pt_side(n);
    if (pn == 0 || dn == 0) rule &= ~UNPAIRED;
    else if (keep) rule |= UNPAIRED;
    slot->rule = (uint8_t)rule;
    slot->pn = pn;
    slot->dn = dn;
    slot->zone = zone;
    slot->work = work > 0xFFFFFFFF ? 0xFFFFFFFF : (uint32_t)work;
    slot->reply = (pn_reply)(reply + 1);
    mark_entry(t, n, pn, dn, rule);
}

int pt_unpaired_below(const ss_pn_table *t, pn_node n) {
    uint64_t z = zobrist(t, n);
    for (mask m = n.att; any(m); m = without_lowest(m)) {
        if (!maybe(t, t->unpaired_bits, z ^ t->att_key[lowest_cell(m)])) continue;
        pn_node fewer = n;
        fewer.att &= ~bit(lowest_cell(m));
        const pn_entry *e = pt_lookup(t, fewer);
        if (e && (e->rule & UNPAIRED)) return 1;
    }
    return 0;
}

/* Whether the solved entry `e` of a position settles the one with `cell` more, the attacker's mark or
   the defender's (pt_inherited's rules). A proof zone 0 is not known: the whole board. */
static int settles_with_mark(const pn_entry *e, int cell, int attackers) {
    int outside = !any(e->zone & bit(cell));
    if (attackers) return e->pn == 0 || (e->dn == 0 && outside);
    return e->dn == 0 || (e->pn == 0 && any(e->zone) && outside);
}

/* A solved entry that settles `n` by monotony (a mark of one's own never hurts) or by its zone: a disproof
   of the position with one defender's mark fewer, or a proof of it with one attacker's mark fewer; and a
   disproof of the position with one attacker's mark fewer that lies outside its zone, or a proof of it
   with one defender's mark fewer outside its proof zone (the rules prune_moves and prune_replies apply
   to siblings: zones.c). The zone of such an entry holds for `n` too: a position that agrees with
   `n` on it is one that agrees with the smaller position on it, with a mark more (the defender's,
   anywhere; the attacker's only outside a disproof's zone), and the other way round for proofs. This
   is what shares work between the questions of one analysis: after the side to move plays c, the other
   side's moves m were searched already, without c, by the question asked with the side to move passing. */
const pn_entry *pt_inherited(const ss_pn_table *t, pn_node n) {
    /* the probes the filters pass, their buckets asked of memory at once, then read */
    pn_node fewer[SS_MAX_CELLS];
    int removed[SS_MAX_CELLS];
    int k = 0;
    uint64_t z = zobrist(t, n);
    int defenders = 0; /* the probes that take a defender's mark away come first */
    for (int attackers = 0; attackers < 2; attackers++) {
        const uint64_t *keys = attackers ? t->att_key : t->def_key;
        for (mask m = attackers ? n.att : n.def; any(m); m = without_lowest(m)) {
            int cell = lowest_cell(m);
            uint64_t key = z ^ keys[cell];
            if (!maybe(t, t->disproven_bits, key) && !maybe(t, t->proven_bits, key)) continue;
            fewer[k] = n;
            if (attackers) fewer[k].att &= ~bit(cell);
            else fewer[k].def &= ~bit(cell);
            removed[k++] = cell;
        }
        if (!attackers) defenders = k;
    }
    for (int i = 0; i < k; i++) __builtin_prefetch(pt_bucket(t, fewer[i]));
    for (int i = 0; i < k; i++) {
        const pn_entry *e = pt_lookup(t, fewer[i]);
        if (e && settles_with_mark(e, removed[i], i >= defenders)) return e;
    }
    return NULL;
}
