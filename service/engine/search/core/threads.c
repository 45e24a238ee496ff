/* The searches of one call on two threads: the caller's and a helper thread kept from call to call (1),
   running the provers' two families of questions (2) or the alpha-beta searches of a position's moves
   (3). */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

#include "dfpn.h"
#include "alphabeta.h"
#include "budget.h"
#include "kept_thread.h"
#include "pairing.h"

/* 1. The helper thread of the provers' second family (2. below): a thread kept from call to call
   (kept_thread.h), made by the searching thread that owns it. */
struct ss_pn_helper {
    kept_thread *kept;
};

ss_pn_helper *ss_pn_helper_new(void) {
    ss_pn_helper *h = malloc(sizeof *h);
    if (!h) return NULL;
    h->kept = kept_thread_new(SEARCH_STACK, NULL); /* mask.h */
    if (!h->kept) {
        free(h);
        return NULL;
    }
    return h;
}

void ss_pn_helper_free(ss_pn_helper *h) {
    if (!h) return;
    kept_thread_free(h->kept);
    free(h);
}

/* 2. The provers of one analysis on two threads: the questions about a position fall into two families,
   each with its own proof-number table (sanmoku_search.h, ss_pn_prove_families), and the families share
   nothing but the budget and which moves are settled, so each runs on a thread of its own (the second
   on the helper thread, 1. above). */
typedef struct {
    const ss_game *game;           /* the board */
    const ss_budget *budget;       /* the call's, shared by both families */
    const ss_pn_options *options;  /* every question's (NULL: the defaults) */
    ss_pn_family *families;        /* the two families */
    double root_share, round_share; /* the first question's part of the budget; each round's */
    int64_t node_cap;              /* each family's (0: none) */
    /* Read and written atomically: */
    int32_t settled[SS_MAX_CELLS];           /* a move whose result a family proved */
    int32_t answered[2][SS_MAX_CELLS + 1];   /* a family's question with its answer (proven or disproven) */
    int32_t owner[2][SS_MAX_CELLS + 1];      /* the thread that asks a family's move question (1 + index) */
    int32_t first_done[2];                   /* a family's first question has returned */
    int32_t in_rounds[2], closed[2];         /* threads in a family's rounds; nothing more to ask there */
    pn_help help[2];                         /* with each family's first question */
} families_call;

typedef struct {
    families_call *call; /* the call both threads share */
    int index;     /* of the family in call->families */
    int64_t nodes; /* what the family's thread spent so far */
} family_run;

/* A part of the budget: a deadline (0: none) and the family's node count to stop at (0: none). */
typedef struct {
    double deadline;   /* on ss_monotonic(); 0: none */
    int64_t nodes_end; /* the family's node count to stop at; 0: none */
} span;

static int spent(const family_run *f, span s) {
    const volatile int32_t *cancel = f->call->budget->cancel;
    if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) return 1;
    if (s.deadline > 0 && ss_monotonic() >= s.deadline) return 1;
    return s.nodes_end > 0 && f->nodes >= s.nodes_end;
}

/* `fraction` of what is left of `s` (as Spending.part does in budget.py). */
static span part(const family_run *f, span s, double fraction) {
    span p = {0, 0};
    if (s.deadline > 0) {
        double now = ss_monotonic(), left = s.deadline - now;
        p.deadline = now + (left > 0 ? left : 0) * fraction;
    }
    if (s.nodes_end > 0) {
        int64_t share = (int64_t)((double)(s.nodes_end - f->nodes) * fraction);
        p.nodes_end = f->nodes + (share > 1 ? share : 1);
    }
    return p;
}

static void add_spent(ss_pn_result *total, const ss_pn_result *r) {
    total->nodes += r->nodes;
    total->pairings += r->pairings;
    total->threat_wins += r->threat_wins;
    total->pruned += r->pruned;
    total->seconds += r->seconds;
    if (r->depth > total->depth) total->depth = r->depth;
}

static void ask(family_run *f, ss_pn_question *q, span s, pn_help *help) {
    families_call *call = f->call;
    ss_budget budget = {s.deadline, s.nodes_end > 0 ? s.nodes_end - f->nodes : 0, call->budget->cancel};
    ss_pn_result r;
    pn_prove_helped(call->game, call->families[f->index].table, mask_in(q->attacker), mask_in(q->defender), q->attacker_to_move,
                    &budget, call->options, help, &r);
    f->nodes += r.nodes;
    add_spent(&r, &q->result);
    q->result = r;
    q->asked++;
    if (r.outcome == 1 && q->cell != SS_NO_MOVE) __atomic_store_n(&call->settled[q->cell], 1, __ATOMIC_RELAXED);
}

