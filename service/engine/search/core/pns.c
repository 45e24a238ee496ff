/* Depth-first proof-number search (df-pn, Nagai; thresholds widened by 1 + 1/4, Pawlewicz and Lew) of
   one question: can the attacker force a line (normal rule, flat or torus, no gravity)? The defender
   wins the question when it prevents every line, whether or not it completes one of its own; a draw
   is a position where neither side wins its question.

   What closes a node before it is expanded (each sound under the normal rule):
   - the attacker to move completes a line: proven; the defender to move completes one: disproven;
   - the side to move faces two cells where the other completes a line: it loses (proven or disproven);
     facing one, its only move is to take it (unless it wins at once);
   - the attacker to move has a move that makes two threats while the defender has none: proven; the
     same for the defender to move: disproven;
   - the defender's pairing strategy (pairing.c) blocks every line the attacker to move could still
     complete: disproven. A full board or no line left to the attacker: disproven.
   The defender's moves are cut to those that answer the attacker's threats: a threat's cell when the
   attacker threatens to complete a line; when the attacker could make two threats with one move, the
   moves that leave it no such move, and the defender's own moves that make a threat (any other move
   loses in three plies: the attacker makes two threats, the defender blocks one).

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
   (Disproven entries keep their zone in the table; a zone missing from it counts as the whole board.)

   Proof zones (proof_zone.c): a proven node keeps the cells its proof depends on, its guard against the
   defender's own lines among them. At the defender's node, once a reply is proven lost, every reply
   outside its zone loses as well: those are settled without search (prune_replies). Searching the
   defender's pass first, as the attacker's is, was tried and not kept: of the 60 questions about the
   bench's 30 7x7k5 positions after 4 plies, 2 settled within 300,000 nodes each (55 without it).

   Killer replies: a disproven defender's node keeps the reply that held (in its entry), and the
   attacker's node hands the last such reply among its children (the pass's first) to the next child it
   searches, where it is tried first: the defender's answer to a move that changes little is most often
   the answer it had when the attacker passed. Before it, a defender's node looked at every reply (a
   threat sequence and a pairing each) before the one that held. The same for proofs: a proven
   attacker's node keeps its winning move, which the defender's node hands to its next child. The
   defender's killers alone, on 90 random 7x7k5 positions after 4, 8 and 12 plies, both questions
   about each within 100,000 nodes: 168 of 180 settled in 1.74 million nodes, against 166 in 2.27
   million (the attacker's then 3-4 % fewer nodes) (tests/bench/provers_ab: exact in the default second after 4 / 8 /
   12 plies 26 / 25 / 25 of 30, from 24 / 23 / 25).

   Monotony (the same rule): a position with one defender's mark more than a disproven one is disproven,
   with the same zone; one with one attacker's mark fewer too; and the other way round for proofs. A node
   missing from the table takes such an entry when there is one (pn_table.c, pt_inherited()): the
   questions of one analysis share their work this way.
*/
#include <stdlib.h>
#include <string.h>

#include "pairing.h"
#include "pn_table.h"
#include "pns.h"
#include "proof_zone.h"
#include "prover_lines.h"
#include "tss.h"

/* A pairing search stops after PAIRING_STEPS steps (a fraction of a millisecond): most pairings that
   exist are found in far fewer, and a failed search costs its whole budget. 75, was 300: with the
   UNPAIRED flag, the 60 questions of tests/bench/provers_nodes.py settle the same 35 with 2 % fewer
   pairings and 2 % more nodes, at 1.25 times the node rate (150 steps: 1.1 times). The clock is read every PAIRINGS_PER_CHECK searches as well
   as every CHECK_EVERY nodes. */
enum { PAIRING_STEPS = 75, PAIRINGS_PER_CHECK = 16 };
/* A threat sequence is looked for within this many nodes when a node is expanded, a tenth of it one ply
   ahead. */
