/* What a position settles before any search: the moves worth searching, or its score when the rules
   alone decide it (a win now, a double threat, a full board), and the range its score can take. */
#ifndef SS_NODE_H
#define SS_NODE_H

#include <stdint.h>

#include "board.h"

static inline int win_at(int marks) { return SS_BIG - marks; }
static inline int loss_at(int marks) { return marks - SS_BIG; }

typedef struct {
    uint64_t moves;
    int lo, hi; /* the score lies in [lo, hi]: between the earliest loss and the earliest win left */
} node;

/* Normal rule: win now; else block the one threat of the opponent (two: lost); under gravity never
   play beneath a cell where the opponent would complete a line. */
static inline int settle_normal(const ss_game *g, int n, uint64_t moves, uint64_t my_thr, uint64_t their_thr,
                                node *out, int *score) {
    if (my_thr & moves) return *score = win_at(n + 1), 1;
    uint64_t forced = their_thr & moves;
    if (more_than_one(forced)) return *score = loss_at(n + 2), 1;
    if (n + 1 == g->cells) return *score = 0, 1;
    if (forced) moves = forced;
    if (g->gravity) moves &= ~(their_thr << g->cols);
    if (!moves) return *score = loss_at(n + 2), 1;
    out->moves = moves;
    /* my next move cannot win, and after it the opponent has no line to complete at once */
    out->hi = n + 3 <= g->cells ? win_at(n + 3) : 0;
    out->lo = n + 4 <= g->cells ? loss_at(n + 4) : 0;
    return 0;
}

/* Whether one of my safe `moves` leaves the opponent only moves that complete its own lines. */
static inline int opponent_stuck(const ss_game *g, uint64_t empty_playable, uint64_t moves, uint64_t their_thr) {
    if (!g->gravity) {
        uint64_t their_safe = empty_playable & ~their_thr;
        return !their_safe || (!more_than_one(their_safe) && (their_safe & moves));
    }
    for (; moves; moves &= moves - 1) {
        int cell = lowest_cell(moves);
        uint64_t next = empty_playable & ~bit(cell);
        if (cell >= g->cols) next |= bit(cell - g->cols);
        if (!(next & ~their_thr)) return 1;
    }
    return 0;
}

/* Misère: a move that completes my line loses, so only the others are searched; if none is left I
   lose now; if one leaves the opponent nothing else, I win next. */
static inline int settle_misere(const ss_game *g, int n, uint64_t moves, uint64_t my_thr, uint64_t their_thr,
                                node *out, int *score) {
    uint64_t safe = moves & ~my_thr;
    if (!safe) return *score = loss_at(n + 1), 1;
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
static inline int settle_doubles(const ss_game *g, int n, uint64_t mine, uint64_t theirs, uint64_t their_thr,
                                 node *out, int *score) {
    uint64_t my_doubles, their_doubles;
    uint64_t makers = pl_threat_makers(g, mine, theirs, &my_doubles);
    if (my_doubles & out->moves) return *score = win_at(n + 3), 1;
    out->hi = n + 5 <= g->cells ? win_at(n + 5) : 0;
    pl_threat_makers(g, theirs, mine, &their_doubles);
    if (!their_doubles) {
        out->lo = n + 6 <= g->cells ? loss_at(n + 6) : 0;
        return 0;
    }
    if (their_thr & out->moves) return 0; /* my one move is the block */
    uint64_t answers = out->moves;
    for (uint64_t d = their_doubles; d; d &= d - 1) {
        int cell = lowest_cell(d);
        uint64_t partners = pl_partners(g, theirs, mine, cell);
        answers &= bit(cell) | (more_than_one(partners & (partners - 1)) ? 0 : partners);
    }
    out->moves &= answers | makers;
    if (!out->moves) return *score = loss_at(n + 4), 1;
    return 0;
}

/* Whether some line holds none of `other`'s marks: only then can its owner still complete one. */
static inline int has_open_line(const ss_game *g, uint64_t other) {
    for (int i = 0; i < g->n_lines; i++)
        if (!(g->lines[i] & other)) return 1;
    return 0;
}

/* 1 with *score when the position is settled, else 0 with the moves to search and the score's range.
   A side with no open line can complete none: under the normal rule it cannot win, under misère it
   cannot lose; when neither side has one the game is a draw. */
static inline int settle(const ss_game *g, uint64_t mine, uint64_t theirs, uint64_t my_thr, uint64_t their_thr,
                         node *out, int *score) {
    uint64_t occupied = mine | theirs;
    int n = count(occupied);
    uint64_t moves = playable(g, occupied);
    if (g->misere ? settle_misere(g, n, moves, my_thr, their_thr, out, score)
                  : settle_normal(g, n, moves, my_thr, their_thr, out, score))
        return 1;
    if (!g->misere && !g->gravity && settle_doubles(g, n, mine, theirs, their_thr, out, score)) return 1;
    int my_lines = has_open_line(g, theirs), their_lines = has_open_line(g, mine);
    if (!my_lines && !their_lines) return *score = 0, 1;
    int *mine_decides = g->misere ? &out->lo : &out->hi, *theirs_decides = g->misere ? &out->hi : &out->lo;
    if (!my_lines) *mine_decides = 0;
    if (!their_lines) *theirs_decides = 0;
    return 0;
}

#endif
