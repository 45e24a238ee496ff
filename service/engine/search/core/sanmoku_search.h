/* The search core's interface, the one the service calls (native.py); sanmoku_debug.h adds the tests'
 * entry points, compiled into the same extension.
 *
 * build_core.py hands this file to cffi's cdef with its preprocessor lines dropped (but for the width's
 * blocks, below), so everything outside them must stay in the C subset pycparser reads (no macros, no
 * _Atomic, no inline code).
 *
 * Scores are from the side to move and depend only on when the game ends, counted in marks on the
 * board (a position's marks are its plies from the empty board): a win whose last mark is the T-th
 * scores SS_BIG - T, the loss the negative, a draw 0. The winner hurries (the higher score), the loser
 * delays, as in the solved tables; and a child's score is the negation of its parent's view of it.
 */
#ifndef SANMOKU_SEARCH_H
#define SANMOKU_SEARCH_H

#include <stdint.h>

/* The build's width, in words of 64 cells: 1 (the service's build for boards up to 64 cells), 2 or 8 (the
   wide builds, up to 128 and 512 cells; a power of two), set by build_core.py, which also keeps for cffi
   the branch of each block `#if SS_MASK_WORDS == 1` that its build compiles. */
#ifndef SS_MASK_WORDS
#define SS_MASK_WORDS 1
#endif

/* A set of cells: bit c is cell c (bit c % 64 of word c / 64). Every mask of the interface is of this
   type; inside, the core works on mask.h's `mask` of the same bits. A cell fits an ss_cell. */
#if SS_MASK_WORDS == 1
typedef uint64_t ss_mask;
typedef int8_t ss_cell;
enum {
    SS_MAX_CELLS = 64,
    SS_BIG = 100 /* a win with the T-th mark scores SS_BIG - T: 36 at least, as T <= 64 */
};
#else
typedef struct {
    uint64_t w[SS_MASK_WORDS]; /* cells 64 i .. 64 i + 63 in word i */
} ss_mask;
typedef int16_t ss_cell;
enum {
    SS_MAX_CELLS = 64 * SS_MASK_WORDS,
    SS_BIG = 1000 /* a win with the T-th mark scores SS_BIG - T: above 0, as T <= SS_MAX_CELLS */
};
#endif

enum {
    SS_SCORE_MIN = -SS_BIG,
    SS_SCORE_MAX = SS_BIG,
    SS_HEURISTIC_UNIT = 1048576, /* estimates: a proven score s reads s * unit; evaluations stay below */
    SS_NO_MOVE = -1,
    SS_NO_CELL = -1 /* a cell that waits for none */
};

/* What ss_prove stops at: the result (the signs of both bounds agree, or both are 0), or the score. */
enum { SS_GOAL_RESULT = 0, SS_GOAL_SCORE = 1 };

/* The rules of one board, immutable once made: shareable between threads. */
typedef struct ss_game ss_game;
/* A transposition table: owned by one caller, never used by two threads at once. */
typedef struct ss_table ss_table;

typedef struct {
    double deadline;          /* ss_monotonic() seconds; 0: none */
    int64_t max_nodes;        /* 0: none */
    volatile int32_t *cancel; /* nonzero stops the search; NULL: none; set it from any thread */
} ss_budget;

typedef struct {
    int32_t lower, upper;  /* proven bounds on the score; equal when it is exact */
    int32_t best_move;     /* a cell achieving `lower` when known, else SS_NO_MOVE */
    int32_t depth;         /* plies below the position the search reached (estimates: last full depth) */
    int32_t estimate;      /* ss_estimate only: the heuristic score of the deepest full iteration */
    int32_t stopped;       /* 1 when the budget ran out (or cancel was set) before the goal */
    int64_t nodes;         /* positions searched */
    double seconds;        /* the call's time on ss_monotonic() */
    int64_t cutoffs; /* nodes whose remaining moves a move at least beta made needless */
    int64_t tt_hits; /* transposition-table probes that found the position */
} ss_result;

/* A board as data, all the core knows of a game: its cells, its lines, which cell each cell waits for
   (gravity: a cell can be played once the cell it waits for is taken), and the rule. Nothing about rows
   and columns: a gravity board whose waits and lines make a grid of columns is searched on column
   bitboards, found from this data (columns.c). */