enum { THREAT_NODES = 1000 };
/* How much of the costlier checks (the threat sequence, the pairing) a node gets: none (a child looked
   at by the defender's node); when first seen as a child of the attacker's (LOOK_AHEAD: the threat
   sequence within a tenth of the nodes, the pairing); when expanded (EXPAND). Both searches give the
   same answer every time they are asked the same position with the same budget, so a node expanded
   after its look-ahead skips the pairing (EXPAND_AFTER_LOOK: the same steps failed), and a node expanded
   again (df-pn comes back to a node each time its thresholds grow) skips both (EXPAND_AGAIN): on random
   7x7k5 positions, 2.1 million pairing searches for 0.83 million nodes before. */
enum { SHALLOW = 0, LOOK_AHEAD = 1, EXPAND = 2, EXPAND_AFTER_LOOK = 3, EXPAND_AGAIN = 4 };
enum { NULL_MOVE = -1, MAX_CHILDREN = SS_MAX_CELLS + 1 };
enum { OPEN = 0, PROVEN = 1, DISPROVEN = 2 };
/* The thresholds of the best child: the second best's number widened to 1 + 1/4 of it at the attacker's
   nodes, and to 4 times it at the defender's. The questions asked are mostly draws, so most of the work
   is in disproofs, where the defender needs one reply that holds: widened by a quarter only, df-pn
   spread its work over every reply of the empty 7x7k5 board's hard positions (X on the centre: 1.8
   million nodes, not settled); held on one reply for longer, it settles each in about 500 nodes
   (tests/bench/provers_bench.py; docs/pages/provers.md). */
enum { ATTACKER_WIDENING = 4 /* 1 + 1/4 */, DEFENDER_WIDENING = 3 /* 1 + 3 */ };

typedef struct {
    const ss_game *g;
    ss_pn_table *t;
    meter m;
    int64_t pairings, threat_wins, pairing_calls, inherited, pruned;
    int focus; /* the root's child searched last */
    pn_help *help; /* another thread's answers about the root's moves (NULL: none) */
    uint64_t root_att; /* the attacker's marks at the root: a move's node below it holds one more */
    int abandon;       /* the helper settled the root's move searched now: unwind to its node */
} pn_search;

/* What a node settles before any search. */
typedef struct {
    int status;
    int rule;       /* what settled it: SS_BY_PAIRING, SS_BY_THREATS, else SS_BY_SEARCH */
    uint64_t zone;  /* DISPROVEN: its disproof's zone; PROVEN: its proof's (proof_zone.c) */
    uint64_t cut;   /* OPEN, defender to move: the cells that rule out the moves not in `moves`... */
    int cut_guard;  /* ... with the guard of three cells per line (cut_zone()) */
    int forced;     /* OPEN, attacker to move: the one cell it must take, else NULL_MOVE */
    int unpaired;   /* OPEN, attacker to move: it has no pairing (none found, or none by monotony) */
    uint64_t moves; /* OPEN, defender to move: the moves worth searching */
} pn_class;

typedef struct {
    int n;
    int8_t cell[MAX_CHILDREN];
    uint32_t pn[MAX_CHILDREN], dn[MAX_CHILDREN];
    uint64_t zone[MAX_CHILDREN];
    int8_t reply[MAX_CHILDREN]; /* the move that settled the child (its entry's `reply`; NULL_MOVE: none) */
} pn_children;

/* What settles a node */

static uint64_t lowest_two(uint64_t mask) {
    uint64_t rest = mask & (mask - 1);
    return (mask & ~rest) | (rest & ~(rest & (rest - 1)));
}


