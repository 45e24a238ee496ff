/* Depth-first proof-number search (df-pn, Nagai; thresholds widened by 1 + 1/4, Pawlewicz and Lew) of
   one question: can the attacker force a line (normal rule, flat or torus, no gravity)? The defender
   wins the question when it prevents every line, whether or not it completes one of its own; a draw
   is a position where neither side wins its question.

   The search's parts, this file's sections in turn: what settles a node before it is expanded, its
   children and their order (with the killer replies), the defender's replies probed by nodes spent at
   the first plies, a second thread's answers at the root, and the search itself; the zones of solved
   nodes and the children they settle are zones.c's, the table dfpn_table.c's.

   Monotony (the same rule): a position with one defender's mark more than a disproven one is disproven,
   with the same zone; one with one attacker's mark fewer too; and the other way round for proofs. By
   the zones, also one with an attacker's mark more outside a disproof's zone, and one with a defender's
   mark more outside a proof's zone. A node missing from the table takes such an entry when there is one
   (dfpn_table.c, pt_inherited()): the questions of one analysis share their work this way.
*/
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "dfpn.h"
#include "pairing.h"
#include "threats.h"
#include "zones.h"

/* What settles a node of the proof-number search before it is expanded, each rule sound under
   the normal rule:
   - the attacker to move completes a line: proven; the defender to move completes one: disproven;
   - the side to move faces two cells where the other completes a line: it loses (proven or disproven);
     facing one, its only move is to take it (unless it wins at once);
   - the attacker to move has a move that makes two threats while the defender has none: proven; the
     same for the defender to move: disproven;
   - the attacker to move wins by fours or by threes (threats.c): proven;
   - the defender's pairing strategy (pairing.c) blocks every line the attacker to move could still
     complete: disproven. A full board or no line left to the attacker: disproven.
   The defender's moves are cut to those that answer the attacker's threats: a threat's cell when the
   attacker threatens to complete a line; when the attacker could make two threats with one move, the
   moves that leave it no such move, and the defender's own moves that make a threat (any other move
   loses in three plies: the attacker makes two threats, the defender blocks one). */
/* A pairing search stops after PAIRING_STEPS steps (a fraction of a millisecond): most pairings that
   exist are found in far fewer, and a failed search costs its whole budget. 75, was 300: with the
   UNPAIRED flag, the 60 questions of tests/bench/provers_nodes.py settle the same 35 with 2 % fewer
   pairings and 2 % more nodes, at 1.25 times the node rate (150 steps: 1.1 times). The clock is read every PAIRINGS_PER_CHECK searches as well
   as every CHECK_EVERY nodes. */
enum { PAIRING_STEPS = 75, PAIRINGS_PER_CHECK = 16 };
/* A threat sequence is looked for within this many nodes when a node is expanded, a tenth of it one ply
   ahead. */
enum { THREAT_NODES = 1000 };
/* A tree of threes (threats.c) when an attacker's node is expanded and neither its fours nor a pairing
   settle it: this many nodes, this many threes deep. 200 and 2 (tests/bench/provers_misses.py --roots,
   the 180 questions about 7x7k5's positions after 4, 8 and 12 plies within 100,000 nodes each): 172
   settled against 169 without, in 1.38 million nodes against 1.63 million, in as much processor time;
   300 and 3: 171; 1,000 and 3 (defender's answers from a fours search): 171, 1.4 times the time. */
enum { THREES_NODES = 200, THREES_DEPTH = 2 };

static mask lowest_two(mask m) {
    mask rest = without_lowest(m);
    return (m & ~rest) | (rest & ~without_lowest(rest));
}

/* A node not settled (yet): nothing forced, cut or known about its pairing. */
static void start_open(pn_class *c) {
    c->status = OPEN;
    c->rule = SS_BY_SEARCH;
    c->forced = NULL_MOVE;
    c->unpaired = 0;
    c->cut = NO_CELLS;
    c->cut_guard = 0;
}

