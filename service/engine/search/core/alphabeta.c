/* Alpha-beta, written once for both board forms: the flat bitboard (a position as the side to move's
   marks and the other side's, bit c = cell c) and the column bitboards of gravity boards (columns.h: a
   position as the side to move's stones and all of them, in column bits). A small inline layer gives
   each form's rules (what settles a node, the moves and their order, a move's threats, a position's key
   in the table); one move loop, search(), is compiled three times with the form and the mode constant:
   the exact search by cells (ab_cells) and by columns (ab_columns), and the depth-limited search of the
   estimates by cells (ab_horizon).

   Each node: what settles it before any search (a win now, a forced block, a double threat, a full
   board: the score, or the moves worth searching and the range the score can take); the window narrowed
   to that range and by the table; the table's move alone first (it often cuts), then the others in
   order; the bounds it proved stored on the way up. */
#include "alphabeta.h"
#include "columns.h"

/* What settles a node, by cells (normal rule, misère, gravity) */

typedef struct {
    mask moves; /* the moves worth searching */
    int lo, hi;     /* the score lies in [lo, hi]: between the earliest loss and the earliest win left */
} node;

/* Normal rule: win now; else block the one threat of the opponent (two: lost); under gravity never
   play beneath a cell where the opponent would complete a line. */
static inline int settle_normal(const ss_game *g, int n, mask moves, mask my_thr, mask their_thr,
                                node *out, int *score) {
    if (any(my_thr & moves)) return *score = win_at(n + 1), 1;
    mask forced = their_thr & moves;
    if (more_than_one(forced)) return *score = loss_at(n + 2), 1;
    if (n + 1 == g->cells) return *score = 0, 1;
    if (any(forced)) moves = forced;
    if (g->gravity) moves &= ~waited_for(g, their_thr);
    if (!any(moves)) return *score = loss_at(n + 2), 1;
    out->moves = moves;
    /* my next move cannot win, and after it the opponent has no line to complete at once */
    out->hi = n + 3 <= g->cells ? win_at(n + 3) : 0;
    out->lo = n + 4 <= g->cells ? loss_at(n + 4) : 0;
    return 0;
}

/* Whether one of my safe `moves` leaves the opponent only moves that complete its own lines. */
static inline int opponent_stuck(const ss_game *g, mask empty_playable, mask moves, mask their_thr) {
    if (!g->gravity) {
        mask their_safe = empty_playable & ~their_thr;
        return !any(their_safe) || (!more_than_one(their_safe) && any(their_safe & moves));
    }
    for (; any(moves); moves = without_lowest(moves)) {
        int cell = lowest_cell(moves);
        mask next = (empty_playable & ~bit(cell)) | g->freed_by[cell];
        if (!any(next & ~their_thr)) return 1;
    }
    return 0;
}

/* Misère: a move that completes my line loses, so only the others are searched; if none is left I
   lose now; if one leaves the opponent nothing else, I win next. */
static inline int settle_misere(const ss_game *g, int n, mask moves, mask my_thr, mask their_thr,
                                node *out, int *score) {
    mask safe = moves & ~my_thr;
    if (!any(safe)) return *score = loss_at(n + 1), 1;
    if (n + 1 == g->cells) return *score = 0, 1;
    if (opponent_stuck(g, moves, safe, their_thr)) return *score = win_at(n + 2), 1;
    out->moves = safe;
    /* the opponent has a safe reply to each of my safe moves, and I am not forced before my next */
    out->hi = n + 4 <= g->cells ? win_at(n + 4) : 0;
    out->lo = n + 3 <= g->cells ? loss_at(n + 3) : 0;
    return 0;
}

/* Normal rule, no gravity: what the moves that make two threats at once (double threats) decide, with
   no threat of the opponent's left unanswered (settle_normal came first: I cannot win now, and I block
   the opponent's one threat if it has one).
   - Mine: one of my moves makes two, and I win at n + 3 (the opponent blocks one); none does, and I
     cannot win before n + 5.
   - The opponent's: none now, and none after my move (a mark of mine only takes lines away), so it
     cannot win before n + 6. With one at d and no threat to answer, a move of mine that neither makes a
     threat of my own nor takes d (or one of d's two new threats' cells, when d makes only two) loses at
     n + 4, the earliest loss there is: the opponent plays d, I block one threat, it completes the
     other. Every other move scores at least that, so leaving those out keeps the score exact. */