static void settle_attacker(pn_search *s, pn_node n, pn_class *c, int deep) {
    const ss_game *g = s->g;
    uint64_t att = n.att, def = n.def, empty = g->full & ~(att | def);
    c->status = OPEN;
    c->rule = SS_BY_SEARCH;
    c->forced = NULL_MOVE;
    c->unpaired = 0;
    uint64_t completes = pl_threats(g, att, def);
    if (completes) {
        c->status = PROVEN;
        c->zone = bit(lowest_cell(completes));
        return;
    }
    uint64_t against = pl_threats(g, def, att);
    if (!empty) {
        c->status = DISPROVEN;
        c->zone = 0;
        return;
    }
    if (more_than_one(against)) {
        c->status = DISPROVEN;
        c->zone = pl_cover(g, def, empty, 0, 2, lowest_two(against));
        return;
    }
    if (against) {
        c->forced = lowest_cell(against);
        return;
    }
    uint64_t doubles;
    pl_threat_makers(g, att, def, &doubles);
    if (doubles) {
        int cell = lowest_cell(doubles);
        c->status = PROVEN;
        c->zone = pz_double(g, att, def, cell, pl_partners(g, att, def, cell));
        return;
    }
    if (!pl_has_line(g, def)) {
        c->status = DISPROVEN;
        c->zone = 0;
        return;
    }
    int8_t pairs[SS_MAX_CELLS / 2][2];
    int n_pairs;
    uint64_t paired;
    if (deep == SHALLOW || deep == EXPAND_AGAIN) return;
    uint64_t sequence_cells;
    int64_t sequence_nodes;
    int threat_nodes = deep == LOOK_AHEAD ? THREAT_NODES / 10 : THREAT_NODES;
    if (tss_find(g, att, def, threat_nodes, &sequence_cells, &sequence_nodes)) {
        s->threat_wins++;
        c->status = PROVEN;
        c->rule = SS_BY_THREATS;
        c->zone = pz_sequence(g, att, def, sequence_cells);
        return;
    }
    if (deep == EXPAND_AFTER_LOOK) return;
    if (pt_unpaired_below(s->t, n)) {
        c->unpaired = 1;
        return;
    }
    if (++s->pairing_calls % PAIRINGS_PER_CHECK == 0) s->m.next_check = s->m.nodes; /* read the clock */
    if (pairing_search(g, att, def, PAIRING_STEPS, &paired, pairs, &n_pairs)) {
        s->pairings++;
        c->status = DISPROVEN;
        c->rule = SS_BY_PAIRING;
        c->zone = paired;
    } else {
        c->unpaired = 1;
    }
}

/* The zone that rules out the defender's moves settle_defender cut: with the guard of three cells per
   line when the cut relied on the attacker's double threats or threat sequence (a cut move inside the
   zone leaves two: proof_zone.c), and of two (the defender never wins at once). Made only when the node
   is proven: most nodes never are. */
static uint64_t cut_zone(const ss_game *g, pn_node n, const pn_class *c) {
    uint64_t zone = c->cut_guard ? pz_guard(g, n.att, n.def, 3, c->cut) : c->cut;
    return pz_guard(g, n.att, n.def, 2, zone);
}

static void settle_defender(pn_search *s, pn_node n, pn_class *c, int deep) {
    const ss_game *g = s->g;
    uint64_t att = n.att, def = n.def, empty = g->full & ~(att | def);
    c->status = OPEN;
    c->rule = SS_BY_SEARCH;
    c->forced = NULL_MOVE;
    c->unpaired = 0;
    c->cut = 0;
    c->cut_guard = 0;
    uint64_t wins = pl_threats(g, def, att);
    if (wins) {
        c->status = DISPROVEN;
        c->zone = pl_cover(g, def, empty, 0, 1, bit(lowest_cell(wins)));
        return;
    }
    uint64_t threats = pl_threats(g, att, def);
    if (more_than_one(threats)) {
        c->status = PROVEN;
        c->zone = pz_guard(g, att, def, 2, lowest_two(threats));
        return;
    }
    if (!empty) {
        c->status = DISPROVEN;
        c->zone = 0;
        return;
    }
    if (threats) {
        c->moves = threats;
        c->cut = threats;
        return;
    }
    uint64_t my_doubles, their_doubles;
    uint64_t makers = pl_threat_makers(g, def, att, &my_doubles);
    if (my_doubles) { /* two threats at once, none to answer: the attacker blocks one, not both */
        int cell = lowest_cell(my_doubles);
        c->status = DISPROVEN;
        c->zone = pl_cover(g, def, empty, bit(cell), 2, bit(cell) | lowest_two(pl_partners(g, def, att, cell)));
        return;
    }
    pl_threat_makers(g, att, def, &their_doubles);
    uint64_t answers = empty;
    for (uint64_t d = their_doubles; d; d &= d - 1) {
        int cell = lowest_cell(d);
        uint64_t partners = pl_partners(g, att, def, cell);
        answers &= bit(cell) | (more_than_one(partners & (partners - 1)) ? 0 : partners);
        c->cut |= bit(cell) | partners;
    }
    c->moves = their_doubles ? (answers | makers) & empty : empty;
    uint64_t sequence_cells;
    int64_t sequence_nodes;
    if (deep != SHALLOW && c->moves && tss_find(g, att, def, THREAT_NODES, &sequence_cells, &sequence_nodes)) {
        c->moves &= sequence_cells | makers; /* the defence check: any other move loses (tss.c) */
        c->cut |= sequence_cells;
    }
    c->cut_guard = c->cut != 0;
    if (!c->moves) {
        c->status = PROVEN;
        c->zone = cut_zone(g, n, c);
    }
}

