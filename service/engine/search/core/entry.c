/* The interface's entry points that search or take sets of cells (sanmoku_search.h, sanmoku_debug.h):
   each converts the interface's ss_mask to the core's mask (mask.h) and back, and runs the search it
   names. At 64 cells the two are one word and the conversions are nothing. Where a search needs more
   stack than a thread has by default (SEARCH_STACK, mask.h: the eight-word build), it runs on a thread
   with that stack kept for the calling thread, and the entry point waits for it; else on the caller's
   thread. */
#include <pthread.h>

#include "alphabeta.h"
#include "dfpn.h"
#include "kept_thread.h"
#include "pairing.h"
#include "sanmoku_debug.h"
#include "threats.h"

/* The deep thread of one calling thread (kept_thread.h): made at its first deep call, kept for the next
   ones (its stack and the pairing search's caches stay made: a thread made per call zeroed its fresh
   stack pages and a cold 21 MB cache each time, a third of a 15x15 batch's time), ended when the
   calling thread ends. After each search it folds the pairing counts a caller reads next
   (ss_pairing_counts). */
static _Thread_local kept_thread *worker;
static pthread_key_t worker_key;
static pthread_once_t worker_key_once = PTHREAD_ONCE_INIT;

static void worker_end(void *p) { kept_thread_free(p); }

static void worker_key_make(void) { pthread_key_create(&worker_key, worker_end); }

/* The calling thread's deep thread, made now if it has none in this process; NULL when none could be. */
static kept_thread *worker_of_this_thread(void) {
    if (worker && kept_thread_here(worker)) return worker;
    worker = NULL; /* a forked child's copy names a thread of its parent's */
    pthread_once(&worker_key_once, worker_key_make);
    kept_thread *w = kept_thread_new(SEARCH_STACK, pairing_counts_fold);
    if (w) pthread_setspecific(worker_key, w);
    return worker = w;
}

/* run(args) on the calling thread's deep thread, with SEARCH_STACK bytes of stack; on the caller's when
   there is no such need, or no thread could be made. */
static void deep(void (*run)(void *), void *args) {
    kept_thread *w = SEARCH_STACK ? worker_of_this_thread() : NULL;
    if (!w) {
        run(args);
        return;
    }
    kept_thread_start(w, run, args);
    kept_thread_wait(w);
}

typedef struct {
    const ss_game *g;
    ss_table *t, *second;
    ss_pn_helper *helper;
    mask mine, theirs;
    const int32_t *cells;
    int n, goal, depth, found;
    const ss_budget *budget;
    int32_t *lower, *upper, *scores, *cells_out;
    ss_result *result;
} ab_args;

static void prove_run(void *p) {
    ab_args *a = p;
    prove_position(a->g, a->t, a->mine, a->theirs, a->goal, a->budget, a->result);
}

void ss_prove(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, int goal, const ss_budget *budget,
              ss_result *result) {
    ab_args a = {.g = g, .t = t, .mine = mask_in(mine), .theirs = mask_in(theirs), .goal = goal,
                 .budget = budget, .result = result};
    deep(prove_run, &a);
}

static void prove_moves_run(void *p) {
    ab_args *a = p;
    prove_moves(a->g, a->t, a->mine, a->theirs, a->cells, a->n, a->goal, a->budget, a->lower, a->upper,
                a->result);
}

void ss_prove_moves(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, const int32_t *cells, int n,
                    int goal, const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent) {
    ab_args a = {.g = g, .t = t, .mine = mask_in(mine), .theirs = mask_in(theirs), .cells = cells, .n = n,
                 .goal = goal, .budget = budget, .lower = lower, .upper = upper, .result = spent};
    deep(prove_moves_run, &a);
}

static void prove_moves_two_run(void *p) {
    ab_args *a = p;
    prove_moves_two(a->g, a->t, a->second, a->helper, a->mine, a->theirs, a->cells, a->n, a->goal, a->budget,
                    a->lower, a->upper, a->result);
}

void ss_prove_moves_two(const ss_game *g, ss_table *table, ss_table *second, ss_pn_helper *helper,
                        ss_mask mine, ss_mask theirs, const int32_t *cells, int n, int goal,
                        const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent) {
    ab_args a = {.g = g, .t = table, .second = second, .helper = helper, .mine = mask_in(mine),
                 .theirs = mask_in(theirs), .cells = cells, .n = n, .goal = goal, .budget = budget,
                 .lower = lower, .upper = upper, .result = spent};
    deep(prove_moves_two_run, &a);
}

static void score_moves_run(void *p) {
    ab_args *a = p;
    score_moves(a->g, a->t, a->mine, a->theirs, a->cells, a->n, a->scores, a->result);
}

void ss_score_moves(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, const int32_t *cells, int n,
                    int32_t *scores, ss_result *spent) {
    ab_args a = {.g = g, .t = t, .mine = mask_in(mine), .theirs = mask_in(theirs), .cells = cells, .n = n,
                 .scores = scores, .result = spent};
    deep(score_moves_run, &a);
}

static void score_all_run(void *p) {
    ab_args *a = p;
    a->found = score_all(a->g, a->t, a->mine, a->theirs, a->cells_out, a->scores, a->result);
}

int ss_score_all(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, int32_t *cells, int32_t *scores,
                 ss_result *spent) {
    ab_args a = {.g = g, .t = t, .mine = mask_in(mine), .theirs = mask_in(theirs), .cells_out = cells,
                 .scores = scores, .result = spent};
    deep(score_all_run, &a);
    return a.found;
}

