/* Threat-space search (Allis's idea, in its simplest sound form: victory by continuous threats). The
   attacker plays only moves that threaten to complete a line at once; the defender's reply is then
   forced (the threat's cell), unless it can complete a line of its own first. The attacker wins when a
   move makes two threats at once, or when it can complete a line; the sequence fails when the defender
   threatens twice, or threatens once and the attacker's block makes no threat. For k = 5 these threats
   are the fours; the threes of gomoku (threats to make two fours) are searched below, and the
   proof-number search's defender's moves are cut to those that meet such a threat (dfpn.c, settle_defender).

   A sequence found is a proof: every defender reply is forced. As a defence check it says more: a
   defender to move whose opponent would have a sequence must play one of its cells (the attacker's moves,
   the replies, the final threats), a cell of a line through a reply (where a mark of its own could turn
   a forced reply into a threat of its own), or a move that threatens to complete a line at once; any other
   move leaves the sequence as it was, and loses. */
#include "threats.h"

#include <stdint.h>

#include "board.h"
#include "sanmoku_debug.h"
#include "zones.h"

enum { MAX_SEQUENCE = SS_MAX_CELLS / 2 };

typedef struct {
    const ss_game *g;      /* the board */
    int64_t nodes, budget; /* the nodes searched, and how many it may */
    mask cells; /* of the sequence found: its moves, replies, final threats and the lines of replies */
} tss_search;

/* The empty cells of the lines through `cell` free of `other`'s marks. */
static mask lines_through(const ss_game *g, int cell, mask other, mask empty) {
    mask out = NO_CELLS;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++)
        if (!any(g->through[i] & other)) out |= g->through[i] & empty;
    return out;
}

/* `against`: the defender's threats (cells where it completes a line). Below the root the attacker has
   none of its own: it had none, its move made one, and the defender took it. */
static int sequence(tss_search *t, mask att, mask def, int depth, mask against) {
    const ss_game *g = t->g;
    if (++t->nodes > t->budget || depth > MAX_SEQUENCE) return 0;
    if (more_than_one(against)) return 0;
    mask doubles;
    mask makers = pl_threat_makers(g, att, def, &doubles);
    mask moves = any(against) ? makers & against : makers;
    for (int pass = 0; pass < 2; pass++) { /* the moves that threaten twice first */
        for (mask m = pass ? moves & ~doubles : moves & doubles; any(m); m = without_lowest(m)) {
            int cell = lowest_cell(m);
            mask threats = pl_partners(g, att, def, cell);
            if (more_than_one(threats)) { /* the defender blocks one, and cannot win first */
                t->cells |= bit(cell) | threats;
                return 1;
            }
            int reply = lowest_cell(threats);
            /* the defender's threats: its one before (if any) taken by the move, those the reply makes */
            mask made = threats_after(g, NO_CELLS, def, att | bit(cell), reply);
            if (sequence(t, att | bit(cell), def | bit(reply), depth + 1, made)) {
                mask empty = g->full & ~(att | def);
                t->cells |= bit(cell) | bit(reply) | lines_through(g, reply, att, empty);
                return 1;
            }
            if (t->nodes > t->budget) return 0;
        }
    }
    return 0;
}

int tss_find(const ss_game *g, mask attacker, mask defender, int64_t budget, mask *cells,
             int64_t *nodes) {
    tss_search t = {g, 0, budget > 0 ? budget : INT64_MAX, NO_CELLS};
    mask wins = pl_threats(g, attacker, defender);
    if (any(wins)) {
        *cells = bit(lowest_cell(wins));
        *nodes = 1;
        return 1;
    }
    int found = sequence(&t, attacker, defender, 0, pl_threats(g, defender, attacker));
    *cells = t.cells;
    *nodes = t.nodes;
    return found;
}

