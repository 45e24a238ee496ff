/* Threat-space search (Allis's idea, in its simplest sound form: victory by continuous threats). The
   attacker plays only moves that threaten to complete a line at once; the defender's reply is then
   forced (the threat's cell), unless it can complete a line of its own first. The attacker wins when a
   move makes two threats at once, or when it can complete a line; the sequence fails when the defender
   threatens twice, or threatens once and the attacker's block makes no threat. For k = 5 these threats
   are the fours; the threes of gomoku (threats to make two fours) are tss_threes.c's, and the
   proof-number search's defender's moves are cut to those that meet such a threat (pn_settle.c).

   A sequence found is a proof: every defender reply is forced. As a defence check it says more: a
   defender to move whose opponent would have a sequence must play one of its cells (the attacker's moves,
   the replies, the final threats), a cell of a line through a reply (where a mark of its own could turn
   a forced reply into a threat of its own), or a move that threatens to complete a line at once; any other
   move leaves the sequence as it was, and loses. */
#include "threats.h"

#include <stdint.h>

#include "board.h"

enum { MAX_SEQUENCE = SS_MAX_CELLS / 2 };

typedef struct {
    const ss_game *g;
    int64_t nodes, budget;
    uint64_t cells; /* of the sequence found: its moves, replies, final threats and the lines of replies */
} tss_search;

/* The empty cells of the lines through `cell` free of `other`'s marks. */
static uint64_t lines_through(const ss_game *g, int cell, uint64_t other, uint64_t empty) {
    uint64_t out = 0;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++)
        if (!(g->through[i] & other)) out |= g->through[i] & empty;
    return out;
}

/* `against`: the defender's threats (cells where it completes a line). Below the root the attacker has
   none of its own: it had none, its move made one, and the defender took it. */
static int sequence(tss_search *t, uint64_t att, uint64_t def, int depth, uint64_t against) {
    const ss_game *g = t->g;
    if (++t->nodes > t->budget || depth > MAX_SEQUENCE) return 0;
    if (more_than_one(against)) return 0;
    uint64_t doubles;
    uint64_t makers = pl_threat_makers(g, att, def, &doubles);
    uint64_t moves = against ? makers & against : makers;
    for (int pass = 0; pass < 2; pass++) { /* the moves that threaten twice first */
        for (uint64_t m = pass ? moves & ~doubles : moves & doubles; m; m &= m - 1) {
            int cell = lowest_cell(m);
            uint64_t threats = pl_partners(g, att, def, cell);
            if (more_than_one(threats)) { /* the defender blocks one, and cannot win first */
                t->cells |= bit(cell) | threats;
                return 1;
            }
            int reply = lowest_cell(threats);
            /* the defender's threats: its one before (if any) taken by the move, those the reply makes */
            uint64_t made = threats_after(g, 0, def, att | bit(cell), reply);
            if (sequence(t, att | bit(cell), def | bit(reply), depth + 1, made)) {
                uint64_t empty = g->full & ~(att | def);
                t->cells |= bit(cell) | bit(reply) | lines_through(g, reply, att, empty);
                return 1;
            }
            if (t->nodes > t->budget) return 0;
        }
    }
    return 0;
}

int tss_find(const ss_game *g, uint64_t attacker, uint64_t defender, int64_t budget, uint64_t *cells,
             int64_t *nodes) {
    tss_search t = {g, 0, budget > 0 ? budget : INT64_MAX, 0};
    uint64_t wins = pl_threats(g, attacker, defender);
    if (wins) {
        *cells = bit(lowest_cell(wins));
        *nodes = 1;
        return 1;
    }
    int found = sequence(&t, attacker, defender, 0, pl_threats(g, defender, attacker));
    *cells = t.cells;
    *nodes = t.nodes;
    return found;
}

int ss_threat_sequence(const ss_game *game, uint64_t attacker, uint64_t defender, int64_t budget,
                       uint64_t *cells) {
    int64_t nodes;
    return tss_find(game, attacker, defender, budget, cells, &nodes);
}