/* The defender's pairing strategy against the attacker to move: 1 when one settles `n` (disproven). */
static int paired_away(pn_search *s, pn_node n, pn_class *c) {
    if (pt_unpaired_below(s->t, n)) {
        c->unpaired = 1;
        return 0;
    }
    ss_cell pairs[SS_MAX_CELLS / 2][2];
    int n_pairs;
    mask paired;
    pairing_failure why;
    if (pairing_memo_fails(&s->unpaired, n.def, s->g->full & ~(n.att | n.def))) {
        c->unpaired = 1;
        return 0;
    }
    if (++s->pairing_calls % PAIRINGS_PER_CHECK == 0) s->m.next_check = s->m.nodes; /* read the clock */
    if (!pairing_search(s->g, n.att, n.def, PAIRING_STEPS, &paired, pairs, &n_pairs, &why)) {
        pairing_memo_keep(&s->unpaired, why);
        c->unpaired = 1;
        return 0;
    }
    s->pairings++;
    c->status = DISPROVEN;
    c->rule = SS_BY_PAIRING;
    c->zone = paired;
    return 1;
}

static void settle_attacker(pn_search *s, pn_node n, pn_class *c, int deep) {
    const ss_game *g = s->g;
    mask att = n.att, def = n.def, empty = g->full & ~(att | def);
    start_open(c);
    mask completes = pl_threats(g, att, def);
    if (any(completes)) {
        c->status = PROVEN;
        c->zone = bit(lowest_cell(completes));
        return;
    }
    mask against = pl_threats(g, def, att);
    if (!any(empty)) {
        c->status = DISPROVEN;
        c->zone = NO_CELLS;
        return;
    }
    if (more_than_one(against)) {
        c->status = DISPROVEN;
        c->zone = pl_cover(g, def, empty, NO_CELLS, 2, lowest_two(against));
        return;
    }
    if (any(against)) {
        c->forced = lowest_cell(against);
        return;
    }
    mask doubles;
    pl_threat_makers(g, att, def, &doubles);
    if (any(doubles)) {
        int cell = lowest_cell(doubles);
        c->status = PROVEN;
        c->zone = pz_double(g, s->guard, att, def, cell, pl_partners(g, att, def, cell));
        return;
    }
    if (!pl_has_line(g, def)) {
        c->status = DISPROVEN;
        c->zone = NO_CELLS;
        return;
    }
    if (deep == SHALLOW || deep == EXPAND_AGAIN) return;
    mask sequence_cells;
    int64_t sequence_nodes;
    int threat_nodes = deep == LOOK_AHEAD ? THREAT_NODES / 10 : THREAT_NODES;
    if (tss_find(g, att, def, threat_nodes, &sequence_cells, &sequence_nodes)) {
        s->threat_wins++;
        c->status = PROVEN;
        c->rule = SS_BY_THREATS;
        c->zone = pz_sequence(g, s->guard, att, def, sequence_cells);
        return;
    }
    if (deep != EXPAND_AFTER_LOOK && paired_away(s, n, c)) return;
    if (deep == LOOK_AHEAD) return;
    mask tree_zone;
    if (tss_threes_find(g, att, def, THREES_DEPTH, 1, 0, NO_CELLS, THREES_NODES, 0.0, s->guard, &tree_zone,
                        &sequence_nodes, NULL)) {
        s->threat_wins++;
        c->status = PROVEN;
        c->rule = SS_BY_THREATS;
        c->zone = tree_zone;
    }
}

/* The zone that rules out the defender's moves settle_defender cut: with the guard of three cells per
   line when the cut relied on the attacker's double threats or threat sequence (a cut move inside the
   zone leaves two: zones.c), and of two (the defender never wins at once). Made only when the node
   is proven: most nodes never are. */