typedef struct {
    int32_t cells;        /* cells 0 .. cells - 1, at most SS_MAX_CELLS */
    int32_t n_lines;      /* how many lines */
    const ss_mask *lines; /* the winning sets of cells (misère: the losing ones), each non-empty */
    const int32_t *waits; /* per cell, the cell it waits for, or SS_NO_CELL; NULL: no cell waits */
    int32_t misere;       /* 1: completing a line loses */
    /* Per line, the cells beside its two ends (none off the board): "exactly k", where a line whose owner
       also holds one of them is part of a longer run and does not count. NULL: k or more, every line. */
    const ss_mask *flanks;
} ss_board;

/* The board's rules, made once; NULL when the core cannot play the description (no cells or more than
   SS_MAX_CELLS, an empty line, a cell off the board, waits in a ring: board.c) or out of memory. */
ss_game *ss_game_new(const ss_board *board);
void ss_game_free(ss_game *game);

/* 2**log2_buckets buckets of 64 bytes, 3 positions each; NULL when out of memory. It remembers the
   game it was last used with and clears itself when given another. */
ss_table *ss_table_new(int log2_buckets);
void ss_table_free(ss_table *table);
void ss_table_clear(ss_table *table);

double ss_monotonic(void); /* CLOCK_MONOTONIC in seconds, Python's time.monotonic() on Linux */

/* The immediate threats of `player`: empty cells where it would complete a line. */
ss_mask ss_threats(const ss_game *game, ss_mask player, ss_mask other);

/* A threat sequence of `attacker`, to move: 1 when it forces a line by continuous threats (each move
   threatens to complete a line at once) found within `budget` nodes (0: no limit), with *cells the cells the
   sequence depends on; the defender, were it to move, must play one of them or threaten to win. A
   sequence found is a proof: every reply in it is forced. */
int ss_threat_sequence(const ss_game *game, ss_mask attacker, ss_mask defender, int64_t budget,
                       ss_mask *cells);

/* A tree of threes by which `attacker`, to move, forces a line (threats.c): 1 when one of up to `depth`
   threes is found within `budget` nodes (0: no limit) and before `deadline` (on ss_monotonic(); 0:
   none). The root does not look for a win by fours alone (the caller looks for those first): its moves
   are the cells of its candidate threes, every empty cell when `quiet` (quiet threes too, threats.c), but
   never a cell of `banned` (renju's forbidden points for black: the caller asks of each move of the tree
   in turn, since a forbidden point now may be allowed deeper). Then *first is the tree's first move and *zone the cells its
   proof depends on, with the guard cells (zones.c): a defender's mark outside it changes nothing the
   proof needs. *nodes: what it searched, found or not. */
int ss_threes_tree(const ss_game *game, ss_mask attacker, ss_mask defender, int depth, int quiet, ss_mask banned,
                   int64_t budget, double deadline, int32_t *first, ss_mask *zone, int64_t *nodes);

/* The defender to move after the attacker's threat (threats.c, tss_answers): 0 when it escapes (it
   completes a line, threatens twice, or nothing is threatened); 1 after a four and 2 after a three, with
   *answers every reply that does not lose at once and *next the attacker's move after any other reply
   (its line's cell, or where it makes two threats at once, never on `banned`: none such, 0); 3 when two
   threats stand and it loses. */
int ss_threat_answers(const ss_game *game, ss_mask attacker, ss_mask defender, ss_mask banned, ss_mask *answers,
                      int32_t *next);

/* Narrow [result->lower, result->upper] (set them before the call: SS_SCORE_MIN, SS_SCORE_MAX when
   nothing is known) by null-window alpha-beta searches until `goal` is met or the budget runs out.
   `mine` are the marks of the side to move; the position must be legal and not over. */
void ss_prove(const ss_game *game, ss_table *table, ss_mask mine, ss_mask theirs, int goal,
              const ss_budget *budget, ss_result *result);

/* The moves cells[0..n) of the position (`mine` to move, legal, not over, none of the moves ending the
   game) narrowed toward `goal` in one call: lower[i], upper[i] are the bounds on the score of the side
   that plays cells[i], known before the call and narrowed by it; a move whose bounds already meet the
   goal is left as it is. While the budget lasts, each move gets an even share of what is left (1 / the
   moves still to go, of the time and of the nodes), then each in turn all that is left. `spent` gets
   the nodes and seconds of all the searches, the deepest ply they reached, and whether one stopped. */
