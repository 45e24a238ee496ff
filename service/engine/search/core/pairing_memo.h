/* The pairing searches one proof-number search saw fail (pairing.c's pairing_failure), the last
   PAIRING_MEMO of them: a position one of them shows has no pairing skips its own search (pn_settle.c).

   Most pairing searches fail (on a hard 7x7k5 question 456,000 of 566,000), and most failures have a
   local reason, a crowded corner or edge, that stays while the search plays elsewhere: a sixteen-entry
   memo answers 220,000 of those searches (64 entries: a few more, no faster). It is exact (a skipped
   search would have failed): the same search, node for node (tests/bench/provers_nodes.py --compare:
   0 of 60 fingerprints differing; 71,000 nodes per processor-second before, 87,000 after), and the 180
   questions of tests/bench/provers_misses.py --roots in 8.0 processor-seconds against 9.6. Per search,
   not per thread: a question's search does not depend on what ran before it. */
#ifndef SS_PAIRING_MEMO_H
#define SS_PAIRING_MEMO_H

#include <stdint.h>

#include "pairing.h"

enum { PAIRING_MEMO = 16 };

typedef struct {
    pairing_failure failed[PAIRING_MEMO];
    int next, used;
} pairing_memo;

/* Whether a failure kept shows that the position (`defender`'s marks, its `empty` cells) has no
   pairing: its lines are all free of the defender, and none of their cells is empty that was not. */
static inline int pairing_memo_fails(const pairing_memo *m, uint64_t defender, uint64_t empty) {
    for (int i = 0; i < m->used; i++) {
        const pairing_failure *f = &m->failed[i];
        if (!(defender & f->lines) && !(empty & f->lines & ~f->gaps)) return 1;
    }
    return 0;
}

/* Keeps a failure (one whose reason is known), in place of the oldest. */
static inline void pairing_memo_keep(pairing_memo *m, pairing_failure why) {
    if (!why.lines) return;
    m->failed[m->next] = why;
    m->next = (m->next + 1) % PAIRING_MEMO;
    if (m->used < PAIRING_MEMO) m->used++;
}

#endif
