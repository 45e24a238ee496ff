/* The interface's entry points that take or give sets of cells (sanmoku_search.h, sanmoku_debug.h): each
   converts the interface's ss_mask to the core's mask (mask.h) and back, and calls the search it names.
   At 64 cells the two are one word and the conversions are nothing. */
#include "alphabeta.h"
#include "dfpn.h"
#include "sanmoku_debug.h"
#include "threats.h"

void ss_prove(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, int goal, const ss_budget *budget,
              ss_result *result) {
    prove_position(g, t, mask_in(mine), mask_in(theirs), goal, budget, result);
}

void ss_prove_moves(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, const int32_t *cells, int n,
                    int goal, const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent) {
    prove_moves(g, t, mask_in(mine), mask_in(theirs), cells, n, goal, budget, lower, upper, spent);
}

void ss_prove_moves_two(const ss_game *g, ss_table *table, ss_table *second, ss_pn_helper *helper,
                        ss_mask mine, ss_mask theirs, const int32_t *cells, int n, int goal,
                        const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent) {
    prove_moves_two(g, table, second, helper, mask_in(mine), mask_in(theirs), cells, n, goal, budget, lower,
                    upper, spent);
}

void ss_score_moves(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, const int32_t *cells, int n,
                    int32_t *scores, ss_result *spent) {
    score_moves(g, t, mask_in(mine), mask_in(theirs), cells, n, scores, spent);
}

int ss_score_all(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, int32_t *cells, int32_t *scores,
                 ss_result *spent) {
    return score_all(g, t, mask_in(mine), mask_in(theirs), cells, scores, spent);
}

void ss_estimate(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, int max_depth,
                 const ss_budget *budget, ss_result *result) {
    estimate_position(g, t, mask_in(mine), mask_in(theirs), max_depth, budget, result);
}

void ss_pn_prove(const ss_game *g, ss_pn_table *t, ss_mask attacker, ss_mask defender, int attacker_to_move,
                 const ss_budget *budget, const ss_pn_options *options, ss_pn_result *result) {
    pn_prove_helped(g, t, mask_in(attacker), mask_in(defender), attacker_to_move, budget, options, NULL, result);
}

int ss_pn_table_numbers(const ss_pn_table *t, ss_mask attacker, ss_mask defender, int attacker_to_move,
                        uint32_t *pn, uint32_t *dn) {
    return pt_numbers(t, mask_in(attacker), mask_in(defender), attacker_to_move, pn, dn);
}

int ss_threat_sequence(const ss_game *g, ss_mask attacker, ss_mask defender, int64_t budget, ss_mask *cells) {
    int64_t nodes;
    mask found = NO_CELLS;
    int yes = tss_find(g, mask_in(attacker), mask_in(defender), budget, &found, &nodes);
    *cells = mask_out(found);
    return yes;
}

int ss_threat_tree(const ss_game *g, ss_mask attacker, ss_mask defender, int depth, int64_t budget,
                   const ss_pn_options *options, ss_mask *zone) {
    int64_t nodes;
    int guard = !(options && options->unguarded);
    mask found = NO_CELLS;
    int yes = tss_threes_find(g, mask_in(attacker), mask_in(defender), depth, 0, budget, guard, &found, &nodes);
    *zone = mask_out(found);
    return yes;
}
