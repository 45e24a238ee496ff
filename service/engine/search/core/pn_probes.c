/* Probing the defender's replies (pns.c, pn_mid): at the defender's nodes of a question's first plies,
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
   Measured in docs/notes/provers-rounds.md ("Probing the defender's replies"). */
#include "dfpn.h"

enum { FIRST_ALLOWANCE = 1000, ALLOWANCE_GROWTH = 4, MIN_ALLOWANCE = 64, PROBED_PLIES = 2 };

static int64_t first_allowance = FIRST_ALLOWANCE;
static int probed_plies = PROBED_PLIES;

void ss_pn_probes(int64_t nodes, int plies) {
    first_allowance = nodes < 0 ? FIRST_ALLOWANCE : nodes;
    probed_plies = nodes < 0 ? PROBED_PLIES : plies;
}

int pn_probing(pn_node n, int ply) { return first_allowance > 0 && !n.att_to_move && ply < probed_plies; }

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
    pn_value out = {1, 1, 0, SS_BY_SEARCH, NULL_MOVE};
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
    pn_value out = {1, 1, 0, SS_BY_SEARCH, NULL_MOVE};
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
    for (int64_t allowance = first_allowance;; allowance *= ALLOWANCE_GROWTH) {
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
            ch.reply[i] = (int8_t)v.reply;
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
    }
    focus_on(s, ply, &ch, spent);
    pt_store(s->t, n, out.pn, out.dn, out.zone, s->m.nodes - nodes_before, SS_BY_SEARCH, out.reply);
    return out;
}