mask pn_cut_zone(const ss_game *g, int guard, pn_node n, const pn_class *c) {
    mask zone = c->cut_guard ? pz_guard(g, guard, n.att, n.def, 3, c->cut) : c->cut;
    return pz_guard(g, guard, n.att, n.def, 2, zone);
}

static void settle_defender(pn_search *s, pn_node n, pn_class *c, int deep) {
    const ss_game *g = s->g;
    mask att = n.att, def = n.def, empty = g->full & ~(att | def);
    start_open(c);
    mask wins = pl_threats(g, def, att);
    if (any(wins)) {
        c->status = DISPROVEN;
        c->zone = pl_cover(g, def, empty, NO_CELLS, 1, bit(lowest_cell(wins)));
        return;
    }
    mask threats = pl_threats(g, att, def);
    if (more_than_one(threats)) {
        c->status = PROVEN;
        c->zone = pz_guard(g, s->guard, att, def, 2, lowest_two(threats));
        return;
    }
    if (!any(empty)) {
        c->status = DISPROVEN;
        c->zone = NO_CELLS;
        return;
    }
    if (any(threats)) {
        c->moves = threats;
        c->cut = threats;
        return;
    }
    mask my_doubles, their_doubles;
    mask makers = pl_threat_makers(g, def, att, &my_doubles);
    if (any(my_doubles)) { /* two threats at once, none to answer: the attacker blocks one, not both */
        int cell = lowest_cell(my_doubles);
        c->status = DISPROVEN;
        c->zone = pl_cover(g, def, empty, bit(cell), 2, bit(cell) | lowest_two(pl_partners(g, def, att, cell)));
        return;
    }
    pl_threat_makers(g, att, def, &their_doubles);
    mask answers = empty;
    for (mask d = their_doubles; any(d); d = without_lowest(d)) {
        int cell = lowest_cell(d);
        mask partners = pl_partners(g, att, def, cell);
        answers &= bit(cell) | (more_than_one(without_lowest(partners)) ? NO_CELLS : partners);
        c->cut |= bit(cell) | partners;
    }
    c->moves = any(their_doubles) ? (answers | makers) & empty : empty;
    mask sequence_cells;
    int64_t sequence_nodes;
    if (deep != SHALLOW && any(c->moves) && tss_find(g, att, def, THREAT_NODES, &sequence_cells, &sequence_nodes)) {
        c->moves &= sequence_cells | makers; /* the defence check: any other move loses (threats.c) */
        c->cut |= sequence_cells;
    }
    c->cut_guard = any(c->cut);
    if (!any(c->moves)) {
        c->status = PROVEN;
        c->zone = pn_cut_zone(g, s->guard, n, c);
    }
}

/* `deep`: how much of the costlier checks (SHALLOW ... EXPAND_AGAIN above). */
void pn_settle(pn_search *s, pn_node n, pn_class *c, int deep) {
    if (n.att_to_move) settle_attacker(s, n, c, deep);
    else settle_defender(s, n, c, deep);
}

/* The children of a proof-number search's node: the moves worth searching, best first, each
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
/* Lines through the cell free of the other side, weighted 4**(marks on them), for both sides. */
static int cell_score(const ss_game *g, int cell, mask mine, mask theirs) {
    int score = 0;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        mask line = g->through[i];
        if (!any(line & theirs)) score += 1 << (2 * count(line & mine));
        if (!any(line & mine)) score += 1 << (2 * count(line & theirs));
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
        ch->reply[i] = (ss_cell)(e->reply - 1);
        return;
    }
    pn_class k;
    pn_settle(s, c, &k, c.att_to_move ? LOOK_AHEAD : SHALLOW);
    ch->zone[i] = NO_CELLS;
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
        mask empty = s->g->full & ~(c.att | c.def);
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
        mask line = g->through[i];
        if (!any(line & n.def)) blocks += 1 << (2 * count(line & n.att));
        if (!any(line & n.att)) own += 1 << (2 * count(line & n.def));
    }
    return 4 * blocks + own;
}

