/* Proof zones (relevance zones of the attacker's wins, after Hsu, Ko, Chen, Wei, Hsueh and Wu, TCS 815,
   2020; the rules here are our own, for the question "can the attacker force a line?" of dfpn.c).

   A proof zone Z of a proven position N (either side to move) is a set of cells such that N + D is
   proven for every set D of N's empty cells outside Z given to the defender as extra marks (N + D with
   no line of the defender completed: such a position cannot arise, the game ended). With extra attacker
   marks it stays proven as well (a mark of one's own never hurts). Use (below, pn_prune_replies): at the
   defender's node M, once a reply d0 is refuted with zone Z0, every reply d outside Z0 loses too: (M +
   d0) + d is proven (d is a defender's mark outside Z0), and M + d has the same marks but d0, one
   defender's mark fewer, which never hurts the attacker. (Were (M + d0) + d a completed line of the
   defender, through d0 and d, the proof is either the attacker completing a line at once, which it does
   in M + d as well, or it holds the guard below, which keeps d, the line's last empty cell, in Z0.)
   So each reply refuted narrows the replies left to search to its zone.

   An extra defender's mark outside Z can matter in two ways only: by taking a cell the proof uses (so
   every cell the attacker plays, every threat cell it completes or makes the defender answer, is in Z),
   or by giving the defender a line of its own: a four it must be answered on, or a five. The guard
   (pz_guard) keeps two empty cells of every line still open to the defender inside Z: then marks
   outside Z never leave such a line with one empty cell, so the defender never completes one and never
   threatens to. Guarding with one cell per line is not enough: marks outside Z fill the rest of the
   line and leave the defender a four the proof never answered (tests/engine/search/test_proof_zones.py shows
   a wrong answer when the guard is switched off: ss_pn_options.unguarded, for that test only).

   The rules (each node's zone from its children's; a zone not known counts as the whole board):
   - the attacker to move completes a line at t: {t} (its marks on the line never change);
   - it plays a making two threats (t1, t2), the defender having none: {a, t1, t2} and the guard of the
     position after a (the defender, to move, cannot win first, blocks one, the attacker completes the
     other);
   - a threat sequence (threats.c): its cells (the attacker's moves, the forced replies, the final threats,
     and every empty cell of the lines through a reply free of the attacker) and the guard: a reply is
     then never a four or a five of the defender with extra marks (its lines hold no cell outside Z), and
     no other line of the defender gets a mark inside Z;
   - the defender to move facing two threats: those two cells and the guard;
   - the attacker's node proven by its move a: {a} and a's zone; by its pass (the null child proven):
     the pass's zone and one empty cell (a move to make);
   - the defender's node: the guard (the defender never wins at once), the zone that rules out the
     moves dfpn.c cuts (settle_defender: the threat cell t when the attacker threatens one line,
     else the cells of the attacker's double-threat moves with their threats, the threat sequence's
     cells, and the guard of three cells per line: a cut move d may lie inside Z, and with three there,
     two stay empty after it), and every reply's zone (a reply d searched: (M + D) + d is (M + d) + D;
     a reply settled by a sibling's zone Z0: the zone Z0).

   Disproof zones: the attacker's moves are cut by a null move. With the attacker to move and not
   forced, the first child is the same position with the defender to move (the attacker passes). If
   the attacker wins even so, it wins (a mark of its own never hurts it). If it does not, the disproof
   depends only on the cells of a zone Z: it holds for every position that agrees on Z and holds more
   marks outside Z. A move of the attacker outside Z is such a position, so it fails with zone Z
   (pn_prune_outside: the moves are searched beside the pass, dfpn.c); the node's zone is Z with the
   zones of the moves inside it. The zones of the leaves: a pairing's
   pairs; for the positions the defender wins by threats, the threats' cells and enough empty cells of
   every line left to the attacker (two each) that marks played outside cannot give it a line or a
   threat first; the defender's chosen move adds its cell. Every zone keeps at least one empty cell of
   each line left to the attacker, so that no position that agrees on it holds an attacker's line.
   (Disproven entries keep their zone in the table, 0 where no cell matters: a full board, no line left
   to the attacker. A proven entry's zone 0 is one not known: the whole board.)

   Pruning: at the defender's node, once a reply is proven lost, every reply outside its zone loses as
   well, and at the attacker's, once a move is disproven, every move outside its zone fails: those are
   settled without search (pn_prune_replies, pn_prune_moves). Searching the
   defender's pass first, as the attacker's is, was tried and not kept: of the 60 questions about the
   bench's 30 7x7k5 positions after 4 plies, 2 settled within 300,000 nodes each (55 without it).
*/
#include "board.h"
#include "dfpn.h"
#include "zones.h"

