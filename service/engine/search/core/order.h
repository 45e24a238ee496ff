/* Move ordering: the table's best move first, then the moves that threaten most. */
#ifndef SS_ORDER_H
#define SS_ORDER_H

#include <stdint.h>

#include "board.h"

typedef struct {
    int n;
    int8_t cell[SS_MAX_CELLS];
    uint64_t threats[SS_MAX_CELLS]; /* the mover's threats after the move: the child needs them */
} move_list;

/* The moves of `moves` in the order to search them; `hint` (a cell or SS_NO_MOVE) goes first. */
void order_moves(const ss_game *g, uint64_t moves, uint64_t mine, uint64_t theirs, uint64_t my_threats,
                 int hint, move_list *out);

#endif