static inline int settle_doubles(const ss_game *g, int n, mask mine, mask theirs, mask their_thr,
                                 node *out, int *score) {
    mask my_doubles, their_doubles;
    mask makers = pl_threat_makers(g, mine, theirs, &my_doubles);
    if (any(my_doubles & out->moves)) return *score = win_at(n + 3), 1;
    out->hi = n + 5 <= g->cells ? win_at(n + 5) : 0;
    pl_threat_makers(g, theirs, mine, &their_doubles);
    if (!any(their_doubles)) {
        out->lo = n + 6 <= g->cells ? loss_at(n + 6) : 0;
        return 0;
    }
    if (any(their_thr & out->moves)) return 0; /* my one move is the block */
    mask answers = out->moves;
    for (mask d = their_doubles; any(d); d = without_lowest(d)) {
        int cell = lowest_cell(d);
        mask partners = pl_partners(g, theirs, mine, cell);
        answers &= bit(cell) | (more_than_one(without_lowest(partners)) ? NO_CELLS : partners);
    }
    out->moves &= answers | makers;
    if (!any(out->moves)) return *score = loss_at(n + 4), 1;
    return 0;
}

/* Whether some line holds none of `other`'s marks: only then can its owner still complete one. */
static inline int has_open_line(const ss_game *g, mask other) {
    for (int i = 0; i < g->n_lines; i++)
        if (!any(g->lines[i] & other)) return 1;
    return 0;
}

/* 1 with *score when the position is settled, else 0 with the moves to search and the score's range.
   A side with no open line can complete none: under the normal rule it cannot win, under misère it
   cannot lose; when neither side has one the game is a draw. */
static inline int settle(const ss_game *g, mask mine, mask theirs, mask my_thr, mask their_thr,
                         node *out, int *score) {
    mask occupied = mine | theirs;
    int n = count(occupied);
    mask moves = playable(g, occupied);
    if (g->misere ? settle_misere(g, n, moves, my_thr, their_thr, out, score)
                  : settle_normal(g, n, moves, my_thr, their_thr, out, score))
        return 1;
    /* Double threats assume a mark never spoils a line of its own, false under "exactly k" */
    if (!g->misere && !g->gravity && !g->flanks && settle_doubles(g, n, mine, theirs, their_thr, out, score))
        return 1;
    int my_lines = has_open_line(g, theirs), their_lines = has_open_line(g, mine);
    if (!my_lines && !their_lines) return *score = 0, 1;
    int *mine_decides = g->misere ? &out->lo : &out->hi, *theirs_decides = g->misere ? &out->hi : &out->lo;
    if (!my_lines) *mine_decides = 0;
    if (!their_lines) *theirs_decides = 0;
    return 0;
}

/* Move ordering */

typedef struct {
    int n;                         /* how many moves */
    ss_cell cell[SS_MAX_CELLS];    /* a cell (by cells) or a column bit (by columns) */
    mask threats[SS_MAX_CELLS]; /* the mover's threats after the move: the child needs them */
} move_list;

/* By cells: Each move is scored by the lines through its cell that only one side holds marks on, weighted by
   how many (3**marks for mine, to build; 2 * 3**(marks - 1) for the opponent's, to block), and by the
   threats it makes (as Pons orders Connect Four by the winning cells a move creates). Under misère
   every one of those is a liability (a line of mine I must not fill, a line of theirs that would trap
   them and that I would spoil), so the order turns: cells on lines both sides already hold come first.
   Measured: the weighting cut the nodes of the empty 5x5k4 board by a third, the misère order those of
   4x5k4-misère positions after 3 plies by 5.5 times. */
enum { THREAT_WEIGHT = 16 };

