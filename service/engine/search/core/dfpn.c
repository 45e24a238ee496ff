/* Depth-first proof-number search (df-pn, Nagai; thresholds widened by 1 + 1/4, Pawlewicz and Lew) of
   one question: can the attacker force a line (normal rule, flat or torus, no gravity)? The defender
   wins the question when it prevents every line, whether or not it completes one of its own; a draw
   is a position where neither side wins its question.

   The search's parts: what settles a node before it is expanded (pn_settle.c), its children and their
   order (pn_children.c, with the killer replies), the zones of solved nodes and the children they settle
   (pn_zones.c), the defender's replies probed by nodes spent at the first plies (pn_probes.c), a second
   thread's answers at the root (pn_help.c), the table (pn_table.c).

   Monotony (the same rule): a position with one defender's mark more than a disproven one is disproven,
   with the same zone; one with one attacker's mark fewer too; and the other way round for proofs. By
   the zones, also one with an attacker's mark more outside a disproof's zone, and one with a defender's
   mark more outside a proof's zone. A node missing from the table takes such an entry when there is one
   (pn_table.c, pt_inherited()): the questions of one analysis share their work this way.
*/
#include "dfpn.h"

/* The thresholds of the best child: the second best's number widened to 1 + 1/4 of it at the attacker's
   nodes, and to 4 times it at the defender's. The questions asked are mostly draws, so most of the work
   is in disproofs, where the defender needs one reply that holds: widened by a quarter only, df-pn
   spread its work over every reply of the empty 7x7k5 board's hard positions (X on the centre: 1.8
   million nodes, not settled); held on one reply for longer, it settles each in about 500 nodes
   (tests/bench/provers_bench.py; docs/pages/provers.md). */
enum { ATTACKER_WIDENING = 4 /* 1 + 1/4 */, DEFENDER_WIDENING = 3 /* 1 + 3 */ };

static uint32_t add(uint32_t a, uint32_t b) { return a + b >= PN_INF ? PN_INF - 1 : a + b; }

/* A node's numbers from its children's, where the side to move chooses: the least of the children's
   `chosen` numbers (its `best` child; the `second` least sets that child's threshold), and the sum of
   their `summed` numbers. */
static void combine(const uint32_t *chosen, const uint32_t *summed, int n, uint32_t *least, uint32_t *sum, int *best,
                    uint32_t *second) {
    *least = *second = PN_INF;
    *sum = 0;
    *best = -1;
    for (int i = 0; i < n; i++) {
        *sum = add(*sum, summed[i]);
        if (chosen[i] < *least) {
            *second = *least;
            *least = chosen[i];
            *best = i;
        } else if (chosen[i] < *second) {
            *second = chosen[i];
        }
    }
}

static uint32_t threshold(uint32_t th, uint32_t second, int attacker) {
    uint64_t more = attacker ? second / ATTACKER_WIDENING : (uint64_t)second * DEFENDER_WIDENING;
    uint64_t widened = (uint64_t)second + more + 1;
    return widened < th ? (uint32_t)widened : th;
}

int pn_settled_at_once(pn_search *s, pn_node n, int deep, pn_class *k, pn_value *out) {
    pn_settle(s, n, k, deep);
    if (k->status == OPEN) return 0;
    int proven = k->status == PROVEN;
    *out = (pn_value){proven ? 0 : PN_INF, proven ? PN_INF : 0, k->zone, k->rule, NULL_MOVE};
    pt_store(s->t, n, out->pn, out->dn, out->zone, 1, k->rule, NULL_MOVE);
    return 1;
}

/* `killer`: the move that settled a sibling's position (at the defender's node, the reply that held
   there or when the attacker passed; at the attacker's, the winning move), tried first. */
