/* What the loops over a position's moves share (moves.c on one thread, moves_two.c on two). */
#ifndef SS_MOVES_H
#define SS_MOVES_H

#include <stdint.h>

#include "budget.h"
#include "board.h"

/* Whether the bounds [lo, hi] meet `goal` (SS_GOAL_RESULT: the result is known; SS_GOAL_SCORE: exact). */
int moves_met(int goal, int lo, int hi);
/* Whether the budget is spent, `used` nodes of it so far (NULL: no budget, never). */
int moves_spent(const ss_budget *b, int64_t used);
/* `fraction` of what is left of the budget (as the Python engine's Spending.share). */
ss_budget moves_share(const ss_budget *b, int64_t used, double fraction);

#endif