static int lines_through(const ss_game *g, int cell) { return g->through_start[cell + 1] - g->through_start[cell]; }

mask pz_guard(const ss_game *g, int guard, mask att, mask def, int need, mask zone) {
    if (!guard) return zone;
    mask empty = g->full & ~(att | def);
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        if (any(line & att)) continue;
        mask gaps = line & empty;
        /* the cells on most lines first: one cell then guards several lines (a row's middle its windows) */
        for (int have = count(gaps & zone); have < need && any(gaps & ~zone); have++) {
            int best = -1, most = -1;
            for (mask m = gaps & ~zone; any(m); m = without_lowest(m)) {
                int cell = lowest_cell(m), n = lines_through(g, cell);
                if (n > most) {
                    most = n;
                    best = cell;
                }
            }
            zone |= bit(best);
        }
    }
    return zone;
}

mask pz_double(const ss_game *g, int guard, mask att, mask def, int cell, mask threats) {
    mask rest = without_lowest(threats);
    mask two = (threats & ~rest) | (rest & ~without_lowest(rest));
    return pz_guard(g, guard, att | bit(cell), def, 2, bit(cell) | two);
}

mask pz_sequence(const ss_game *g, int guard, mask att, mask def, mask cells) {
    return pz_guard(g, guard, att, def, 2, cells);
}

/* The zones of the proof-number search's solved nodes (dfpn.c), and the children they settle without
   search. */

mask pn_disproof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch) {
    if (!n.att_to_move) {
        for (int i = 0; i < ch->n; i++)
            if (ch->dn[i] == 0) return bit(ch->cell[i]) | ch->zone[i];
        return s->g->full;
    }
    mask zone = NO_CELLS;
    for (int i = 0; i < ch->n; i++) zone |= ch->zone[i] | (ch->cell[i] == NULL_MOVE ? NO_CELLS : bit(ch->cell[i]));
    if (k->forced != NULL_MOVE) zone = pl_cover(s->g, n.def, s->g->full & ~(n.att | n.def), NO_CELLS, 2, zone);
    return zone;
}

/* The zone of a proven node (the rules above): the attacker's by the move that wins, the defender's by all
   of its replies (those prune_replies settled hold the zone that settled them), its cuts and the guard. */
mask pn_proof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch) {
    const ss_game *g = s->g;
    if (n.att_to_move) {
        for (int i = 0; i < ch->n; i++) {
            if (ch->pn[i] != 0) continue;
            if (ch->cell[i] != NULL_MOVE) return bit(ch->cell[i]) | pz_known(g, ch->zone[i]);
            mask empty = g->full & ~(n.att | n.def); /* the attacker passed: a move to make instead */
            return pz_known(g, ch->zone[i]) | (empty & (~empty + 1));
        }
        return g->full;
    }
    mask zone = pn_cut_zone(g, s->guard, n, k);
    for (int i = 0; i < ch->n; i++) zone |= pz_known(g, ch->zone[i]);
    return zone;
}

/* At the defender's node: once a reply d0 is proven lost with zone Z0, every reply d outside Z0 loses
   too: M + d has one defender's mark fewer than (M + d0) + d, which Z0's proof covers (the rules above).
   Each reply refuted narrows the replies left to search to the cells inside its zone; those outside
   are settled without search, with that zone, also in the table. */
void pn_prune_replies(pn_search *s, pn_node n, pn_children *ch) {
    for (int i = 0; i < ch->n; i++) {
        if (ch->pn[i] != 0 || !any(ch->zone[i])) continue;
        mask zone = ch->zone[i];
        for (int j = 0; j < ch->n; j++) {
            if (ch->pn[j] == 0 || any(zone & bit(ch->cell[j]))) continue;
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
    for (int i = 0; i < ch->n; i++)
        if (ch->dn[i] == 0 && ch->cell[i] != NULL_MOVE) pn_prune_outside(s, n, ch, ch->zone[i]);
}

/* At the attacker's node, every move outside `zone` fails with it: a disproven sibling's zone
   (pn_prune_moves), or its pass's once the pass is disproven (the rules above). */
void pn_prune_outside(pn_search *s, pn_node n, pn_children *ch, mask zone) {
    for (int j = 0; j < ch->n; j++) {
        if (ch->dn[j] == 0 || ch->cell[j] == NULL_MOVE || any(zone & bit(ch->cell[j]))) continue;
        ch->pn[j] = PN_INF;
        ch->dn[j] = 0;
        ch->zone[j] = zone;
        s->pruned++;
        pt_store(s->t, child_of(n, ch->cell[j]), PN_INF, 0, zone, 0, SS_BY_SEARCH, NULL_MOVE);
    }
}