/* `deep`: how much of the costlier checks (SHALLOW ... EXPAND_AGAIN above). */
static void settle(pn_search *s, pn_node n, pn_class *c, int deep) {
    if (n.att_to_move) settle_attacker(s, n, c, deep);
    else settle_defender(s, n, c, deep);
}

/* Children */

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

static pn_node child_of(pn_node n, int cell) {
    pn_node c = n;
    if (cell != NULL_MOVE) {
        if (n.att_to_move) c.att |= bit(cell);
        else c.def |= bit(cell);
    }
    c.att_to_move = !n.att_to_move;
    return c;
}


/* The child's numbers from the table (or inherited), else from what settles it (then kept in the
   table). */
static void look_at(pn_search *s, pn_node n, pn_children *ch, int i) {
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
    settle(s, c, &k, c.att_to_move ? LOOK_AHEAD : SHALLOW);
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
static void add_moves(pn_search *s, pn_node n, uint64_t moves, pn_children *ch, int killer) {
    int score[MAX_CHILDREN];
    int first = ch->n;
    for (; moves; moves &= moves - 1) {
        int cell = lowest_cell(moves), i = ch->n++;
        int v = cell == killer ? INT32_MAX : move_score(s->g, cell, n);
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
        look_at(s, n, ch, i);
        if (n.att_to_move ? ch->pn[i] == 0 : ch->dn[i] == 0) {
            ch->cell[first] = ch->cell[i];
            ch->pn[first] = ch->pn[i];
            ch->dn[first] = ch->dn[i];
            ch->zone[first] = ch->zone[i];
            ch->reply[first] = ch->reply[i];
            ch->n = first + 1;
            return;
        }
    }
}

static uint32_t add(uint32_t a, uint32_t b) { return a + b >= PN_INF ? PN_INF - 1 : a + b; }

/* The search */

static uint64_t disproof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch) {
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
static uint64_t proof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch) {
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
    uint64_t zone = cut_zone(g, n, k);
    for (int i = 0; i < ch->n; i++) zone |= pz_known(g, ch->zone[i]);
    return zone;
}

/* At the defender's node: once a reply d0 is proven lost with zone Z0, every reply d outside Z0 loses
   too: M + d has one defender's mark fewer than (M + d0) + d, which Z0's proof covers (proof_zone.c).
   Each reply refuted narrows the replies left to search to the cells inside its zone; those outside
   are settled without search, with that zone, also in the table. */