static int still_open(const families_call *call, int family, int i) {
    const ss_pn_question *q = &call->families[family].questions[i];
    return !__atomic_load_n(&call->answered[family][i], __ATOMIC_ACQUIRE) &&
           !__atomic_load_n(&call->settled[q->cell], __ATOMIC_RELAXED);
}

/* The other family's first question, while its search lasts: its pass, then the attacker's moves inside
   the pass's zone from the last cell down (the search's own order is its proof numbers': it meets the
   helper somewhere between), each to the question's deadline unless the search settled it meanwhile. */
static void help_other(family_run *f) {
    families_call *call = f->call;
    pn_help *h = &call->help[1 - f->index];
    const ss_pn_question *root = &call->families[1 - f->index].questions[0];
    ss_pn_result *spent_helping = &call->families[f->index].helping;
    if (call->families[1 - f->index].n == 0 || !root->attacker_to_move) return;
    if (__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE)) return;
    mask att = mask_in(root->attacker), def = mask_in(root->defender), moves = ALL_CELLS;
    for (int passed = 0; any(moves); passed = 1) {
        int cell = SS_NO_MOVE;
        if (passed) {
            moves &= ~atomic_mask_load(&h->settled_at_root, __ATOMIC_RELAXED);
            if (!any(moves)) return;
            int focus = __atomic_load_n(&h->focus, __ATOMIC_RELAXED);
            mask others = focus == SS_NO_MOVE ? moves : moves & ~bit(focus);
            cell = highest_cell(any(others) ? others : moves);
            moves &= ~bit(cell);
        }
        span s = part(f, (span){h->deadline, call->node_cap}, 1.0);
        if (spent(f, s)) return;
        ss_budget budget = {s.deadline, s.nodes_end > 0 ? s.nodes_end - f->nodes : 0, &h->stop};
        ss_pn_result r;
        pn_prove_helped(call->game, call->families[f->index].table, passed ? att | bit(cell) : att, def, 0, &budget,
                        call->options, NULL, &r);
        f->nodes += r.nodes;
        add_spent(spent_helping, &r);
        if (!passed) { /* the pass disproven: only the moves inside its zone matter (zones.c) */
            if (r.outcome != -1) return;
            moves = mask_in(r.zone) & call->game->full & ~(att | def);
            continue;
        }
        if (!r.outcome) return; /* stopped */
        /* A move disproven with zone Y disproves every move outside Y with the same zone (zones.c,
           pn_prune_moves): those are told too, and not asked. */
        mask settled = bit(cell);
        if (r.outcome == -1) settled |= moves & ~mask_in(r.zone);
        for (mask m = settled; any(m); m = without_lowest(m)) h->zone[lowest_cell(m)] = mask_in(r.zone);
        atomic_mask_or(r.outcome == 1 ? &h->proven : &h->disproven, settled, __ATOMIC_RELEASE);
        if (r.outcome == 1) return; /* the question is proven */
        moves &= ~settled;
    }
}

/* The moves' questions of `family` in rounds (results.py's rounds, for one family), asked on the table
   of f's thread. When the other thread is done with its own family, it joins these rounds and takes the
   questions from the other end of the list: on 7x7k5, the loss family's moves after a passing question
   proven at once were otherwise asked on one thread. A question stays with the thread that first asks
   it (its search goes on in that thread's table from round to round); its share of the round counts the
   questions still free as shared between the threads in the rounds. A thread left with no question of
   its own or free leaves the rounds to the other, and a thread leaving gives its questions up. */
