/* The pairing search's entry points for Python (sanmoku_search.h): a pairing for either side to move
   (the defender to move may first play a move of its own), and why the search found none. */
#include "pairing.h"

int ss_pairing_failure(const ss_game *g, uint64_t attacker, uint64_t defender, int64_t budget, uint64_t *lines,
                       uint64_t *gaps) {
    int8_t pairs[SS_MAX_CELLS / 2][2];
    int n_pairs;
    uint64_t cells;
    pairing_failure why;
    int found = pairing_search(g, attacker, defender, budget, &cells, pairs, &n_pairs, &why);
    *lines = why.lines;
    *gaps = why.gaps;
    return found;
}

int ss_pairing_find(const ss_game *g, uint64_t attacker, uint64_t defender, int defender_to_move, int64_t budget,
                    int8_t *pairs, int *n_pairs, int32_t *first_move) {
    uint64_t cells;
    pairing_failure why;
    *first_move = SS_NO_MOVE;
    if (pairing_search(g, attacker, defender, budget, &cells, (int8_t(*)[2])pairs, n_pairs, &why)) return 1;
    if (!defender_to_move) return 0;
    for (uint64_t m = g->full & ~(attacker | defender); m; m &= m - 1) {
        int cell = lowest_cell(m);
        if (pairing_search(g, attacker, defender | bit(cell), budget, &cells, (int8_t(*)[2])pairs, n_pairs, &why)) {
            *first_move = cell;
            return 1;
        }
    }
    return 0;
}
