/* The children of a proof-number search's node (pns.c): the moves worth searching, best first, each
   looked at in the table or settled before it is expanded.

   Killer replies: a disproven defender's node keeps the reply that held (in its entry), and the
   attacker's node hands the last such reply among its children (the pass's first) to the next child it
   searches, where it is tried first: the defender's answer to a move that changes little is most often
   the answer it had when the attacker passed. Before it, a defender's node looked at every reply (a
   threat sequence and a pairing each) before the one that held. The same for proofs: a proven
   attacker's node keeps its winning move, which the defender's node hands to its next child. The
   defender's killers alone, on 90 random 7x7k5 positions after 4, 8 and 12 plies, both questions
   about each within 100,000 nodes: 168 of 180 settled in 1.74 million nodes, against 166 in 2.27
   million (the attacker's then 3-4 % fewer nodes) (tests/bench/provers_ab: exact in the default second after 4 / 8 /
   12 plies 26 / 25 / 25 of 30, from 24 / 23 / 25). */
#include <stddef.h>
#include <stdint.h>

#include "dfpn.h"

/* Lines through the cell free of the other side, weighted 4**(marks on them), for both sides. */
static int cell_score(const ss_game *g, int cell, uint64_t mine, uint64_t theirs) {
    int score = 0;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        uint64_t line = g->through[i];
        if (!(line & theirs)) score += 1 << (2 * count(line & mine));
        if (!(line & mine)) score += 1 << (2 * count(line & theirs));
    }
    return score;
}

/* The child's numbers from the table (or inherited), else from what settles it (then kept in the
   table). */
void pn_look_at(pn_search *s, pn_node n, pn_children *ch, int i) {
    pn_node c = child_of(n, ch->cell[i]);
    const pn_entry *e = pt_lookup(s->t, c);
    if (!e && (e = pt_inherited(s->t, c)) != NULL) s->inherited++;
    ch->reply[i] = NULL_MOVE;
    if (e) {
        ch->pn[i] = e->pn;
        ch->dn[i] = e->dn;
        ch->zone[i] = e->zone;
        ch->reply[i] = (int8_t)(e->reply - 1);
        return;
    }
    pn_class k;
    pn_settle(s, c, &k, c.att_to_move ? LOOK_AHEAD : SHALLOW);
    ch->zone[i] = 0;
    if (k.status == PROVEN) {
        ch->pn[i] = 0;
        ch->dn[i] = PN_INF;
        ch->zone[i] = k.zone;
    } else if (k.status == DISPROVEN) {
        ch->pn[i] = PN_INF;
        ch->dn[i] = 0;
        ch->zone[i] = k.zone;
    } else {
        /* mobility: to disprove an attacker's node every move must fail, to prove a defender's node
           every answer must; so a node starts with that many, and df-pn stays with one defence at a
           time instead of spreading over all (they all look alike before they are expanded) */
        uint64_t empty = s->g->full & ~(c.att | c.def);
        ch->pn[i] = c.att_to_move ? 1 : (uint32_t)count(k.moves);
        ch->dn[i] = c.att_to_move ? (uint32_t)count(empty) : 1;
    }
    pt_store(s->t, c, ch->pn[i], ch->dn[i], ch->zone[i], 0, k.rule | (k.unpaired ? UNPAIRED : 0), NULL_MOVE);
}

/* How good a move looks for the side to move: the attacker's by its lines and the defender's; the
   defender's by the attacker's lines it blocks first (it wins the question by blocking: its own lines
   count only as threats that force the attacker), which settled more of the moves of random 7x7k5
   positions within a node budget than the plain score. */
static int move_score(const ss_game *g, int cell, pn_node n) {
    if (n.att_to_move) return cell_score(g, cell, n.att, n.def);
    int blocks = 0, own = 0;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        uint64_t line = g->through[i];
        if (!(line & n.def)) blocks += 1 << (2 * count(line & n.att));
        if (!(line & n.att)) own += 1 << (2 * count(line & n.def));
    }
    return 4 * blocks + own;
}

/* Append the moves of `moves` best first (for the side to move), `killer` first of all when it is one
   of them, each looked at; stop at one that settles the node: a proven move of the attacker, a
   disproven move of the defender. */
void pn_add_moves(pn_search *s, pn_node n, uint64_t moves, pn_children *ch, int killer) {
    int score[MAX_CHILDREN];
    int base = ch->n, first = base;
    /* the killer alone first: it settles the node most often (at the defender's nodes of a hard 7x7k5
       question, 92,000 times in 151,000), and the other moves then need no order nor look-up */
    if (killer != NULL_MOVE && (moves & bit(killer))) {
        ch->cell[first] = (int8_t)killer;
        ch->n = first + 1;
        pn_look_at(s, n, ch, first);
        if (n.att_to_move ? ch->pn[first] == 0 : ch->dn[first] == 0) return;
        moves &= ~bit(killer);
        first++;
    }
    for (; moves; moves &= moves - 1) {
        int cell = lowest_cell(moves), i = ch->n++;
        int v = move_score(s->g, cell, n);
        for (; i > first && score[i - 1] < v; i--) {
            score[i] = score[i - 1];
            ch->cell[i] = ch->cell[i - 1];
        }
        score[i] = v;
        ch->cell[i] = (int8_t)cell;
    }
    /* every child's bucket asked of memory at once: the table is far larger than the caches, and the
       look-ups one after the other were a quarter of the search's time, waiting for memory */
    for (int i = first; i < ch->n; i++) {
        const char *b = (const char *)pt_bucket(s->t, child_of(n, ch->cell[i]));
        for (size_t line = 0; line < PN_WAYS * sizeof(pn_entry); line += 64) __builtin_prefetch(b + line);
    }
    for (int i = first; i < ch->n; i++) {
        pn_look_at(s, n, ch, i);
        if (n.att_to_move ? ch->pn[i] == 0 : ch->dn[i] == 0) {
            ch->cell[base] = ch->cell[i];
            ch->pn[base] = ch->pn[i];
            ch->dn[base] = ch->dn[i];
            ch->zone[base] = ch->zone[i];
            ch->reply[base] = ch->reply[i];
            ch->n = base + 1;
            return;
        }
    }
}
