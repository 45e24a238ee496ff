/* What settles a node of the proof-number search (pns.c) before it is expanded, each rule sound under
   the normal rule:
   - the attacker to move completes a line: proven; the defender to move completes one: disproven;
   - the side to move faces two cells where the other completes a line: it loses (proven or disproven);
     facing one, its only move is to take it (unless it wins at once);
   - the attacker to move has a move that makes two threats while the defender has none: proven; the
     same for the defender to move: disproven;
   - the attacker to move wins by fours (tss.c) or by threes (tss_threes.c): proven;
   - the defender's pairing strategy (pairing.c) blocks every line the attacker to move could still
     complete: disproven. A full board or no line left to the attacker: disproven.
   The defender's moves are cut to those that answer the attacker's threats: a threat's cell when the
   attacker threatens to complete a line; when the attacker could make two threats with one move, the
   moves that leave it no such move, and the defender's own moves that make a threat (any other move
   loses in three plies: the attacker makes two threats, the defender blocks one). */
#include "pairing.h"
#include "dfpn.h"
#include "zones.h"
#include "board.h"
#include "threats.h"

/* A pairing search stops after PAIRING_STEPS steps (a fraction of a millisecond): most pairings that
   exist are found in far fewer, and a failed search costs its whole budget. 75, was 300: with the
   UNPAIRED flag, the 60 questions of tests/bench/provers_nodes.py settle the same 35 with 2 % fewer
   pairings and 2 % more nodes, at 1.25 times the node rate (150 steps: 1.1 times). The clock is read every PAIRINGS_PER_CHECK searches as well
   as every CHECK_EVERY nodes. */
enum { PAIRING_STEPS = 75, PAIRINGS_PER_CHECK = 16 };
/* A threat sequence is looked for within this many nodes when a node is expanded, a tenth of it one ply
   ahead. */
enum { THREAT_NODES = 1000 };
/* A tree of threes (tss_threes.c) when an attacker's node is expanded and neither its fours nor a pairing
   settle it: this many nodes, this many threes deep. 200 and 2 (tests/bench/provers_misses.py --roots,
   the 180 questions about 7x7k5's positions after 4, 8 and 12 plies within 100,000 nodes each): 172
   settled against 169 without, in 1.38 million nodes against 1.63 million, in as much processor time;
   300 and 3: 171; 1,000 and 3 (defender's answers from a fours search): 171, 1.4 times the time. */
enum { THREES_NODES = 200, THREES_DEPTH = 2 };

static uint64_t lowest_two(uint64_t mask) {
    uint64_t rest = mask & (mask - 1);
    return (mask & ~rest) | (rest & ~(rest & (rest - 1)));
}

/* A node not settled (yet): nothing forced, cut or known about its pairing. */
static void start_open(pn_class *c) {
    c->status = OPEN;
    c->rule = SS_BY_SEARCH;
    c->forced = NULL_MOVE;
    c->unpaired = 0;
    c->cut = 0;
    c->cut_guard = 0;
}

/* The defender's pairing strategy against the attacker to move: 1 when one settles `n` (disproven). */
static int paired_away(pn_search *s, pn_node n, pn_class *c) {
    if (pt_unpaired_below(s->t, n)) {
        c->unpaired = 1;
        return 0;
    }
    int8_t pairs[SS_MAX_CELLS / 2][2];
    int n_pairs;
    uint64_t paired;
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
    uint64_t att = n.att, def = n.def, empty = g->full & ~(att | def);
    start_open(c);
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
    if (deep != EXPAND_AFTER_LOOK && paired_away(s, n, c)) return;
    if (deep == LOOK_AHEAD) return;
    uint64_t tree_zone;
    if (tss_threes_find(g, att, def, THREES_DEPTH, 1, THREES_NODES, &tree_zone, &sequence_nodes)) {
        s->threat_wins++;
        c->status = PROVEN;
        c->rule = SS_BY_THREATS;
        c->zone = tree_zone;
    }
}

/* The zone that rules out the defender's moves settle_defender cut: with the guard of three cells per
   line when the cut relied on the attacker's double threats or threat sequence (a cut move inside the
   zone leaves two: proof_zone.c), and of two (the defender never wins at once). Made only when the node
   is proven: most nodes never are. */
uint64_t pn_cut_zone(const ss_game *g, pn_node n, const pn_class *c) {
    uint64_t zone = c->cut_guard ? pz_guard(g, n.att, n.def, 3, c->cut) : c->cut;
    return pz_guard(g, n.att, n.def, 2, zone);
}

static void settle_defender(pn_search *s, pn_node n, pn_class *c, int deep) {
    const ss_game *g = s->g;
    uint64_t att = n.att, def = n.def, empty = g->full & ~(att | def);
    start_open(c);
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
        c->zone = pn_cut_zone(g, n, c);
    }
}

/* `deep`: how much of the costlier checks (SHALLOW ... EXPAND_AGAIN above). */
void pn_settle(pn_search *s, pn_node n, pn_class *c, int deep) {
    if (n.att_to_move) settle_attacker(s, n, c, deep);
    else settle_defender(s, n, c, deep);
}
