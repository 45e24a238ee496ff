/* Each move is scored by the threats it makes and the open lines through it (as Pons orders Connect
   Four by the winning cells a move creates). Under misère a threat is a cell its owner can no longer
   play, so there the score favours cells on lines the opponent already spoils. */
#include "order.h"

enum { HINT = 1 << 20, THREAT_WEIGHT = 16 };

static int score_move(const ss_game *g, int cell, uint64_t mine, uint64_t theirs, uint64_t before,
                      uint64_t after) {
    int open = 0, spoiled = 0;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        uint64_t line = g->through[i];
        if (!(line & theirs)) open++;
        else if (!(line & mine)) spoiled++;
    }
    int made = count(after & ~before);
    return g->misere ? spoiled - THREAT_WEIGHT * made : THREAT_WEIGHT * made + open;
}

void order_moves(const ss_game *g, uint64_t moves, uint64_t mine, uint64_t theirs, uint64_t my_threats,
                 int hint, move_list *out) {
    int score[SS_MAX_CELLS];
    int n = 0;
    for (; moves; moves &= moves - 1) {
        int cell = lowest_cell(moves);
        uint64_t after = threats_after(g, my_threats, mine, theirs, cell);
        int s = score_move(g, cell, mine, theirs, my_threats, after) + (cell == hint ? HINT : 0);
        int i = n++;
        for (; i > 0 && score[i - 1] < s; i--) { /* insertion: stable, so ties stay in cell order */
            score[i] = score[i - 1];
            out->cell[i] = out->cell[i - 1];
            out->threats[i] = out->threats[i - 1];
        }
        score[i] = s;
        out->cell[i] = (int8_t)cell;
        out->threats[i] = after;
    }
    out->n = n;
}
