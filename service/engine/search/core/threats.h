/* Threat-space search: sequences of threats that force a line (see tss.c). */
#ifndef SS_TSS_H
#define SS_TSS_H

#include <stdint.h>

#include "board.h"

/* 1 when the attacker, to move, forces a line by continuous threats (found within `budget` nodes): then
   *cells holds the sequence's cells and those a defender's mark could change it through (see tss.c). */
int tss_find(const ss_game *g, uint64_t attacker, uint64_t defender, int64_t budget, uint64_t *cells,
             int64_t *nodes);

#endif
