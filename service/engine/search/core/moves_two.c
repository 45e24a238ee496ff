/* ss_prove_moves on two threads: the caller's and the helper's (helper_thread.c), each searching on a
   transposition table of its own, the moves taken one at a time by whichever thread is free. The
   results and the remoteness after the provers ran on one thread while the other core waited (on
   7x7k5 after 12 plies, a tenth of the second and whatever the provers left; on boards the provers do
   not lead, such as 5x5k4, the whole analysis).

   The same two passes as the one thread's loop (moves.c): first each move an even share of what is
   left, a share counted for two threads (2 / the moves not yet started, at most all of it); then each
   move all that is left, in the order given, two at a time. A move is searched by one thread at a time
   (`busy`); its bounds are written only by the thread that holds it. Node caps keep to one thread:
   a count shared by two searches would make their answers depend on the threads' timing, and the
   tests that cap nodes ask for the same answer every time. */
#include <stddef.h>

#include "helper_thread.h"
#include "moves.h"

typedef struct {
    const ss_game *g;
    uint64_t mine, theirs;
    const int32_t *cells;
    int n, goal;
    const ss_budget *budget;
    int32_t *lower, *upper;
    /* Read and written atomically: */
    int32_t busy[SS_MAX_CELLS]; /* a thread is searching the move */
    int32_t done[SS_MAX_CELLS]; /* the passes the move has had (0, 1 or 2) */
} two_call;

typedef struct {
    two_call *call;
    ss_table *table;
    ss_result spent;
} two_worker;

static int move_met(const two_call *c, int i) {
    return moves_met(c->goal, __atomic_load_n(&c->lower[i], __ATOMIC_ACQUIRE),
                     __atomic_load_n(&c->upper[i], __ATOMIC_ACQUIRE));
}

/* The moves still to start in `pass`, this one among them. */
static int still_to_start(const two_call *c, int pass) {
    int left = 0;
    for (int i = 0; i < c->n; i++)
        left += __atomic_load_n(&c->done[i], __ATOMIC_ACQUIRE) == pass && !move_met(c, i);
    return left;
}

/* The first move free, not met and due for `pass`, taken (busy); -1 when none is. */
static int take(two_call *c, int pass) {
    for (int i = 0; i < c->n; i++) {
        int32_t idle = 0;
        if (__atomic_load_n(&c->done[i], __ATOMIC_ACQUIRE) != pass || move_met(c, i)) continue;
        if (!__atomic_compare_exchange_n(&c->busy[i], &idle, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) continue;
        if (__atomic_load_n(&c->done[i], __ATOMIC_ACQUIRE) == pass && !move_met(c, i)) return i;
        __atomic_store_n(&c->busy[i], 0, __ATOMIC_RELEASE);
    }
    return -1;
}

static void work(void *arg) {
    two_worker *w = arg;
    two_call *c = w->call;
    for (int pass = 0; pass < 2; pass++) {
        for (int i; (i = take(c, pass)) >= 0;) {
            if (moves_spent(c->budget, 0)) {
                w->spent.stopped = 1;
                __atomic_store_n(&c->busy[i], 0, __ATOMIC_RELEASE);
                return;
            }
            double fraction = 1.0;
            if (pass == 0) {
                int left = still_to_start(c, pass);
                fraction = left > 2 ? 2.0 / left : 1.0;
            }
            ss_budget part = moves_share(c->budget, 0, fraction);
            ss_result child = {-c->upper[i], -c->lower[i], SS_NO_MOVE, 0, 0, 0, 0, 0};
            ss_prove(c->g, w->table, c->theirs, c->mine | bit(c->cells[i]), c->goal, &part, &child);
            __atomic_store_n(&c->lower[i], -child.upper, __ATOMIC_RELEASE);
            __atomic_store_n(&c->upper[i], -child.lower, __ATOMIC_RELEASE);
            result_add_spent(&w->spent, &child);
            w->spent.stopped |= child.stopped;
            __atomic_store_n(&c->done[i], pass + 1, __ATOMIC_RELEASE);
            __atomic_store_n(&c->busy[i], 0, __ATOMIC_RELEASE);
        }
    }
}

void ss_prove_moves_two(const ss_game *g, ss_table *table, ss_table *second, ss_pn_helper *helper, uint64_t mine,
                        uint64_t theirs, const int32_t *cells, int n, int goal, const ss_budget *budget,
                        int32_t *lower, int32_t *upper, ss_result *spent) {
    if (!second || !helper || !budget || budget->max_nodes > 0 || n < 2) {
        ss_prove_moves(g, table, mine, theirs, cells, n, goal, budget, lower, upper, spent);
        return;
    }
    static const two_call blank;
    two_call call = blank;
    call.g = g;
    call.mine = mine;
    call.theirs = theirs;
    call.cells = cells;
    call.n = n;
    call.goal = goal;
    call.budget = budget;
    call.lower = lower;
    call.upper = upper;
    ss_result none = {SS_SCORE_MIN, SS_SCORE_MAX, SS_NO_MOVE, 0, 0, 0, 0, 0};
    two_worker first = {&call, table, none}, other = {&call, second, none};
    helper_start(helper, work, &other);
    work(&first);
    helper_wait(helper);
    result_add_spent(&first.spent, &other.spent);
    first.spent.stopped |= other.spent.stopped;
    *spent = first.spent;
}