static void prune_replies(pn_search *s, pn_node n, pn_children *ch) {
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
static void prune_moves(pn_search *s, pn_node n, pn_children *ch) {
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

/* At the root (the attacker to move): the moves the helper settled taken in, as a sibling's zone prunes
   them (prune_moves); and the moves settled here told to the helper, which skips them. */
static void absorb_help(pn_search *s, pn_node n, pn_children *ch) {
    pn_help *h = s->help;
    uint64_t disproven = __atomic_load_n(&h->disproven, __ATOMIC_ACQUIRE);
    uint64_t proven = __atomic_load_n(&h->proven, __ATOMIC_ACQUIRE);
    uint64_t settled = 0;
    int taken = 0;
    for (int i = 0; i < ch->n; i++) {
        int cell = ch->cell[i];
        if (cell == NULL_MOVE) continue;
        if (ch->pn[i] && ch->dn[i] && ((disproven | proven) & bit(cell))) {
            int won = (proven & bit(cell)) != 0;
            ch->pn[i] = won ? 0 : PN_INF;
            ch->dn[i] = won ? PN_INF : 0;
            ch->zone[i] = h->zone[cell];
            pt_store(s->t, child_of(n, cell), ch->pn[i], ch->dn[i], ch->zone[i], 0, SS_BY_SEARCH, NULL_MOVE);
            taken = 1;
        }
    }
    if (taken) prune_moves(s, n, ch);
    for (int i = 0; i < ch->n; i++)
        if (ch->cell[i] != NULL_MOVE && (!ch->pn[i] || !ch->dn[i])) settled |= bit(ch->cell[i]);
    __atomic_fetch_or(&h->settled_at_root, settled, __ATOMIC_RELAXED);
}

static uint32_t threshold(uint32_t th, uint32_t second, int attacker) {
    uint64_t more = attacker ? second / ATTACKER_WIDENING : (uint64_t)second * DEFENDER_WIDENING;
    uint64_t widened = (uint64_t)second + more + 1;
    return widened < th ? (uint32_t)widened : th;
}

typedef struct {
    uint32_t pn, dn;
    uint64_t zone;
    int rule;  /* solved before expansion: what settled it */
    int reply; /* the move that settled it: a disproven defender's reply, a proven attacker's move */
} pn_value;

/* Below the root, at a node of one of its moves: the helper's answer about that move, if it has one
   (the search in it ends at once, rather than when it next comes back to the root). A search deeper
   in that move sees the answer come (helper_settled) and unwinds to the move's node (`abandon`). */
static int helped_move(const pn_search *s, pn_node n, pn_value *out);
static int helper_settled(const pn_help *h, int cell);

/* `killer`: the move that settled a sibling's position (at the defender's node, the reply that held
   there or when the attacker passed; at the attacker's, the winning move), tried first. */
static pn_value mid(pn_search *s, pn_node n, uint32_t thpn, uint32_t thdn, int ply, int killer) {
    pn_value out = {1, 1, 0, SS_BY_SEARCH, NULL_MOVE};
    if (meter_tick(&s->m, ply)) return out;
    if (s->help && ply >= 2 && helper_settled(s->help, s->focus)) {
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
    pn_class k;
    settle(s, n, &k, !known ? EXPAND : known->work ? EXPAND_AGAIN : n.att_to_move ? EXPAND_AFTER_LOOK : EXPAND);
    if (k.status != OPEN) {
        out.pn = k.status == PROVEN ? 0 : PN_INF;
        out.dn = k.status == PROVEN ? PN_INF : 0;
        out.zone = k.zone;
        out.rule = k.rule;
        pt_store(s->t, n, out.pn, out.dn, out.zone, 1, k.rule, NULL_MOVE);
        return out;
    }
    pn_children ch;
    ch.n = 0;
    int waiting_for_null = 0;
    if (n.att_to_move && k.forced != NULL_MOVE) {
        add_moves(s, n, bit(k.forced), &ch, NULL_MOVE);
    } else if (n.att_to_move) {
        ch.n = 1;
        ch.cell[0] = NULL_MOVE;
        look_at(s, n, &ch, 0);
        waiting_for_null = ch.dn[0] != 0;
        if (ch.dn[0] == 0) add_moves(s, n, ch.zone[0] & s->g->full & ~(n.att | n.def), &ch, killer);
    } else {
        add_moves(s, n, k.moves, &ch, killer);
    }
    /* the attacker's node: the defender's reply that held last, for its children */
    int child_killer = NULL_MOVE;
    for (int i = 0; i < ch.n && child_killer == NULL_MOVE; i++)
        if (n.att_to_move ? ch.dn[i] == 0 : ch.pn[i] == 0) child_killer = ch.reply[i];
    if (n.att_to_move) prune_moves(s, n, &ch);
    else prune_replies(s, n, &ch);
    for (;;) {
        uint32_t pn, dn, best_value = PN_INF, second = PN_INF;
        int best = -1;
        if (s->help && ply == 0 && n.att_to_move) absorb_help(s, n, &ch);
        if (s->help && ply == 1 && helped_move(s, n, &out)) {
            pt_store(s->t, n, out.pn, out.dn, out.zone, 0, SS_BY_SEARCH, NULL_MOVE);
            return out;
        }
        if (n.att_to_move) { /* an OR node of the question */
            pn = PN_INF;
            dn = 0;
            for (int i = 0; i < ch.n; i++) {
                dn = add(dn, ch.dn[i]);
                if (ch.pn[i] < best_value) {
                    second = best_value;
                    best_value = ch.pn[i];
                    best = i;
                } else if (ch.pn[i] < second) {
                    second = ch.pn[i];
                }
            }
            pn = best_value;
            if (dn >= PN_INF) dn = PN_INF - 1;
            if (pn == 0) dn = PN_INF;
        } else {
            pn = 0;
            dn = PN_INF;
            for (int i = 0; i < ch.n; i++) {
                pn = add(pn, ch.pn[i]);
                if (ch.dn[i] < best_value) {
                    second = best_value;
                    best_value = ch.dn[i];
                    best = i;
                } else if (ch.dn[i] < second) {
                    second = ch.dn[i];
                }
            }
            dn = best_value;
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
        pn_value v = mid(s, child_of(n, ch.cell[best]), child_thpn, child_thdn, ply + 1, child_killer);
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
        if (!n.att_to_move && v.pn == 0) prune_replies(s, n, &ch);
        if (n.att_to_move && v.dn == 0) prune_moves(s, n, &ch);
        if (waiting_for_null && v.dn == 0) { /* the pass failed: the moves inside its zone now */
            waiting_for_null = 0;
            add_moves(s, n, v.zone & s->g->full & ~(n.att | n.def), &ch, killer);
            prune_moves(s, n, &ch);
        }
    }
    if (out.dn == 0) out.zone = disproof_zone(s, n, &k, &ch);
    else if (out.pn == 0) out.zone = proof_zone(s, n, &k, &ch);
    if ((n.att_to_move ? out.pn : out.dn) == 0)
        for (int i = 0; i < ch.n && out.reply == NULL_MOVE; i++)
            if ((n.att_to_move ? ch.pn[i] : ch.dn[i]) == 0) out.reply = ch.cell[i];
    pt_store(s->t, n, out.pn, out.dn, out.zone, s->m.nodes - nodes_before, SS_BY_SEARCH | (k.unpaired ? UNPAIRED : 0),
          out.reply);
    return out;
}

static int helper_settled(const pn_help *h, int cell) {
    if (cell == NULL_MOVE) return 0;
    uint64_t settled = __atomic_load_n(&h->disproven, __ATOMIC_RELAXED) | __atomic_load_n(&h->proven, __ATOMIC_RELAXED);
    return (settled & bit(cell)) != 0;
}

static int helped_move(const pn_search *s, pn_node n, pn_value *out) {
    uint64_t added = n.att ^ s->root_att;
    if (n.att_to_move || !added) return 0; /* the root's pass */
    const pn_help *h = s->help;
    int cell = lowest_cell(added);
    uint64_t disproven = __atomic_load_n(&h->disproven, __ATOMIC_ACQUIRE);
    uint64_t proven = __atomic_load_n(&h->proven, __ATOMIC_ACQUIRE);
    if (!((disproven | proven) & bit(cell))) return 0;
    int won = (proven & bit(cell)) != 0;
    out->pn = won ? 0 : PN_INF;
    out->dn = won ? PN_INF : 0;
    out->zone = h->zone[cell];
    out->rule = SS_BY_SEARCH;
    return 1;
}

void ss_pn_prove(const ss_game *g, ss_pn_table *t, uint64_t att, uint64_t def, int att_to_move,
                 const ss_budget *budget, ss_pn_result *result) {
    pn_prove_helped(g, t, att, def, att_to_move, budget, NULL, result);
}

void pn_prove_helped(const ss_game *g, ss_pn_table *t, uint64_t att, uint64_t def, int att_to_move,
                     const ss_budget *budget, pn_help *help, ss_pn_result *result) {
    pn_search s = {g, t, {0}, 0, 0, 0, 0, 0, SS_NO_MOVE, help, att, 0};
    meter_start(&s.m, budget);
    if (t->fingerprint != g->fingerprint) {
        ss_pn_table_clear(t);
        t->fingerprint = g->fingerprint;
    }
    pn_node root = {att, def, att_to_move != 0};
    pn_value v = mid(&s, root, PN_INF - 1, PN_INF - 1, 0, NULL_MOVE);
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
