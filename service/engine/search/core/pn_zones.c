/* The zones of the proof-number search's solved nodes (pns.c), and the children they settle without
   search.

   Relevance zones: the attacker's moves are cut by a null move. With the attacker to move and not
   forced, the first child is the same position with the defender to move (the attacker passes). If
   the attacker wins even so, it wins (a mark of its own never hurts it). If it does not, the disproof
   depends only on the cells of a zone Z: it holds for every position that agrees on Z and holds more
   marks outside Z. A move of the attacker outside Z is such a position, so only its moves inside Z are
   searched; the node's zone is Z with the zones of those moves. The zones of the leaves: a pairing's
   pairs; for the positions the defender wins by threats, the threats' cells and enough empty cells of
   every line left to the attacker (two each) that marks played outside cannot give it a line or a
   threat first; the defender's chosen move adds its cell. Every zone keeps at least one empty cell of
   each line left to the attacker, so that no position that agrees on it holds an attacker's line.
   (Disproven entries keep their zone in the table, 0 where no cell matters: a full board, no line left
   to the attacker. A proven entry's zone 0 is one not known: the whole board.)

   Proof zones (proof_zone.c): a proven node keeps the cells its proof depends on, its guard against the
   defender's own lines among them. At the defender's node, once a reply is proven lost, every reply
   outside its zone loses as well: those are settled without search (pn_prune_replies). Searching the
   defender's pass first, as the attacker's is, was tried and not kept: of the 60 questions about the
   bench's 30 7x7k5 positions after 4 plies, 2 settled within 300,000 nodes each (55 without it). */
#include "dfpn.h"
#include "zones.h"
#include "board.h"

uint64_t pn_disproof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch) {
    if (!n.att_to_move) {
        for (int i = 0; i < ch->n; i++)
            if (ch->dn[i] == 0) return bit(ch->cell[i]) | ch->zone[i];
        return s->g->full;
    }
    uint64_t zone = 0;
    for (int i = 0; i < ch->n; i++) zone |= ch->zone[i] | (ch->cell[i] == NULL_MOVE ? 0 : bit(ch->cell[i]));
    if (k->forced != NULL_MOVE) zone = pl_cover(s->g, n.def, s->g->full & ~(n.att | n.def), 0, 2, zone);
    return zone;
}

/* The zone of a proven node (proof_zone.c): the attacker's by the move that wins, the defender's by all
   of its replies (those prune_replies settled hold the zone that settled them), its cuts and the guard. */
uint64_t pn_proof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch) {
    const ss_game *g = s->g;
    if (n.att_to_move) {
        for (int i = 0; i < ch->n; i++) {
            if (ch->pn[i] != 0) continue;
            if (ch->cell[i] != NULL_MOVE) return bit(ch->cell[i]) | pz_known(g, ch->zone[i]);
            uint64_t empty = g->full & ~(n.att | n.def); /* the attacker passed: a move to make instead */
            return pz_known(g, ch->zone[i]) | (empty & (~empty + 1));
        }
        return g->full;
    }
    uint64_t zone = pn_cut_zone(g, n, k);
    for (int i = 0; i < ch->n; i++) zone |= pz_known(g, ch->zone[i]);
    return zone;
}

/* At the defender's node: once a reply d0 is proven lost with zone Z0, every reply d outside Z0 loses
   too: M + d has one defender's mark fewer than (M + d0) + d, which Z0's proof covers (proof_zone.c).
   Each reply refuted narrows the replies left to search to the cells inside its zone; those outside
   are settled without search, with that zone, also in the table. */
void pn_prune_replies(pn_search *s, pn_node n, pn_children *ch) {
    for (int i = 0; i < ch->n; i++) {
        if (ch->pn[i] != 0 || !ch->zone[i]) continue;
        uint64_t zone = ch->zone[i];
        for (int j = 0; j < ch->n; j++) {
            if (ch->pn[j] == 0 || (zone & bit(ch->cell[j]))) continue;
            ch->pn[j] = 0;
            ch->dn[j] = PN_INF;
            ch->zone[j] = zone;
            s->pruned++;
            pt_store(s->t, child_of(n, ch->cell[j]), 0, PN_INF, zone, 0, SS_BY_SEARCH, NULL_MOVE);
        }
    }
}

/* At the attacker's node, the same for disproofs: once a move a0 is disproven with zone Y0, every move a
   outside Y0 fails too: (N + a0) + a agrees with N + a0 on Y0 (a is an attacker's mark outside it), and
   N + a has the same marks but a0, one attacker's mark fewer. The two share every defender's mark (the
   zone relies on them: a line they block needs no cell in it), so Y0 is N + a's zone as well. */
void pn_prune_moves(pn_search *s, pn_node n, pn_children *ch) {
    for (int i = 0; i < ch->n; i++) {
        if (ch->dn[i] != 0 || ch->cell[i] == NULL_MOVE) continue;
        uint64_t zone = ch->zone[i];
        for (int j = 0; j < ch->n; j++) {
            if (ch->dn[j] == 0 || ch->cell[j] == NULL_MOVE || (zone & bit(ch->cell[j]))) continue;
            ch->pn[j] = PN_INF;
            ch->dn[j] = 0;
            ch->zone[j] = zone;
            s->pruned++;
            pt_store(s->t, child_of(n, ch->cell[j]), PN_INF, 0, zone, 0, SS_BY_SEARCH, NULL_MOVE);
        }
    }
}