pn_value pn_mid(pn_search *s, pn_node n, uint32_t thpn, uint32_t thdn, int ply, int killer) {
    pn_value out = {1, 1, 0, SS_BY_SEARCH, NULL_MOVE};
    if (meter_tick(&s->m, ply)) return out;
    if (s->help && ply >= 2 && pn_helper_settled(s->help, s->focus)) {
        s->abandon = 1;
        return out;
    }
    int64_t nodes_before = s->m.nodes;
    const pn_entry *known = pt_lookup(s->t, n);
    if (known && pt_solved(known)) {
        out.pn = known->pn;
        out.dn = known->dn;
        out.zone = known->zone;
        out.rule = known->rule;
        out.reply = known->reply - 1;
        return out;
    }
    if (pn_probing(n, ply)) return pn_probe_replies(s, n, ply, killer);
    pn_class k;
    int deep = !known ? EXPAND : known->work ? EXPAND_AGAIN : n.att_to_move ? EXPAND_AFTER_LOOK : EXPAND;
    if (pn_settled_at_once(s, n, deep, &k, &out)) return out;
    pn_children ch;
    ch.n = 0;
    int waiting_for_null = 0;
    if (n.att_to_move && k.forced != NULL_MOVE) {
        pn_add_moves(s, n, bit(k.forced), &ch, NULL_MOVE);
    } else if (n.att_to_move) {
        ch.n = 1;
        ch.cell[0] = NULL_MOVE;
        pn_look_at(s, n, &ch, 0);
        waiting_for_null = ch.dn[0] != 0;
        if (ch.dn[0] == 0) pn_add_moves(s, n, ch.zone[0] & s->g->full & ~(n.att | n.def), &ch, killer);
    } else {
        pn_add_moves(s, n, k.moves, &ch, killer);
    }
    /* the attacker's node: the defender's reply that held last, for its children */
    int child_killer = NULL_MOVE;
    for (int i = 0; i < ch.n && child_killer == NULL_MOVE; i++)
        if (n.att_to_move ? ch.dn[i] == 0 : ch.pn[i] == 0) child_killer = ch.reply[i];
    if (n.att_to_move) pn_prune_moves(s, n, &ch);
    else pn_prune_replies(s, n, &ch);
    for (;;) {
        uint32_t pn, dn, second;
        int best = -1;
        if (s->help && ply == 0 && n.att_to_move) pn_absorb_help(s, n, &ch);
        if (s->help && ply == 1 && pn_helped_move(s, n, &out)) {
            pt_store(s->t, n, out.pn, out.dn, out.zone, 0, SS_BY_SEARCH, NULL_MOVE);
            return out;
        }
        if (n.att_to_move) { /* an OR node of the question */
            combine(ch.pn, ch.dn, ch.n, &pn, &dn, &best, &second);
            if (pn == 0) dn = PN_INF;
        } else {
            combine(ch.dn, ch.pn, ch.n, &dn, &pn, &best, &second);
            if (dn == 0) pn = PN_INF;
        }
        if (ch.n == 0) { /* the attacker's moves inside an empty zone: none to try */
            pn = PN_INF;
            dn = 0;
        }
        out.pn = pn;
        out.dn = dn;
        if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn) break;
        uint32_t child_thpn, child_thdn;
        if (n.att_to_move) {
            child_thpn = threshold(thpn, second, 1);
            child_thdn = thdn - dn + ch.dn[best];
        } else {
            child_thdn = threshold(thdn, second, 0);
            child_thpn = thpn - pn + ch.pn[best];
        }
        if (ply == 0) s->focus = ch.cell[best];
        if (ply == 0 && s->help) __atomic_store_n(&s->help->focus, ch.cell[best], __ATOMIC_RELAXED);
        pn_value v = pn_mid(s, child_of(n, ch.cell[best]), child_thpn, child_thdn, ply + 1, child_killer);
        if (s->m.halted || (s->abandon && ply > 1)) return out;
        if (s->abandon) { /* at the move's node: the helper's answer next time round */
            s->abandon = 0;
            continue;
        }
        ch.pn[best] = v.pn;
        ch.dn[best] = v.dn;
        ch.zone[best] = v.zone;
        ch.reply[best] = (int8_t)v.reply;
        if ((n.att_to_move ? v.dn : v.pn) == 0 && v.reply != NULL_MOVE) child_killer = v.reply;
        if (!n.att_to_move && v.pn == 0) pn_prune_replies(s, n, &ch);
        if (n.att_to_move && v.dn == 0) pn_prune_moves(s, n, &ch);
        if (waiting_for_null && v.dn == 0) { /* the pass failed: the moves inside its zone now */
            waiting_for_null = 0;
            pn_add_moves(s, n, v.zone & s->g->full & ~(n.att | n.def), &ch, killer);
            pn_prune_moves(s, n, &ch);
        }
    }
    if (out.dn == 0) out.zone = pn_disproof_zone(s, n, &k, &ch);
    else if (out.pn == 0) out.zone = pn_proof_zone(s, n, &k, &ch);
    if ((n.att_to_move ? out.pn : out.dn) == 0)
        for (int i = 0; i < ch.n && out.reply == NULL_MOVE; i++)
            if ((n.att_to_move ? ch.pn[i] : ch.dn[i]) == 0) out.reply = ch.cell[i];
    pt_store(s->t, n, out.pn, out.dn, out.zone, s->m.nodes - nodes_before, SS_BY_SEARCH | (k.unpaired ? UNPAIRED : 0),
          out.reply);
    return out;
}

void ss_pn_prove(const ss_game *g, ss_pn_table *t, uint64_t att, uint64_t def, int att_to_move,
                 const ss_budget *budget, ss_pn_result *result) {
    pn_prove_helped(g, t, att, def, att_to_move, budget, NULL, result);
}

void pn_prove_helped(const ss_game *g, ss_pn_table *t, uint64_t att, uint64_t def, int att_to_move,
                     const ss_budget *budget, pn_help *help, ss_pn_result *result) {
    pn_search s = {.g = g, .t = t, .focus = SS_NO_MOVE, .help = help, .root_att = att};
    meter_start(&s.m, budget);
    if (t->fingerprint != g->fingerprint) {
        ss_pn_table_clear(t);
        t->fingerprint = g->fingerprint;
    }
    pn_node root = {att, def, att_to_move != 0};
    pn_value v = pn_mid(&s, root, PN_INF - 1, PN_INF - 1, 0, NULL_MOVE);
    result->outcome = s.m.halted ? 0 : v.pn == 0 ? 1 : v.dn == 0 ? -1 : 0;
    result->zone = result->outcome ? v.zone : 0;
    result->stopped = s.m.stopped;
    result->depth = s.m.deepest;
    result->nodes = s.m.nodes;
    result->pairings = s.pairings;
    result->threat_wins = s.threat_wins;
    result->pruned = s.pruned;
    result->seconds = ss_monotonic() - s.m.started;
    result->closed_by = result->outcome ? v.rule : SS_BY_SEARCH;
    result->focus = s.focus;
}
