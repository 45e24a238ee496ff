/* A board's rules as bitboards, derived once: the lines through each cell, which cells can be played,
   and the threats a move creates. */
#ifndef SS_GAME_H
#define SS_GAME_H

#include <stdint.h>

#include "columns.h"
#include "sanmoku_search.h"

struct ss_game {
    int rows, cols, cells, misere, gravity;
    uint64_t full;
    uint64_t bottom;            /* the bottom row: gravity's first playable cells */
    int n_lines;
    uint64_t *lines;
    int through_start[SS_MAX_CELLS + 1]; /* lines through cell c: through[through_start[c] ..[c + 1]) */
    uint64_t *through;
    /* The lines in families: lines linked through sharing two cells or more (on a flat board, the
       windows of one row, column or diagonal), family f's lines being lines[family_line[i]] for i in
       family_start[f] .. family_start[f + 1]; the pairing search only links lines of one family. */
    int n_families;
    int *family_start, *family_line;
    /* The lines as windows, when they all are (a flat board's rows, columns and diagonals): each of
       line_length cells, its first cell shifted n_shifts times by one of the steps `shifts`, the first
       cells of the windows of step shifts[i] in starts[i]; the threats are then found for all the
       windows of a step at once (ss_threats). n_shifts = -1: they are not (a torus's lines wrap). */
    int n_shifts, line_length;
    int shifts[4];
    uint64_t starts[4];
    uint64_t fingerprint;       /* tells a table which game its entries belong to */
    columns col;                /* col.on: searched on column bitboards (column.h) */
};

/* Fills g->col: whether the game is searched on column bitboards, and their shape. */
void columns_setup(ss_game *g);

static inline uint64_t bit(int cell) { return (uint64_t)1 << cell; }

static inline int lowest_cell(uint64_t mask) { return __builtin_ctzll(mask); }

static inline int count(uint64_t mask) { return __builtin_popcountll(mask); }

static inline int more_than_one(uint64_t mask) { return (mask & (mask - 1)) != 0; }

/* The cells the side to move may play: every empty cell, or under gravity the lowest empty cell of
   each column (cell r*cols + c is playable when the cell below it, one row further, is occupied). */
static inline uint64_t playable(const ss_game *g, uint64_t occupied) {
    uint64_t empty = g->full & ~occupied;
    return g->gravity ? empty & ((occupied >> g->cols) | g->bottom) : empty;
}

/* `player`'s threats after it plays `cell` (its threats before are `threats`; the opponent holds
   `other`): the lines through the cell that now lack exactly one empty cell add that cell. */
static inline uint64_t threats_after(const ss_game *g, uint64_t threats, uint64_t player, uint64_t other,
                                     int cell) {
    uint64_t now = player | bit(cell);
    threats &= ~bit(cell);
    for (int i = g->through_start[cell]; i < g->through_start[cell + 1]; i++) {
        uint64_t line = g->through[i];
        uint64_t missing = line & ~now;
        if (!(line & other) && missing && !more_than_one(missing)) threats |= missing;
    }
    return threats;
}

#endif