static void move_rounds(family_run *f, int family) {
    families_call *call = f->call;
    const ss_budget *b = call->budget;
    ss_pn_question *questions = call->families[family].questions;
    int n = call->families[family].n, me = f->index + 1;
    span all = {b->deadline, call->node_cap};
    int unlimited = b->deadline <= 0 && b->max_nodes <= 0 && !b->cancel;
    __atomic_fetch_add(&call->in_rounds[family], 1, __ATOMIC_RELAXED);
    while (!spent(f, all) && !__atomic_load_n(&call->closed[family], __ATOMIC_RELAXED)) {
        int mine[SS_MAX_CELLS], k = 0, asked = 0;
        for (int j = 1; j < n && k < SS_MAX_CELLS; j++) {
            int i = family == f->index ? j : n - j; /* the joining thread from the end */
            int owner = __atomic_load_n(&call->owner[family][i], __ATOMIC_RELAXED);
            if ((owner == 0 || owner == me) && still_open(call, family, i)) mine[k++] = i;
        }
        if (!k) break;
        span round = k == 1 ? all : part(f, all, call->round_share);
        for (int j = 0; j < k && !spent(f, round); j++) {
            int i = mine[j], owned = 0, free = 0, none = 0;
            if (!__atomic_compare_exchange_n(&call->owner[family][i], &none, me, 0, __ATOMIC_RELAXED,
                                             __ATOMIC_RELAXED) && none != me)
                continue;
            if (!still_open(call, family, i)) continue;
            for (int l = j; l < k; l++) {
                if (__atomic_load_n(&call->owner[family][mine[l]], __ATOMIC_RELAXED) == me) owned++;
                else free++;
            }
            int workers = __atomic_load_n(&call->in_rounds[family], __ATOMIC_RELAXED);
            ask(f, &questions[i], part(f, round, 1.0 / (owned + (free + workers - 1) / workers)), NULL);
            if (questions[i].result.outcome) __atomic_store_n(&call->answered[family][i], 1, __ATOMIC_RELEASE);
            asked = 1;
        }
        if (unlimited || !asked) break; /* each question ran to its end; or the other thread has them all */
    }
    for (int i = 1; i < n; i++) { /* its questions to the other thread, when that one goes on (a node cap) */
        int32_t owned = me;
        __atomic_compare_exchange_n(&call->owner[family][i], &owned, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    __atomic_fetch_sub(&call->in_rounds[family], 1, __ATOMIC_RELAXED);
}

/* The family's own questions by the rules of ss_pn_prove_families: the position's, then the moves'. */
static void rounds(family_run *f) {
    families_call *call = f->call;
    ss_pn_question *questions = call->families[f->index].questions;
    int n = call->families[f->index].n;
    span all = {call->budget->deadline, call->node_cap};
    pn_help *help = &call->help[f->index];
    if (n > 0 && !spent(f, all)) {
        span first = part(f, all, call->root_share);
        first.deadline = help->deadline;
        ask(f, &questions[0], first, help);
    }
    __atomic_store_n(&help->stop, 1, __ATOMIC_RELEASE);
    if (n == 0 || questions[0].result.outcome == -1) __atomic_store_n(&call->closed[f->index], 1, __ATOMIC_RELEASE);
    __atomic_store_n(&call->first_done[f->index], 1, __ATOMIC_RELEASE);
    move_rounds(f, f->index);
}

/* Waits (in steps of a millisecond: a few at most, when the other family's first question ends at its
   deadline) until the other family's first question has returned: its moves' questions are asked only
   when it is not disproven. */
static void join_other(family_run *f) {
    families_call *call = f->call;
    span all = {call->budget->deadline, call->node_cap};
    struct timespec step = {0, 1000000};
    while (!__atomic_load_n(&call->first_done[1 - f->index], __ATOMIC_ACQUIRE))
        if (spent(f, all) || nanosleep(&step, NULL)) return;
    move_rounds(f, 1 - f->index);
}

static void run_family(void *arg) {
    family_run *f = arg;
    rounds(f);
    help_other(f);
    join_other(f);
}

void pn_prove_families(const ss_game *g, ss_pn_family *families, ss_pn_helper *h, double root_share,
                       double round_share, const ss_budget *budget, const ss_pn_options *options) {
    static const families_call blank;
    families_call call = blank;
    call.game = g;
    call.budget = budget;
    call.options = options;
    call.families = families;
    call.root_share = root_share;
    call.round_share = round_share;
    if (budget->max_nodes > 0) call.node_cap = budget->max_nodes / 2 > 0 ? budget->max_nodes / 2 : 1;
    call.help[0].focus = call.help[1].focus = SS_NO_MOVE;
    if (budget->deadline > 0) { /* the first questions' deadline, which their helpers keep to as well */
        double now = ss_monotonic(), left = budget->deadline - now;
        call.help[0].deadline = call.help[1].deadline = now + (left > 0 ? left : 0) * root_share;
    }
    family_run first = {&call, 0, 0}, second = {&call, 1, 0};
    kept_thread_start(h->kept, run_family, &second);
    run_family(&first);
    kept_thread_wait(h->kept);
}

/* 3. ss_prove_moves on two threads: the caller's and the helper's (1. above), each searching on a
   transposition table of its own, the moves taken one at a time by whichever thread is free. The
   results and the remoteness after the provers ran on one thread while the other core waited (on
   7x7k5 after 12 plies, a tenth of the second and whatever the provers left; on boards the provers do
   not lead, such as 5x5k4, the whole analysis).

   The same two passes as the one thread's loop (prove.c): first each move an even share of what is
   left, a share counted for two threads (2 / the moves not yet started, at most all of it); then each
   move all that is left, in the order given, two at a time. A move is searched by one thread at a time
   (`busy`); its bounds are written only by the thread that holds it. Node caps keep to one thread:
   a count shared by two searches would make their answers depend on the threads' timing, and the
   tests that cap nodes ask for the same answer every time. */
typedef struct {
    const ss_game *g;        /* the board */
    mask mine, theirs;    /* the position, mine to move */
    const int32_t *cells;    /* its moves */
    int n, goal;             /* how many; SS_GOAL_RESULT or SS_GOAL_SCORE */
    const ss_budget *budget; /* the call's */
    int32_t *lower, *upper;  /* each move's bounds, narrowed in place */
    /* Read and written atomically: */
    int32_t busy[SS_MAX_CELLS]; /* a thread is searching the move */
    int32_t done[SS_MAX_CELLS]; /* the passes the move has had (0, 1 or 2) */
} two_call;

typedef struct {
    two_call *call;  /* the call both threads share */
    ss_table *table; /* this thread's transposition table */
    ss_result spent; /* what this thread's searches spent */
} two_worker;

static int move_met(const two_call *c, int i) {
    return goal_met(c->goal, __atomic_load_n(&c->lower[i], __ATOMIC_ACQUIRE),
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
            if (budget_spent(c->budget, 0)) {
                w->spent.stopped = 1;
                __atomic_store_n(&c->busy[i], 0, __ATOMIC_RELEASE);
                return;
            }
            double fraction = 1.0;
            if (pass == 0) {
                int left = still_to_start(c, pass);
                fraction = left > 2 ? 2.0 / left : 1.0;
            }
            ss_budget part = budget_share(c->budget, 0, fraction);
            ss_result child = {.lower = -c->upper[i], .upper = -c->lower[i], .best_move = SS_NO_MOVE};
            prove_position(c->g, w->table, c->theirs, c->mine | bit(c->cells[i]), c->goal, &part, &child);
            __atomic_store_n(&c->lower[i], -child.upper, __ATOMIC_RELEASE);
            __atomic_store_n(&c->upper[i], -child.lower, __ATOMIC_RELEASE);
            result_add_spent(&w->spent, &child);
            w->spent.stopped |= child.stopped;
            __atomic_store_n(&c->done[i], pass + 1, __ATOMIC_RELEASE);
            __atomic_store_n(&c->busy[i], 0, __ATOMIC_RELEASE);
        }
    }
}

void prove_moves_two(const ss_game *g, ss_table *table, ss_table *second, ss_pn_helper *helper, mask mine,
                     mask theirs, const int32_t *cells, int n, int goal, const ss_budget *budget,
                     int32_t *lower, int32_t *upper, ss_result *spent) {
    if (!second || !helper || !budget || budget->max_nodes > 0 || n < 2) {
        prove_moves(g, table, mine, theirs, cells, n, goal, budget, lower, upper, spent);
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
    ss_result none = {.lower = SS_SCORE_MIN, .upper = SS_SCORE_MAX, .best_move = SS_NO_MOVE};
    two_worker first = {&call, table, none}, other = {&call, second, none};
    kept_thread_start(helper->kept, work, &other);
    work(&first);
    kept_thread_wait(helper->kept);
    result_add_spent(&first.spent, &other.spent);
    first.spent.stopped |= other.spent.stopped;
    *spent = first.spent;
}