/* Threat-space search with threes (Allis's threat-space search with its threes; in Thomsen's terms a
   lambda-2 search over the fours above).

   A three is a move after which the attacker, were it to move again, would make two threats at once
   (for k = 5: an open four, or a four and a four, from an open or broken three): the defender must
   answer it. Its answers are the cell of that double threat and the two threats' cells (any other move
   lets the attacker play there, and the defender blocks one of the two), and its own moves that make a
   four (the attacker must block those first). Each answer must be refuted: by fours (above), or, depth
   allowing, by another three. The attacker's threes are looked for on the cells of two or more lines
   free of the defender that each hold k - 3 of its marks or more. A tree found is a proof (every answer
   the defender has is met), found with a narrow search where the proof-number search would spread over
   every move of the zone; it is asked at each attacker's node the proof-number search expands
   (dfpn.c), after the fours and the pairing.

   Its zone follows zones.c's rules node by node: at the attacker's node its move and its child's
   zone; at the defender's node the cells that cut its answers (the double threat's, with the guard of
   three cells per line; the threat's cell when it must block a four), the guard of two and every
   answer's zone; a leaf won by fours, pz_sequence's zone. So a proof found here settles a node as the
   proof-number search's own would, with the same zone.

   Quiet threes (`quiet`, the root's trees only: root_trees.py): a move after which the attacker, were it
   to move again, would win by fours (its sequence found as if the defender passed) is a three as well,
   and far more cells are tried than the candidates below (quiet_candidates). The defender must then play a cell of
   that sequence (the defence check above: any other move leaves it as it was) or make a four of its
   own; the zone is the one dfpn.c gives a defender's node cut to a threat sequence's cells. Public
   puzzles won in three moves start with such a move, on a cell no candidate three holds: 10 of the 25
   that ordinary threes missed were found so, each in 0.2 s or less (tests/bench/gomoku_puzzles.py).

   Measured (tests/bench/provers_misses.py, docs/pages/provers.md): the budget and depth of
   dfpn.c's call; the defender's answers taken from a fours search after the three instead of the
   double threat (more threes, 1.4 times the time); the same search as a defence check at the
   defender's nodes (its moves cut to a tree's zone: twice the time, no question more settled). */

/* Each fours search that refutes an answer is bounded too: one long sequence must not take the budget.
   With quiet threes a fours search also makes the threat: 300 nodes there (the puzzles above: 9 of the
   10 with 50, all with 300, as many with 2,000). */
enum { FOURS_NODES = 50, QUIET_FOURS_NODES = 300 };
/* A node (of the trees or of their fours searches) takes about a microsecond on 15x15: the clock is read
   every CLOCK_NODES nodes, a millisecond or two. Read every 256 attacker's nodes instead, a tree with
   quiet threes (each attacker's node a fours search on most empty cells) overran a second's deadline by
   a tenth of a second or more. */
enum { CLOCK_NODES = 2048 };

typedef struct {
    const ss_game *g;      /* the board */
    int64_t nodes, budget; /* the nodes searched, and how many it may (fours searches included) */
    int guard;             /* the zones' guard (zones.c, pz_guard): 1 but in a test of its need */
    double deadline;       /* on ss_monotonic(), read every CLOCK_NODES nodes (0: none) */
    int64_t next_clock;    /* the count of nodes at which the clock is read next */
    int root_depth;        /* the depth the root was asked with: only the root's node has it */
    int first;             /* the root's move of the tree found (-1: none, or won by fours alone) */
    int quiet;             /* 1: quiet threes too (above), on the cells of quiet_candidates */
    mask banned;           /* cells the root's attacker may not play (tss_threes_find) */
} threes_search;

/* Whether the deadline has passed (the clock read every CLOCK_NODES nodes); once it has, the budget ends
   where the search is, so that every node from there on stops at once. */
static int out_of_time(threes_search *t) {
    if (t->deadline <= 0 || t->nodes < t->next_clock) return 0;
    t->next_clock = t->nodes + CLOCK_NODES;
    if (ss_monotonic() <= t->deadline) return 0;
    t->budget = t->nodes;
    return 1;
}

static int fours(threes_search *t, mask att, mask def, mask *cells) {
    int64_t left = t->budget - t->nodes, used = 0;
    if (left <= 0) return 0; /* tss_find reads a budget of 0 as none */
    int64_t most = t->quiet ? QUIET_FOURS_NODES : FOURS_NODES;
    int found = tss_find(t->g, att, def, left < most ? left : most, cells, &used);
    t->nodes += used;
    return found;
}

/* The attacker's candidate threes: the cells of two lines or more free of the defender (and, under
   "exactly k", with no mark of the attacker beside them) that each hold k - 3 of the attacker's marks or
   more, and the moves that make a four. Under "k or more" those are mostly cells of two such lines
   already (two windows of one row); under "exactly k" the second window is often a run too long. */