static const int BUILD[9] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561};
static const int BLOCK[9] = {0, 2, 6, 18, 54, 162, 486, 1458, 4374};

/* The move's score, and in *threats the mover's threats after it (as threats_after, in the same pass). */
static int score_move(const ss_game *g, int cell, mask mine, mask theirs, mask *threats) {
    mask now = mine | bit(cell), before = *threats & ~bit(cell), after = before;
    int value = 0;
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        mask line = g->through[i];
        if (any(line & theirs)) {
            if (!any(line & mine)) value += BLOCK[count(line & theirs)];
            continue;
        }
        value += BUILD[count(line & mine)];
        mask missing = line & ~now;
        if (any(missing) && !more_than_one(missing)) after |= missing;
    }
    if (g->flanks) after = threats_of(g, now, theirs); /* a mark beside a line can take a threat away */
    *threats = after;
    int made = count(after & ~before);
    return g->misere ? -value - THREAT_WEIGHT * made : THREAT_WEIGHT * made + value;
}

/* The moves of `moves` in the order to search them (by cells). */
static void order_cells(const ss_game *g, mask moves, mask mine, mask theirs, mask my_threats,
                        move_list *out) {
    int score[SS_MAX_CELLS];
    int n = 0;
    for (; any(moves); moves = without_lowest(moves)) {
        int cell = lowest_cell(moves);
        mask after = my_threats;
        int s = score_move(g, cell, mine, theirs, &after);
        int i = n++;
        for (; i > 0 && score[i - 1] < s; i--) { /* insertion: stable, so ties stay in cell order */
            score[i] = score[i - 1];
            out->cell[i] = out->cell[i - 1];
            out->threats[i] = out->threats[i - 1];
        }
        score[i] = s;
        out->cell[i] = (ss_cell)cell;
        out->threats[i] = after;
    }
    out->n = n;
}

/* By columns: Pons's order, by the threats each move leaves its player, the centre's first among equals. */
static void order_columns(const columns *c, mask moves, mask mine, mask occupied, move_list *out) {
    int score[COLUMN_MAX];
    int n = 0;
    for (int col = 0; any(moves); col++) {
        mask move = moves & c->by_centre[col];
        if (!any(move)) continue;
        moves &= ~move;
        mask threats = column_wins(c, mine | move, occupied | move);
        int s = count(threats), i = n++;
        for (; i > 0 && score[i - 1] < s; i--) {
            score[i] = score[i - 1];
            out->cell[i] = out->cell[i - 1];
            out->threats[i] = out->threats[i - 1];
        }
        score[i] = s;
        out->cell[i] = (ss_cell)lowest_cell(move);
        out->threats[i] = threats;
    }
    out->n = n;
}

/* What settles a node, by columns (normal rule: columns.c). A node knows both sides' threats (the empty
   cells where each would complete a line), so it wins at once on a playable threat of its own, blocks
   the opponent's (two: lost), never plays under one (the opponent would complete it on top), and wins
   in three when a safe move lies under two threats of its own stacked (BitBully's double threat: the
   opponent must block the first and so gives the second). */
static inline int settle_columns(const ss_game *g, mask occupied, mask my_thr, mask their_thr, node *out,
                                 int *score) {
    const columns *c = &g->col;
    int n = count(occupied);
    mask moves = mask_plus(occupied, c->bottom) & c->board;
    if (any(my_thr & moves)) return *score = win_at(n + 1), 1;
    mask forced = their_thr & moves;
    if (any(forced)) {
        if (more_than_one(forced)) return *score = loss_at(n + 2), 1;
        moves = forced;
    }
    moves &= ~shift_down(their_thr, 1);
    if (!any(moves)) return *score = loss_at(n + 2), 1;
    if (n + 2 >= g->cells) return *score = 0, 1; /* my move cannot win, nor the opponent's last after it */
    if (any(moves & shift_down(my_thr, 1) & shift_down(my_thr, 2))) return *score = win_at(n + 3), 1;
    out->moves = moves;
    out->lo = n + 4 <= g->cells ? loss_at(n + 4) : 0;
    out->hi = win_at(n + 3);
    return 0;
}