void ss_prove_moves(const ss_game *game, ss_table *table, ss_mask mine, ss_mask theirs, const int32_t *cells,
                    int n, int goal, const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent);

/* The exact score of each move of cells[0..n) (the position as for ss_prove_moves, but moves that end
   the game allowed) for the side that plays it, with no budget: a move that completes a line or fills
   the board is scored at once, the others searched to the end. For analyses with no limit: near the
   end of a game the searches take a few microseconds, and one call here replaces the Python around
   each. `spent` as for ss_prove_moves. */
void ss_score_moves(const ss_game *game, ss_table *table, ss_mask mine, ss_mask theirs, const int32_t *cells,
                    int n, int32_t *scores, ss_result *spent);

/* ss_score_moves over every legal move, in the order of their cells (written to cells[], room for
   SS_MAX_CELLS): their number, 0 when the game is over. */
int ss_score_all(const ss_game *game, ss_table *table, ss_mask mine, ss_mask theirs, int32_t *cells,
                 int32_t *scores, ss_result *spent);

/* Iterative deepening to at most max_depth plies with a heuristic score at the horizon: `estimate`,
   `depth` and `best_move` of the deepest iteration that finished. Never writes a bound to the table. */
void ss_estimate(const ss_game *game, ss_table *table, ss_mask mine, ss_mask theirs, int max_depth,
                 const ss_budget *budget, ss_result *result);

/* The provers beside alpha-beta (normal rule, no gravity; flat or torus): they answer whether a side
   can force a line, never when the game ends. The proof-number search settles positions by pairings
   and threat sequences too; those searches on their own are sanmoku_debug.h's, for the tests. */

/* The proof-number search's table: 2**log2_slots entries of 40 bytes; one caller at a time; it clears
   itself when given another game. */
typedef struct ss_pn_table ss_pn_table;
ss_pn_table *ss_pn_table_new(int log2_slots);
void ss_pn_table_free(ss_pn_table *table);
void ss_pn_table_clear(ss_pn_table *table);
/* The table's memory (*bytes long) and the fingerprint of the game its entries belong to, to save it to
   a file and load it back (a long proof resumed): after loading, give it that fingerprint again. */
void *ss_pn_table_memory(ss_pn_table *table, uint64_t *bytes);
uint64_t ss_pn_table_game(const ss_pn_table *table);
void ss_pn_table_set_game(ss_pn_table *table, uint64_t fingerprint);
/* The proof and disproof numbers the table holds for a position (a long proof chooses the defender's
   reply by them): 1 with *pn and *dn set when it holds an entry, else 0. */
int ss_pn_table_numbers(const ss_pn_table *table, ss_mask attacker, ss_mask defender, int attacker_to_move,
                        uint32_t *pn, uint32_t *dn);

typedef struct {
    int32_t outcome;     /* 1: the attacker can force a line; -1: it cannot; 0: not settled (budget) */
    int32_t stopped;     /* the budget ran out (or cancel was set) */
    int32_t depth;       /* plies below the position the search reached */
    ss_mask zone;        /* outcome -1: the cells the disproof depends on; 1: the proof's (0: not known) */
    int64_t nodes;       /* positions searched */
    int64_t pairings;    /* positions the search closed by a pairing */
    int64_t threat_wins; /* positions it closed by a threat sequence */
    int64_t pruned;      /* the defender's replies settled by a proof's zone (zones.c) */
    double seconds;      /* the call's time */
    int32_t closed_by;   /* SS_BY_PAIRING or SS_BY_THREATS: the position itself was (now or before) */
    int32_t focus;       /* the position's move (or reply) the search went into last: its most promising
                            when stopped (SS_NO_MOVE: none, or the attacker's pass) */
} ss_pn_result;

enum { SS_BY_SEARCH = 0, SS_BY_PAIRING = 1, SS_BY_THREATS = 2 };

/* How the proof-number search searches, per call, so that two threads may search with different settings
   at once. NULL, or every field 0: the service's settings; the others are for the tests and the
   benchmarks' comparisons. A table keeps what was proven under the options it was searched with: a
   search without the guard needs a table of its own. */