static void estimate_run(void *p) {
    ab_args *a = p;
    estimate_position(a->g, a->t, a->mine, a->theirs, a->depth, a->budget, a->result);
}

void ss_estimate(const ss_game *g, ss_table *t, ss_mask mine, ss_mask theirs, int max_depth,
                 const ss_budget *budget, ss_result *result) {
    ab_args a = {.g = g, .t = t, .mine = mask_in(mine), .theirs = mask_in(theirs), .depth = max_depth,
                 .budget = budget, .result = result};
    deep(estimate_run, &a);
}

typedef struct {
    const ss_game *g;
    ss_pn_table *t;
    mask attacker, defender, found_cells;
    int to_move, depth, found;
    int64_t budget_nodes;
    const ss_budget *budget;
    const ss_pn_options *options;
    ss_pn_result *result;
    ss_pn_family *families;
    ss_pn_helper *helper;
    double root_share, round_share;
} pn_args;

static void pn_prove_run(void *p) {
    pn_args *a = p;
    pn_prove_helped(a->g, a->t, a->attacker, a->defender, a->to_move, a->budget, a->options, NULL, a->result);
}

void ss_pn_prove(const ss_game *g, ss_pn_table *t, ss_mask attacker, ss_mask defender, int attacker_to_move,
                 const ss_budget *budget, const ss_pn_options *options, ss_pn_result *result) {
    pn_args a = {.g = g, .t = t, .attacker = mask_in(attacker), .defender = mask_in(defender),
                 .to_move = attacker_to_move, .budget = budget, .options = options, .result = result};
    deep(pn_prove_run, &a);
}

static void families_run(void *p) {
    pn_args *a = p;
    pn_prove_families(a->g, a->families, a->helper, a->root_share, a->round_share, a->budget, a->options);
}

void ss_pn_prove_families(const ss_game *g, ss_pn_family *families, ss_pn_helper *helper, double root_share,
                          double round_share, const ss_budget *budget, const ss_pn_options *options) {
    pn_args a = {.g = g, .families = families, .helper = helper, .root_share = root_share,
                 .round_share = round_share, .budget = budget, .options = options};
    deep(families_run, &a);
}

int ss_pn_table_numbers(const ss_pn_table *t, ss_mask attacker, ss_mask defender, int attacker_to_move,
                        uint32_t *pn, uint32_t *dn) {
    return pt_numbers(t, mask_in(attacker), mask_in(defender), attacker_to_move, pn, dn);
}

static void sequence_run(void *p) {
    pn_args *a = p;
    int64_t nodes;
    a->found = tss_find(a->g, a->attacker, a->defender, a->budget_nodes, &a->found_cells, &nodes);
}

int ss_threat_sequence(const ss_game *g, ss_mask attacker, ss_mask defender, int64_t budget, ss_mask *cells) {
    pn_args a = {.g = g, .attacker = mask_in(attacker), .defender = mask_in(defender), .budget_nodes = budget,
                 .found_cells = NO_CELLS};
    deep(sequence_run, &a);
    *cells = mask_out(a.found_cells);
    return a.found;
}

static void tree_run(void *p) {
    pn_args *a = p;
    int64_t nodes;
    int guard = !(a->options && a->options->unguarded);
    a->found = tss_threes_find(a->g, a->attacker, a->defender, a->depth, 0, 0, NO_CELLS, a->budget_nodes, 0.0, guard,
                               &a->found_cells, &nodes, NULL);
}

int ss_threat_tree(const ss_game *g, ss_mask attacker, ss_mask defender, int depth, int64_t budget,
                   const ss_pn_options *options, ss_mask *zone) {
    pn_args a = {.g = g, .attacker = mask_in(attacker), .defender = mask_in(defender), .depth = depth,
                 .budget_nodes = budget, .options = options, .found_cells = NO_CELLS};
    deep(tree_run, &a);
    *zone = mask_out(a.found_cells);
    return a.found;
}

typedef struct {
    const ss_game *g;
    mask attacker, defender, zone, banned;
    int depth, quiet, found, first;
    int64_t budget_nodes, nodes;
    double deadline;
} tree_args;

static void root_tree_run(void *p) {
    tree_args *a = p;
    a->found = tss_threes_find(a->g, a->attacker, a->defender, a->depth, 1, a->quiet, a->banned, a->budget_nodes, a->deadline, 1, &a->zone,
                               &a->nodes, &a->first);
}

int ss_threes_tree(const ss_game *g, ss_mask attacker, ss_mask defender, int depth, int quiet, ss_mask banned,
                   int64_t budget, double deadline, int32_t *first, ss_mask *zone, int64_t *nodes) {
    tree_args a = {.g = g, .attacker = mask_in(attacker), .defender = mask_in(defender), .zone = NO_CELLS,
                   .banned = mask_in(banned),
                   .depth = depth, .quiet = quiet, .first = -1, .budget_nodes = budget, .deadline = deadline};
    deep(root_tree_run, &a);
    *first = a.first;
    *zone = mask_out(a.zone);
    *nodes = a.nodes;
    return a.found;
}

int ss_threat_answers(const ss_game *g, ss_mask attacker, ss_mask defender, ss_mask banned, ss_mask *answers,
                      int32_t *next) {
    mask found = NO_CELLS, cut;
    int cell = -1;
    int kind = tss_answers(g, mask_in(attacker), mask_in(defender), mask_in(banned), &found, &cut, &cell);
    *answers = mask_out(found);
    *next = cell;
    return kind;
}