static mask candidates(const ss_game *g, mask att, mask def) {
    mask empty = g->full & ~(att | def), once = NO_CELLS, twice = NO_CELLS, doubles;
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        if (any(line & def) || count(line & att) + 3 < count(line)) continue;
        if (g->flanks && any(g->flanks[i] & att)) continue;
        twice |= once & line & empty;
        once |= line & empty;
    }
    return twice | pl_threat_makers(g, att, def, &doubles);
}

/* The attacker's candidate quiet threes: the cells of lines free of the defender (and of the attacker's
   marks beside them, under "exactly k") that hold one of its marks or more, and k - 4 or more. The move
   must lie in a window of one of the fours that follow it; one that holds none of the attacker's marks
   yet would need three of those fours' stones, which the puzzles' wins never did. Half the cells of
   every empty one on the puzzles' boards, and the trees of two quiet threes twice as fast: 75 of the 90
   puzzles proven within a second against 74 (tests/bench/gomoku_puzzles.py, both rules). */
static mask quiet_candidates(const ss_game *g, mask att, mask def) {
    mask empty = g->full & ~(att | def), out = NO_CELLS;
    for (int i = 0; i < g->n_lines; i++) {
        mask line = g->lines[i];
        if (any(line & def) || !any(line & att) || count(line & att) + 4 < count(line)) continue;
        if (g->flanks && any(g->flanks[i] & att)) continue;
        out |= line & empty;
    }
    return out;
}

static int defender_node(threes_search *t, mask att, mask def, int depth, mask *zone);

/* A quiet tree's moves in the order to try them (out[0 .. *n)): by the lines through each, free of the
   defender (and of the attacker's marks beside them), each weighing 3 to the power of the attacker's
   marks on it, the heaviest first. The tree stops at its first win, and a refutation deep in it at its
   first answer: trees of three quiet threes on the puzzles took 0.08 to 1.4 s instead of 0.8 to 6 s.
   The ordinary trees keep the cells' order: so ordered, two puzzles that need four threes ran out of
   their share. */
static void ordered_moves(const ss_game *g, mask moves, mask att, mask def, ss_cell *out, int *n) {
    int score[SS_MAX_CELLS], count_out = 0;
    static const int WEIGHT[10] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683};
    for (mask m = moves; any(m); m = without_lowest(m)) {
        int cell = lowest_cell(m), value = 0;
        for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
            mask line = g->through[i];
            if (any(line & def) || (g->through_flanks && any(g->through_flanks[i] & att))) continue;
            int held = count(line & att);
            value += WEIGHT[held < 9 ? held : 9];
        }
        int j = count_out++;
        while (j > 0 && score[j - 1] < value) { /* insertion: stable, the lower cell first among equals */
            score[j] = score[j - 1];
            out[j] = out[j - 1];
            j--;
        }
        score[j] = value;
        out[j] = (ss_cell)cell;
    }
    *n = count_out;
}

/* The attacker to move: 1 when it wins by fours (unless `fours_known_not`), or by a three every answer
   to which it refutes in turn (`depth` threes at most); *zone then holds the proof's zone. */
static int attacker_node(threes_search *t, mask att, mask def, int depth, int fours_known_not,
                         mask *zone) {
    const ss_game *g = t->g;
    if (++t->nodes > t->budget || out_of_time(t)) return 0;
    mask cells;
    if (!fours_known_not && fours(t, att, def, &cells)) {
        *zone = pz_sequence(g, t->guard, att, def, cells);
        return 1;
    }
    mask against = pl_threats(g, def, att);
    if (depth == 0 || more_than_one(against)) return 0;
    /* facing a four, the attacker must block it, and the block must be a three */
    mask moves = any(against) ? against : t->quiet ? quiet_candidates(g, att, def) : candidates(g, att, def);
    if (depth == t->root_depth) moves &= ~t->banned;
    ss_cell order[SS_MAX_CELLS];
    int n;
    if (t->quiet) ordered_moves(g, moves, att, def, order, &n);
    else
        for (n = 0; any(moves); moves = without_lowest(moves)) order[n++] = (ss_cell)lowest_cell(moves);
    for (int k = 0; k < n && t->nodes <= t->budget && !out_of_time(t); k++) {
        int move = order[k];
        mask child;
        if (defender_node(t, att | bit(move), def, depth - 1, &child)) {
            *zone = bit(move) | child;
            if (depth == t->root_depth) t->first = move;
            return 1;
        }
    }
    return 0;
}

