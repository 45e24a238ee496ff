/* Pairing strategies: disjoint pairs of empty cells such that every line the attacker could still
   complete holds one of the pairs; the defender answers a move on one cell of a pair with the other. */
#ifndef SS_PAIRING_H
#define SS_PAIRING_H

#include <stdint.h>

#include "board.h"

/* Why a pairing search found none: lines (`lines`: all their cells) that have no pairing on their own,
   and their empty cells then (`gaps`). lines 0: nothing known (the budget ran out). A position where
   those lines are all still free of the defender, with no empty cell among them outside `gaps`, has no
   pairing either: a pairing of it would pair those lines on cells that were empty (pairing_memo below). */
typedef struct {
    mask lines, gaps; /* the lines' cells; their empty cells then */
} pairing_failure;

/* 1 and the paired cells (*cells; pairs[] gets the pairs, room for SS_MAX_CELLS / 2) when a pairing of
   the empty cells blocks every line free of `defender`'s marks, 0 when none exists or none was found
   within `budget` steps of the search (a budget of 0: no limit), with why (*why). With the attacker to
   move the pairs must all be empty, as here; a defender to move plays first (see ss_pairing_find). */
int pairing_search(const ss_game *g, mask attacker, mask defender, int64_t budget, mask *cells,
                   ss_cell (*pairs)[2], int *n_pairs, pairing_failure *why);

/* Sets g->apart and g->n_phases (board.h), once the windows are known: what lets a search count lines
   that need a pair each without making any group (pairing.c). */
void pairing_setup(ss_game *g);

/* Frees the calling thread's buffers of the search (a thread about to end calls it). */
void pairing_release(void);
/* Add this thread's pairing counts to all threads' (ss_pairing_counts), as a thread kept for the next
   call does after each one. */
void pairing_counts_fold(void);

/* The pairing searches one proof-number search saw fail (their pairing_failure), the last
   PAIRING_MEMO of them: a position one of them shows has no pairing skips its own search (dfpn.c).

   Most pairing searches fail (on a hard 7x7k5 question 456,000 of 566,000), and most failures have a
   local reason, a crowded corner or edge, that stays while the search plays elsewhere: a sixteen-entry
   memo answers 220,000 of those searches (64 entries: a few more, no faster). It is exact (a skipped
   search would have failed): the same search, node for node (tests/bench/provers_nodes.py --compare:
   0 of 60 fingerprints differing; 71,000 nodes per processor-second before, 87,000 after), and the 180
   questions of tests/bench/provers_misses.py --roots in 8.0 processor-seconds against 9.6. Per search,
   not per thread: a question's search does not depend on what ran before it. */
enum { PAIRING_MEMO = 16 };

typedef struct {
    pairing_failure failed[PAIRING_MEMO]; /* the last failures, a ring */
    int next, used;                       /* where the next one goes; how many are kept */
} pairing_memo;

/* Whether a failure kept shows that the position (`defender`'s marks, its `empty` cells) has no
   pairing: its lines are all free of the defender, and none of their cells is empty that was not. */
static inline int pairing_memo_fails(const pairing_memo *m, mask defender, mask empty) {
    for (int i = 0; i < m->used; i++) {
        const pairing_failure *f = &m->failed[i];
        if (!any(defender & f->lines) && !any(empty & f->lines & ~f->gaps)) return 1;
    }
    return 0;
}

/* Keeps a failure (one whose reason is known), in place of the oldest. */
static inline void pairing_memo_keep(pairing_memo *m, pairing_failure why) {
    if (!any(why.lines)) return;
    m->failed[m->next] = why;
    m->next = (m->next + 1) % PAIRING_MEMO;
    if (m->used < PAIRING_MEMO) m->used++;
}

#endif