/* The board forms: a position is (a, b), by cells (a = mine, b = theirs) or by columns (a = mine,
   b = occupied). Each function below is called with `form` a constant, and compiles to its form's code
   alone. */

enum { BY_CELLS = 0, BY_COLUMNS = 1 };
enum { EXACT = 0, HORIZON = 1 };

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE int form_settle(const ss_game *g, int form, mask a, mask b, mask my_thr,
                              mask their_thr, node *out, int *score) {
    return form == BY_COLUMNS ? settle_columns(g, b, my_thr, their_thr, out, score)
                              : settle(g, a, b, my_thr, their_thr, out, score);
}

/* The position after the side to move plays `cell` (a cell, or a column bit), for the other side. */
ALWAYS_INLINE void form_child(int form, mask a, mask b, int cell, mask *child_a, mask *child_b) {
    *child_a = form == BY_COLUMNS ? a ^ b : b;
    *child_b = form == BY_COLUMNS ? b | bit(cell) : a | bit(cell);
}

/* The position's key in the table (tt.h): by columns the second mask carries COLUMN_KEY_TAG. */
ALWAYS_INLINE tt_key form_key(int form, mask a, mask b) {
    return tt_key_of(a, form == BY_COLUMNS ? b | COLUMN_KEY_TAG : b);
}

/* The mover's threats after it plays `cell` (its threats before: my_thr). */
ALWAYS_INLINE mask form_threats_after(const ss_game *g, int form, mask a, mask b, mask my_thr,
                                          int cell) {
    return form == BY_COLUMNS ? column_wins(&g->col, a | bit(cell), b | bit(cell))
                              : threats_after(g, my_thr, a, b, cell);
}

ALWAYS_INLINE void form_order(const ss_game *g, int form, mask moves, mask a, mask b, mask my_thr,
                              move_list *out) {
    if (form == BY_COLUMNS) order_columns(&g->col, moves, a, b, out);
    else order_cells(g, moves, a, b, my_thr, out);
}

/* The search */

/* Narrow the window [*alpha, *beta] to the score's known range [lo, hi]: 1 when it closes, with the
   score to return (fail-soft: the bound that closed it) in *cut. */
static inline int narrow(int *alpha, int *beta, int lo, int hi, int *cut) {
    if (*alpha < lo) {
        *alpha = lo;
        if (*alpha >= *beta) return *cut = *alpha, 1;
    }
    if (*beta > hi) {
        *beta = hi;
        if (*alpha >= *beta) return *cut = *beta, 1;
    }
    return 0;
}

/* The same by what the table knows of the position; *hint becomes its best move, or SS_NO_MOVE. */
static inline int narrow_by_table(searcher *s, tt_key key, int *alpha, int *beta, int *hint, int *cut) {
    tt_entry e;
    *hint = SS_NO_MOVE;
    if (!tt_find(s->tt, key, &e)) return 0;
    s->m.tt_hits++;
    *hint = e.best;
    return narrow(alpha, beta, e.lower, e.upper, cut);
}

ALWAYS_INLINE int child_search(searcher *s, int form, int mode, mask a, mask b, mask my_thr,
                               mask their_thr, int depth, int alpha, int beta, int ply) {
    if (mode == HORIZON) return ab_horizon(s, a, b, my_thr, their_thr, depth, alpha, beta, ply);
    return form == BY_COLUMNS ? ab_columns(s, a, b, my_thr, their_thr, alpha, beta, ply)
                              : ab_cells(s, a, b, my_thr, their_thr, alpha, beta, ply);
}

/* The node (a, b) of the `form`'s search in the `mode` (EXACT: to the end of the game, its bounds kept in
   the table; HORIZON: `depth` plies more, then horizon_score, in heuristic units). */