int tss_answers(const ss_game *g, mask att, mask def, mask banned, mask *answers, mask *cut, int *next) {
    mask empty = g->full & ~(att | def);
    if (any(pl_threats(g, def, att)) || !any(empty)) return TSS_ESCAPES; /* a line of its own, or full */
    mask threats = pl_threats(g, att, def);
    *next = -1;
    if (more_than_one(threats)) {
        *cut = threats;
        *answers = NO_CELLS;
        return TSS_TWO_THREATS;
    }
    if (any(threats)) {
        *cut = *answers = threats;
        *next = lowest_cell(threats);
        return TSS_BLOCK;
    }
    mask defender_doubles, attacker_doubles;
    mask makers = pl_threat_makers(g, def, att, &defender_doubles);
    if (any(defender_doubles)) return TSS_ESCAPES; /* two fours at once: the attacker blocks one only */
    pl_threat_makers(g, att, def, &attacker_doubles);
    attacker_doubles &= ~banned;
    if (!any(attacker_doubles)) return TSS_ESCAPES; /* not a three */
    *next = lowest_cell(attacker_doubles);
    *cut = bit(*next) | pl_partners(g, att, def, *next);
    *answers = (*cut | makers) & empty;
    return TSS_ANSWERS;
}

/* The defender to move after the attacker's quiet three (above), or 0 when the move is none: the
   attacker, were it to move again, would win by fours. Then *answers holds the sequence's cells and the
   defender's moves that make a four, and *cut the sequence's cells. */
static int quiet_answers(threes_search *t, mask att, mask def, mask *answers, mask *cut) {
    const ss_game *g = t->g;
    mask empty = g->full & ~(att | def);
    if (any(pl_threats(g, def, att)) || any(pl_threats(g, att, def)) || !any(empty)) return 0;
    mask defender_doubles, makers = pl_threat_makers(g, def, att, &defender_doubles);
    if (any(defender_doubles)) return 0; /* two fours at once: the attacker blocks one only */
    mask cells;
    if (!fours(t, att, def, &cells)) return 0;
    *cut = cells;
    *answers = (cells | makers) & empty;
    return 1;
}

/* The defender to move after the attacker's three: 1 when every answer loses. */
static int defender_node(threes_search *t, mask att, mask def, int depth, mask *zone) {
    const ss_game *g = t->g;
    mask answers, cut;
    int next;
    int kind = tss_answers(g, att, def, NO_CELLS, &answers, &cut, &next);
    if (kind == TSS_ESCAPES && t->quiet && quiet_answers(t, att, def, &answers, &cut)) kind = TSS_ANSWERS;
    if (kind == TSS_ESCAPES) return 0;
    if (kind == TSS_TWO_THREATS) {
        *zone = pz_guard(g, t->guard, att, def, 2, cut);
        return 1;
    }
    mask children = NO_CELLS;
    for (mask a = answers; any(a); a = without_lowest(a)) {
        mask child;
        if (!attacker_node(t, att, def | (lowest_only(a)), depth, 0, &child)) return 0;
        children |= child;
    }
    mask guarded = kind == TSS_BLOCK ? cut : pz_guard(g, t->guard, att, def, 3, cut);
    *zone = pz_guard(g, t->guard, att, def, 2, guarded) | children;
    return 1;
}

int tss_threes_find(const ss_game *g, mask attacker, mask defender, int depth, int fours_known_not, int quiet,
                    mask banned, int64_t budget, double deadline, int guard, mask *zone, int64_t *nodes,
                    int *first) {
    threes_search t = {g, 0, budget > 0 ? budget : INT64_MAX, guard, deadline, CLOCK_NODES, depth, -1, quiet, banned};
    mask found_zone = NO_CELLS;
    int found = attacker_node(&t, attacker, defender, depth, fours_known_not, &found_zone);
    *zone = found ? found_zone : NO_CELLS;
    *nodes = t.nodes;
    if (first) *first = found ? t.first : -1;
    return found;
}
