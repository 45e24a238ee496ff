/* Alpha-beta (alphabeta.c): what its callers share, the exact search's driver (prove.c), the estimates
   (estimate.c) and the moves on two threads (threads.c). */
#ifndef SS_ALPHABETA_H
#define SS_ALPHABETA_H

#include "board.h"
#include "budget.h"
#include "tt.h"

/* The state of one call: the board, its table, and what the call spends. */
typedef struct {
    const ss_game *g; /* the board searched */
    ss_table *tt;     /* its transposition table, the caller's alone for the call */
    meter m;          /* the nodes counted against the budget */
} searcher;

static inline void searcher_start(searcher *s, const ss_game *g, ss_table *tt, const ss_budget *budget) {
    s->g = g;
    s->tt = tt;
    meter_start(&s->m, budget);
    tt_use_for(tt, g->fingerprint);
}

/* Scores: a win with the `marks`-th mark scores SS_BIG - marks, the loss the negative. */
static inline int win_at(int marks) { return SS_BIG - marks; }
static inline int loss_at(int marks) { return marks - SS_BIG; }

/* Whether the bounds [lo, hi] meet `goal` (SS_GOAL_RESULT: the result is known; SS_GOAL_SCORE: exact). */
static inline int goal_met(int goal, int lo, int hi) {
    return lo == hi || (goal == SS_GOAL_RESULT && (lo >= 1 || hi <= -1 || (lo >= 0 && hi <= 0)));
}

/* The estimates' scores are heuristic units: a settled score s reads s * SS_HEURISTIC_UNIT, and an
   evaluation at the horizon stays below the smallest of those (36 units). */
enum {
    HORIZON_LIMIT = 30 * SS_HEURISTIC_UNIT,                  /* the largest |evaluation| */
    HORIZON_SETTLED = (SS_BIG - SS_MAX_CELLS) * SS_HEURISTIC_UNIT, /* the least |score| of a game's end */
    HORIZON_INFINITE = SS_BIG * SS_HEURISTIC_UNIT + 1
};

/* Fail-soft negamax over scores that carry the game's length: a score <= alpha is an upper bound on the
   true one, >= beta a lower bound, else exact. When the budget or the allowance runs out it returns 0
   with s->m.halted set, and stores nothing on the way up.
   ab_cells: the position by cells (`mine` the side to move's marks, `theirs` the other side's), with
   each side's threats (ss_threats). ab_columns: for boards with col.on, by column bits (`mine` the
   side to move's stones, `occupied` all of them; threats by column_wins). */
int ab_cells(searcher *s, mask mine, mask theirs, mask my_thr, mask their_thr, int alpha, int beta,
             int ply);
int ab_columns(searcher *s, mask mine, mask occupied, mask my_thr, mask their_thr, int alpha,
               int beta, int ply);

/* The same search to `depth` plies, by cells, with horizon_score at the horizon, in heuristic units; it
   writes to the table only the best move of the nodes above the last ply, no bound (estimate.c). */
int ab_horizon(searcher *s, mask mine, mask theirs, mask my_thr, mask their_thr, int depth,
               int alpha, int beta, int ply);

/* The interface's searches on the core's masks (sanmoku_search.h: ss_prove, ss_prove_moves, ss_score_moves,
   ss_score_all, ss_estimate and ss_prove_moves_two; entry.c converts the masks). */
void prove_position(const ss_game *g, ss_table *t, mask mine, mask theirs, int goal, const ss_budget *budget,
                    ss_result *result);
void prove_moves(const ss_game *g, ss_table *t, mask mine, mask theirs, const int32_t *cells, int n, int goal,
                 const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent);
void score_moves(const ss_game *g, ss_table *t, mask mine, mask theirs, const int32_t *cells, int n,
                 int32_t *scores, ss_result *spent);
int score_all(const ss_game *g, ss_table *t, mask mine, mask theirs, int32_t *cells, int32_t *scores,
              ss_result *spent);
void estimate_position(const ss_game *g, ss_table *t, mask mine, mask theirs, int max_depth,
                       const ss_budget *budget, ss_result *result);
void prove_moves_two(const ss_game *g, ss_table *table, ss_table *second, ss_pn_helper *helper, mask mine,
                     mask theirs, const int32_t *cells, int n, int goal, const ss_budget *budget, int32_t *lower,
                     int32_t *upper, ss_result *spent);

/* The heuristic score of a position at the horizon, for the side to move (estimate.c). */
int horizon_score(const ss_game *g, mask mine, mask theirs);

#endif
