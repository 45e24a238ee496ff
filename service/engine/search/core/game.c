/* Building a game from the Python side's lines; computing threats from scratch. */
#include <stdlib.h>
#include <string.h>

#include "game.h"

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ULL;
}

ss_game *ss_game_new(int rows, int cols, int misere, int gravity, const uint64_t *lines, int n_lines) {
    if (rows < 1 || cols < 1 || rows * cols > SS_MAX_CELLS || n_lines < 0 || (n_lines && !lines))
        return NULL;
    ss_game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->rows = rows;
    g->cols = cols;
    g->cells = rows * cols;
    g->misere = misere != 0;
    g->gravity = gravity != 0;
    g->full = g->cells == 64 ? ~(uint64_t)0 : (bit(g->cells) - 1);
    for (int c = (rows - 1) * cols; c < g->cells; c++) g->bottom |= bit(c);
    g->n_lines = n_lines;
    g->lines = malloc(sizeof(uint64_t) * (size_t)(n_lines ? n_lines : 1));
    int total = 0;
    for (int i = 0; i < n_lines; i++) total += count(lines[i] & g->full);
    g->through = malloc(sizeof(uint64_t) * (size_t)(total ? total : 1));
    if (!g->lines || !g->through) {
        ss_game_free(g);
        return NULL;
    }
    memcpy(g->lines, lines, sizeof(uint64_t) * (size_t)n_lines);
    int at = 0;
    for (int c = 0; c < g->cells; c++) {
        g->through_start[c] = at;
        for (int i = 0; i < n_lines; i++)
            if (lines[i] & bit(c)) g->through[at++] = lines[i];
    }
    g->through_start[g->cells] = at;
    uint64_t h = mix(mix(mix(mix(0, (uint64_t)rows), (uint64_t)cols), (uint64_t)g->misere), (uint64_t)g->gravity);
    for (int i = 0; i < n_lines; i++) h = mix(h, lines[i]);
    g->fingerprint = h;
    columns_setup(g);
    return g;
}

void ss_game_free(ss_game *g) {
    if (!g) return;
    free(g->lines);
    free(g->through);
    free(g);
}

uint64_t ss_threats(const ss_game *g, uint64_t player, uint64_t other) {
    uint64_t threats = 0;
    for (int i = 0; i < g->n_lines; i++) {
        uint64_t line = g->lines[i];
        uint64_t missing = line & ~player;
        if (!(line & other) && missing && !more_than_one(missing)) threats |= missing;
    }
    return threats;
}