/* Append the moves of `moves` best first (for the side to move), `killer` first of all when it is one
   of them, each looked at; stop at one that settles the node: a proven move of the attacker, a
   disproven move of the defender. */
void pn_add_moves(pn_search *s, pn_node n, mask moves, pn_children *ch, int killer) {
    int score[MAX_CHILDREN];
    int base = ch->n, first = base;
    /* the killer alone first: it settles the node most often (at the defender's nodes of a hard 7x7k5
       question, 92,000 times in 151,000), and the other moves then need no order nor look-up */
    if (killer != NULL_MOVE && any(moves & bit(killer))) {
        ch->cell[first] = (ss_cell)killer;
        ch->n = first + 1;
        pn_look_at(s, n, ch, first);
        if (n.att_to_move ? ch->pn[first] == 0 : ch->dn[first] == 0) return;
        moves &= ~bit(killer);
        first++;
    }
    for (; any(moves); moves = without_lowest(moves)) {
        int cell = lowest_cell(moves), i = ch->n++;
        int v = move_score(s->g, cell, n);
        for (; i > first && score[i - 1] < v; i--) {
            score[i] = score[i - 1];
            ch->cell[i] = ch->cell[i - 1];
        }
        score[i] = v;
        ch->cell[i] = (ss_cell)cell;
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

/* Probing the defender's replies (pn_mid): at the defender's nodes of a question's first plies,
   each reply in turn is searched within an allowance of nodes, those still open within four times as
   much, and so on, until one reply holds (the node is disproven), every reply loses (proven), or the
   budget, or an enclosing probe's allowance, is spent.

   Why not df-pn's own choice there: at the defender's node df-pn goes into the reply whose disproof
   number is least, and a reply the attacker meets with long runs of threats keeps that number small
   while its tree grows by millions of nodes. On 7x7k5 (X on r3c4, r4c3 and r4c2, O on r0c1 and r4c1,
   O to move: 4 random plies and X's best move) df-pn alone needed 1.78 million nodes on a table of
   2**22 slots and was open after 400,000 on the default 2**18, while the reply r3c3 holds within a
   few hundred: probed, the question is disproven in 1,123 nodes. Probing bounds what a bad reply can
   take by the nodes spent, and df-pn still searches each reply within its allowance, where its numbers
   serve well.

   The replies are probed in the order pn_add_moves gives (the killer, then by move_score), the k-th
   still open with a quarter of the allowance of the one before it (none below MIN_ALLOWANCE: those
   wait for a later round), so the first reply gets most of each round, as it would under df-pn when
   the order is right, and a later reply gets its turn once the first has used four times as much.
   Measured in docs/notes/provers-rounds.md ("Probing the defender's replies"). The first allowance and
   the plies probed are the call's (ss_pn_options: SS_PROBE_NODES and SS_PROBE_PLIES by default). */
enum { ALLOWANCE_GROWTH = 4, MIN_ALLOWANCE = 64 };

int pn_probing(const pn_search *s, pn_node n, int ply) {
    return s->probe_nodes > 0 && !n.att_to_move && ply < s->probe_plies;
}

/* Search the child within `allowance` nodes, or fewer when an enclosing probe's allowance ends sooner:
   1 when it is left open (its allowance spent, or thresholds saturated), -1 when the budget or the
   enclosing allowance is spent or a second thread settled the root's move (the caller unwinds, as a
   halted df-pn does), 0 when it is solved. */
static int probe(pn_search *s, pn_node c, int64_t allowance, int ply, int killer, pn_value *v) {
    int64_t outer = s->m.allowance_end, end = s->m.nodes + allowance;
    /* spent by the checks before this probe: unwind (an allowance of 0 nodes would mean none) */
    if (outer && outer <= s->m.nodes) {
        s->m.halted = 1;
        return -1;
    }
    if (outer && outer < end) end = outer;
    meter_allow(&s->m, end - s->m.nodes);
    *v = pn_mid(s, c, PN_INF - 1, PN_INF - 1, ply, killer);
    int halted = s->m.halted;
    meter_allow(&s->m, outer ? outer - s->m.nodes : 0);
    if (s->m.stopped || (outer && s->m.nodes >= outer)) {
        s->m.halted = 1;
        return -1;
    }
    if (s->abandon) return -1;
    return halted || (v->pn != 0 && v->dn != 0);
}

/* What a probing node gives back when it unwinds: nothing settled, unless a second thread's answer
   settled the root's move (ply 1) the search was in. */
static pn_value unwound(pn_search *s, pn_node n, int ply) {
    pn_value out = {1, 1, NO_CELLS, SS_BY_SEARCH, NULL_MOVE};
    if (s->abandon && ply == 1) {
        s->abandon = 0;
        if (pn_helped_move(s, n, &out)) pt_store(s->t, n, out.pn, out.dn, out.zone, 0, SS_BY_SEARCH, NULL_MOVE);
    }
    return out;
}

/* At the root, the reply the probes spent most on (ss_pn_result.focus: where a proof run splits a job). */
static void focus_on(pn_search *s, int ply, const pn_children *ch, const int64_t *spent) {
    if (ply != 0) return;
    int64_t most = -1;
    for (int i = 0; i < ch->n; i++)
        if (spent[i] > most) {
            most = spent[i];
            s->focus = ch->cell[i];
        }
}

pn_value pn_probe_replies(pn_search *s, pn_node n, int ply, int killer) {
    pn_value out = {1, 1, NO_CELLS, SS_BY_SEARCH, NULL_MOVE};
    int64_t nodes_before = s->m.nodes, spent[MAX_CHILDREN] = {0};
    pn_class k;
    if (s->help && ply == 1 && pn_helped_move(s, n, &out)) { /* a second thread's answer about this move */
        pt_store(s->t, n, out.pn, out.dn, out.zone, 0, SS_BY_SEARCH, NULL_MOVE);
        return out;
    }
    if (pn_settled_at_once(s, n, EXPAND, &k, &out)) return out;
    pn_children ch;
    ch.n = 0;
    pn_add_moves(s, n, k.moves, &ch, killer);
    pn_prune_replies(s, n, &ch);
    int winner = NULL_MOVE; /* the attacker's move that won after the last reply that lost */
    for (int64_t allowance = s->probe_nodes;; allowance *= ALLOWANCE_GROWTH) {
        int held = -1, open = 0, rank = 0;
        for (int i = 0; i < ch.n && held < 0; i++) {
            if (ch.dn[i] == 0) held = i;
            if (ch.pn[i] == 0 || ch.dn[i] == 0) continue;
            int64_t share = rank < 30 ? allowance >> (2 * rank) : 0;
            rank++;
            if (share < MIN_ALLOWANCE) {
                open++;
                continue;
            }
            pn_value v;
            int64_t before = s->m.nodes;
            int left = probe(s, child_of(n, ch.cell[i]), share, ply + 1, winner, &v);
            spent[i] += s->m.nodes - before;
            if (left < 0) {
                focus_on(s, ply, &ch, spent);
                return unwound(s, n, ply);
            }
            if (left) {
                open++;
                continue;
            }
            ch.pn[i] = v.pn;
            ch.dn[i] = v.dn;
            ch.zone[i] = v.zone;
            ch.reply[i] = (ss_cell)v.reply;
            if (v.dn == 0) held = i;
            if (v.pn == 0) {
                if (v.reply != NULL_MOVE) winner = v.reply;
                pn_prune_replies(s, n, &ch);
            }
        }
        if (held >= 0) {
            out = (pn_value){PN_INF, 0, pn_disproof_zone(s, n, &k, &ch), SS_BY_SEARCH, ch.cell[held]};
            break;
        }
        if (!open) { /* every reply lost */
            out = (pn_value){0, PN_INF, pn_proof_zone(s, n, &k, &ch), SS_BY_SEARCH, NULL_MOVE};
            break;
        }
        /* Every reply left open at every allowance (a reply whose numbers saturate returns at once): the
           allowance would overflow, and past it no reply is probed, no node counted and no clock read, so
           the loop would never end. The search stops, the node open. */
        if (allowance > INT64_MAX / ALLOWANCE_GROWTH) {
            s->m.halted = 1;
            focus_on(s, ply, &ch, spent);
            return unwound(s, n, ply);
        }
    }
    focus_on(s, ply, &ch, spent);
    pt_store(s->t, n, out.pn, out.dn, out.zone, s->m.nodes - nodes_before, SS_BY_SEARCH, out.reply);
    return out;
}

/* A second thread's help with a question at its root (threads.c): the moves it settled taken in, and
   the moves settled here told to it. */
/* At the root (the attacker to move): the moves the helper settled taken in, as a sibling's zone prunes
   them (pn_prune_moves); and the moves settled here told to the helper, which skips them. */
void pn_absorb_help(pn_search *s, pn_node n, pn_children *ch) {
    pn_help *h = s->help;
    mask disproven = atomic_mask_load(&h->disproven, __ATOMIC_ACQUIRE);
    mask proven = atomic_mask_load(&h->proven, __ATOMIC_ACQUIRE);
    mask settled = NO_CELLS;
    int taken = 0;
    for (int i = 0; i < ch->n; i++) {
        int cell = ch->cell[i];
        if (cell == NULL_MOVE) continue;
        if (ch->pn[i] && ch->dn[i] && any((disproven | proven) & bit(cell))) {
            int won = any(proven & bit(cell));
            ch->pn[i] = won ? 0 : PN_INF;
            ch->dn[i] = won ? PN_INF : 0;
            ch->zone[i] = h->zone[cell];
            pt_store(s->t, child_of(n, cell), ch->pn[i], ch->dn[i], ch->zone[i], 0, SS_BY_SEARCH, NULL_MOVE);
            taken = 1;
        }
    }
    if (taken) pn_prune_moves(s, n, ch);
    for (int i = 0; i < ch->n; i++)
        if (ch->cell[i] != NULL_MOVE && (!ch->pn[i] || !ch->dn[i])) settled |= bit(ch->cell[i]);
    atomic_mask_or(&h->settled_at_root, settled, __ATOMIC_RELAXED);
}

int pn_helper_settled(const pn_help *h, int cell) {
    if (cell == NULL_MOVE) return 0;
    mask settled = atomic_mask_load(&h->disproven, __ATOMIC_RELAXED) | atomic_mask_load(&h->proven, __ATOMIC_RELAXED);
    return any(settled & bit(cell));
}

int pn_helped_move(const pn_search *s, pn_node n, pn_value *out) {
    mask added = n.att ^ s->root_att;
    if (n.att_to_move || !any(added)) return 0; /* the root's pass */
    const pn_help *h = s->help;
    int cell = lowest_cell(added);
    mask disproven = atomic_mask_load(&h->disproven, __ATOMIC_ACQUIRE);
    mask proven = atomic_mask_load(&h->proven, __ATOMIC_ACQUIRE);
    if (!any((disproven | proven) & bit(cell))) return 0;
    int won = any(proven & bit(cell));
    out->pn = won ? 0 : PN_INF;
    out->dn = won ? PN_INF : 0;
    out->zone = h->zone[cell];
    out->rule = SS_BY_SEARCH;
    return 1;
}

/* The search */

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

/* The attacker's moves are searched beside its pass (zones.c), not after it: waiting for the pass's
   disproof, an attacker's node could do nothing else first, and where the attacker wins the pass is the
   defender moving twice, often a question as hard as the node's own. Of 30 Qubic positions after 8
   random plies (the attacker to move), 12 were proven within 100,000 nodes each with the moves after
   the pass, 25 beside it; after 6 plies, within 300,000, 2 and 14 of 20. Where the defender holds it
   costs nothing: on 7x7k5 and 8x8k5 after 4, 8 and 12 plies (tests/bench/provers_ab.py, 30 of each),
   90 exact within the default second against 89, every result proven in 94 against 90. */

/* `killer`: the move that settled a sibling's position (at the defender's node, the reply that held
   there or when the attacker passed; at the attacker's, the winning move), tried first. */
pn_value pn_mid(pn_search *s, pn_node n, uint32_t thpn, uint32_t thdn, int ply, int killer) {
    pn_value out = {1, 1, NO_CELLS, SS_BY_SEARCH, NULL_MOVE};
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
    if (pn_probing(s, n, ply)) return pn_probe_replies(s, n, ply, killer);
    pn_class k;
    int deep = !known ? EXPAND : known->work ? EXPAND_AGAIN : n.att_to_move ? EXPAND_AFTER_LOOK : EXPAND;
    if (pn_settled_at_once(s, n, deep, &k, &out)) return out;
    pn_children ch;
    ch.n = 0;
    int waiting_for_null = 0;
    if (n.att_to_move && k.forced != NULL_MOVE) {
        pn_add_moves(s, n, bit(k.forced), &ch, NULL_MOVE);
    } else if (n.att_to_move) { /* its pass (zones.c), its moves beside it or once it is disproven */
        mask moves = s->g->full & ~(n.att | n.def);
        ch.n = 1;
        ch.cell[0] = NULL_MOVE;
        pn_look_at(s, n, &ch, 0);
        if (ch.dn[0] == 0) pn_add_moves(s, n, ch.zone[0] & moves, &ch, killer);
        else if (ch.pn[0] == 0 || s->attacker_pass == SS_PASS_FIRST) waiting_for_null = 1;
        else pn_add_moves(s, n, moves, &ch, killer);
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
        ch.reply[best] = (ss_cell)v.reply;
        if ((n.att_to_move ? v.dn : v.pn) == 0 && v.reply != NULL_MOVE) child_killer = v.reply;
        if (!n.att_to_move && v.pn == 0) pn_prune_replies(s, n, &ch);
        if (n.att_to_move && v.dn == 0) pn_prune_moves(s, n, &ch);
        if (ch.cell[best] == NULL_MOVE && v.dn == 0 && !waiting_for_null) pn_prune_outside(s, n, &ch, v.zone);
        if (waiting_for_null && v.dn == 0) { /* the pass failed (SS_PASS_FIRST): the moves inside its zone now */
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

void pn_prove_helped(const ss_game *g, ss_pn_table *t, mask att, mask def, int att_to_move,
                     const ss_budget *budget, const ss_pn_options *options, pn_help *help, ss_pn_result *result) {
    pn_search s = {.g = g, .t = t, .focus = SS_NO_MOVE, .help = help, .root_att = att};
    ss_pn_options none = {0, 0, 0, 0}, o = options ? *options : none; /* zero: the default */
    s.guard = !o.unguarded;
    s.probe_plies = o.probe_plies > 0 ? o.probe_plies : SS_PROBE_PLIES;
    s.probe_nodes = o.probe_nodes > 0 ? o.probe_nodes : o.probe_nodes == 0 ? SS_PROBE_NODES : 0;
    s.attacker_pass = o.attacker_pass;
    meter_start(&s.m, budget);
    if (t->fingerprint != g->fingerprint) {
        ss_pn_table_clear(t);
        t->fingerprint = g->fingerprint;
    }
    pn_node root = {att, def, att_to_move != 0};
    pn_value v = pn_mid(&s, root, PN_INF - 1, PN_INF - 1, 0, NULL_MOVE);
    result->outcome = s.m.halted ? 0 : v.pn == 0 ? 1 : v.dn == 0 ? -1 : 0;
    result->zone = mask_out(result->outcome ? v.zone : NO_CELLS);
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