typedef struct {
    int32_t unguarded;   /* 1: proof zones without the cells that guard against the defender's own lines,
                            which is unsound (zones.c): for the test that shows it. 0: guarded */
    int32_t probe_plies; /* the defender's replies are probed at its nodes fewer than this many plies
                            below a question's root (dfpn.c, pn_probe_replies); 0: SS_PROBE_PLIES */
    int64_t probe_nodes; /* the first allowance of nodes of each probed reply; 0: SS_PROBE_NODES;
                            negative: none probed, df-pn alone */
    int32_t attacker_pass; /* SS_PASS_BESIDE (0): the attacker's moves are searched beside its pass, and
                              those outside the pass's zone dropped once it is disproven; SS_PASS_FIRST:
                              only once the pass is disproven, those inside its zone (dfpn.c) */
} ss_pn_options;

enum { SS_PASS_BESIDE = 0, SS_PASS_FIRST = 1 };

enum { SS_PROBE_PLIES = 2, SS_PROBE_NODES = 1000 };

/* Whether the side holding `attacker` can force a line against the side holding `defender`, the
   attacker to move when attacker_to_move; the position must be legal, no line completed. */
void ss_pn_prove(const ss_game *game, ss_pn_table *table, ss_mask attacker, ss_mask defender,
                 int attacker_to_move, const ss_budget *budget, const ss_pn_options *options,
                 ss_pn_result *result);

/* The provers of one analysis on two threads (threads.c). A family is a list of questions on one
   proof-number table: [0] about the position itself, then one about each move (`cell`). The caller's
   thread runs families[0], the helper's thread families[1], each on its own table, both until the
   budget's deadline or its cancel flag; with a node cap, each family gets half of it. In a family, the
   position's question gets root_share of the budget; when it is disproven, the moves' questions are
   not asked (the same answer holds for each); else they go in rounds, each round_share of what is left
   (all of it when one question is left), spread evenly over the questions still open. A move's question
   proven (outcome 1: the move wins, or loses) settles the move: the other family skips its question.
   A thread done with its family while the other's first question is still searched helps with that:
   it asks the attacker's moves there as questions of their own, which the search takes in (dfpn.h);
   then it joins the other family's rounds, taking their questions from the end of the list. */
typedef struct {
    ss_mask attacker, defender; /* the question's position: can the attacker force a line? */
    int32_t attacker_to_move;   /* 1: the attacker is to move */
    int32_t cell;        /* the move the question is about; SS_NO_MOVE: the position's own */
    int32_t asked;       /* how many times it was asked (0: never, its result all zero) */
    ss_pn_result result; /* the last answer; nodes, pairings, threat_wins, pruned and seconds summed */
} ss_pn_question;

typedef struct {
    ss_pn_table *table;         /* the family's own */
    ss_pn_question *questions;  /* [0] the position's, then the moves' */
    int32_t n;                  /* how many */
    ss_pn_result helping; /* nodes, seconds, depth: the family's thread helping the other's first question */
} ss_pn_family;

/* A searching thread's second thread, waiting between calls for the provers' second family or the
   alpha-beta searches of half the moves: one per searching thread, kept between calls (its
   thread-local caches stay warm and are made once). NULL when no thread can be made. */
typedef struct ss_pn_helper ss_pn_helper;
ss_pn_helper *ss_pn_helper_new(void);
void ss_pn_helper_free(ss_pn_helper *helper);

/* One caller at a time per helper; the call returns when both families have stopped. Every question is
   searched with `options` (NULL: the defaults), the helper's as the caller's. */
void ss_pn_prove_families(const ss_game *game, ss_pn_family *families, ss_pn_helper *helper,
                          double root_share, double round_share, const ss_budget *budget,
                          const ss_pn_options *options);

/* ss_prove_moves on two threads, the caller's on `table` and the helper's on `second` (threads.c):
   each move searched by one of them at a time, the budget shared out as there, with each move's share
   counted for two. On one thread, as ss_prove_moves, when `second` or `helper` is NULL, when there is
   no budget or it caps the nodes (answers that must not depend on the threads' timing), or for fewer
   than two moves. One caller at a time per helper and per table. */
void ss_prove_moves_two(const ss_game *game, ss_table *table, ss_table *second, ss_pn_helper *helper,
                        ss_mask mine, ss_mask theirs, const int32_t *cells, int n, int goal,
                        const ss_budget *budget, int32_t *lower, int32_t *upper, ss_result *spent);

#endif