ALWAYS_INLINE int search(searcher *s, int form, int mode, mask a, mask b, mask my_thr, mask their_thr,
                         int depth, int alpha, int beta, int ply) {
    if (meter_tick(&s->m, ply)) return 0;
    int64_t nodes_before = s->m.nodes;
    node nd;
    int score, hint, cut;
    if (form_settle(s->g, form, a, b, my_thr, their_thr, &nd, &score))
        return mode == HORIZON ? score * SS_HEURISTIC_UNIT : score;
    tt_key key = form_key(form, a, b);
    if (mode == EXACT) {
        if (narrow(&alpha, &beta, nd.lo, nd.hi, &cut) || narrow_by_table(s, key, &alpha, &beta, &hint, &cut))
            return cut;
    } else {
        tt_entry e;
        hint = SS_NO_MOVE;
        if (tt_find(s->tt, key, &e)) {
            s->m.tt_hits++;
            if (e.lower == e.upper) return e.lower * SS_HEURISTIC_UNIT; /* proven: no horizon */
            hint = e.best;
        }
        if (depth == 0) return horizon_score(s->g, a, b);
    }
    for (mask m = nd.moves; any(m); m = without_lowest(m)) { /* the children's entries arrive while the moves are ordered */
        mask child_a, child_b;
        form_child(form, a, b, lowest_cell(m), &child_a, &child_b);
        tt_prefetch(s->tt, form_key(form, child_a, child_b));
    }
    int best = mode == HORIZON ? -HORIZON_INFINITE : SS_SCORE_MIN - 1, best_move = SS_NO_MOVE;
    mask rest = nd.moves; /* the moves not yet in the list */
    move_list list;
    if (hint != SS_NO_MOVE && any(rest & bit(hint))) { /* the table's move alone first: it often cuts */
        list.n = 1;
        list.cell[0] = (ss_cell)hint;
        list.threats[0] = form_threats_after(s->g, form, a, b, my_thr, hint);
        rest &= ~bit(hint);
    } else {
        form_order(s->g, form, rest, a, b, my_thr, &list);
        rest = NO_CELLS;
    }
    for (int i = 0; i < list.n; i++) {
        int cell = list.cell[i];
        int floor = best > alpha ? best : alpha;
        mask child_a, child_b;
        form_child(form, a, b, cell, &child_a, &child_b);
        int v = -child_search(s, form, mode, child_a, child_b, their_thr & ~bit(cell), list.threats[i], depth - 1,
                              -beta, -floor, ply + 1);
        if (s->m.halted) return 0;
        if (v > best) {
            best = v;
            best_move = cell;
            if (v >= beta) {
                s->m.cutoffs++;
                break;
            }
        }
        if (i == list.n - 1 && any(rest)) { /* the table's move did not cut: now the others, in order */
            form_order(s->g, form, rest, a, b, my_thr, &list);
            rest = NO_CELLS;
            i = -1;
        }
    }
    if (mode == HORIZON) {
        if ((depth > 1 || ply == 0) && best > alpha) /* the next iteration's first move; no bound */
            tt_store(s->tt, key, SS_SCORE_MIN, SS_SCORE_MAX, best_move, 0);
        return best;
    }
    int lower = nd.lo, upper = nd.hi;
    if (best <= alpha) {
        upper = best;
        best_move = SS_NO_MOVE; /* every move failed low: none is known to be better */
    } else if (best >= beta) {
        lower = best;
    } else {
        lower = upper = best;
    }
    tt_store(s->tt, key, lower, upper, best_move, s->m.nodes - nodes_before);
    return best;
}

int ab_cells(searcher *s, mask mine, mask theirs, mask my_thr, mask their_thr, int alpha, int beta,
             int ply) {
    return search(s, BY_CELLS, EXACT, mine, theirs, my_thr, their_thr, 0, alpha, beta, ply);
}

int ab_columns(searcher *s, mask mine, mask occupied, mask my_thr, mask their_thr, int alpha,
               int beta, int ply) {
    return search(s, BY_COLUMNS, EXACT, mine, occupied, my_thr, their_thr, 0, alpha, beta, ply);
}

int ab_horizon(searcher *s, mask mine, mask theirs, mask my_thr, mask their_thr, int depth,
               int alpha, int beta, int ply) {
    return search(s, BY_CELLS, HORIZON, mine, theirs, my_thr, their_thr, depth, alpha, beta, ply);
}
