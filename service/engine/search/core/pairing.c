/* The pairing search. Each line the attacker can still complete is reduced to its empty cells; a line
   whose empty cells include another's is dropped, as a pair inside the smaller one lies inside it too.
   Then a depth-first search takes the line with the fewest pairs of free cells left, tries its pairs
   in the order of how many uncovered lines each covers (a pair may serve several overlapping lines: two
   windows of one row share the cells between their ends), and backtracks. A line with one empty cell is
   a threat (no pairing); none with none, as the attacker would have completed it. */
#include "pairing.h"

enum { MAX_LINE_CELLS = 16, MAX_LINE_PAIRS = MAX_LINE_CELLS * (MAX_LINE_CELLS - 1) / 2 };

typedef struct {
    uint64_t sets[SS_MAX_CELLS * 4];
    int n;
    int64_t steps, budget;
    int8_t (*pairs)[2];
    int n_pairs;
} pairing_state;

static int pairs_of(int free_cells) { return free_cells * (free_cells - 1) / 2; }

static int cover(pairing_state *st, const int *open, int n_open, uint64_t used);

/* Covers the sets of `open`, connected through their free cells: branches on the pairs of the set with
   the fewest left, the pairs serving the most sets first. */
static int branch(pairing_state *st, const int *open, int n_open, uint64_t used) {
    if (st->budget && ++st->steps > st->budget) return 0;
    int pick = 0, fewest = 1 << 30;
    for (int i = 0; i < n_open; i++) {
        int options = pairs_of(count(st->sets[open[i]] & ~used));
        if (options < fewest) {
            fewest = options;
            pick = i;
        }
    }
    uint64_t free = st->sets[open[pick]] & ~used;
    int cells[MAX_LINE_CELLS], n = 0; /* a line has at most 11 cells (2x11) */
    for (uint64_t m = free; m && n < MAX_LINE_CELLS; m &= m - 1) cells[n++] = lowest_cell(m);
    uint64_t pair[MAX_LINE_PAIRS];
    int served[MAX_LINE_PAIRS], n_pairs = 0;
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n; b++) {
            uint64_t p = bit(cells[a]) | bit(cells[b]);
            int covered = 0;
            for (int i = 0; i < n_open; i++) covered += (st->sets[open[i]] & p) == p;
            int j = n_pairs++;
            for (; j > 0 && served[j - 1] < covered; j--) { /* most lines served first */
                pair[j] = pair[j - 1];
                served[j] = served[j - 1];
            }
            pair[j] = p;
            served[j] = covered;
        }
    }
    int rest[SS_MAX_CELLS * 4];
    for (int j = 0; j < n_pairs; j++) {
        uint64_t p = pair[j];
        int n_rest = 0;
        for (int i = 0; i < n_open; i++)
            if ((st->sets[open[i]] & p) != p) rest[n_rest++] = open[i];
        int at = st->n_pairs++;
        st->pairs[at][0] = (int8_t)lowest_cell(p);
        st->pairs[at][1] = (int8_t)lowest_cell(p & (p - 1));
        if (cover(st, rest, n_rest, used | p)) return 1;
        st->n_pairs = at;
        if (st->budget && st->steps > st->budget) return 0;
    }
    return 0;
}

/* Covers every set of `open` (indices into st->sets) avoiding the cells of `used`; 1 when it did. Sets
   that share no free cell with the others are covered apart: a failure in one part is then never
   retried through the choices made in another. */
static int cover(pairing_state *st, const int *open, int n_open, uint64_t used) {
    if (n_open == 0) return 1;
    uint64_t reach[SS_MAX_CELLS * 4];
    int part[SS_MAX_CELLS * 4], n_parts = 0;
    for (int i = 0; i < n_open; i++) {
        uint64_t free = st->sets[open[i]] & ~used;
        if (!more_than_one(free)) return 0;
        int joined = -1;
        for (int c = 0; c < n_parts; c++) {
            if (!(reach[c] & free)) continue;
            if (joined < 0) {
                joined = c;
                reach[c] |= free;
            } else { /* the set links two parts: merge c into the first */
                reach[joined] |= reach[c];
                for (int j = 0; j < i; j++)
                    if (part[j] == c) part[j] = joined;
                    else if (part[j] == n_parts - 1) part[j] = c;
                reach[c--] = reach[--n_parts];
            }
        }
        if (joined < 0) {
            joined = n_parts;
            reach[n_parts++] = free;
        }
        part[i] = joined;
    }
    if (n_parts == 1) return branch(st, open, n_open, used);
    int members[SS_MAX_CELLS * 4];
    for (int c = 0; c < n_parts; c++) {
        int n = 0;
        for (int i = 0; i < n_open; i++)
            if (part[i] == c) members[n++] = open[i];
        if (!branch(st, members, n, used)) return 0;
    }
    return 1;
}

int pairing_search(const ss_game *g, uint64_t attacker, uint64_t defender, int64_t budget, uint64_t *cells,
                   int8_t (*pairs)[2], int *n_pairs) {
    pairing_state st;
    uint64_t empty = g->full & ~(attacker | defender);
    st.n = 0;
    for (int i = 0; i < g->n_lines; i++) {
        uint64_t line = g->lines[i];
        if (line & defender) continue;
        uint64_t gaps = line & empty;
        if (!more_than_one(gaps)) return 0;
        int keep = 1;
        for (int j = 0; j < st.n && keep; j++) {
            if ((st.sets[j] & gaps) == st.sets[j]) keep = 0;           /* a kept set inside it */
            else if ((st.sets[j] & gaps) == gaps) st.sets[j--] = st.sets[--st.n]; /* it inside a kept set */
        }
        if (keep) st.sets[st.n++] = gaps;
    }
    int open[SS_MAX_CELLS * 4];
    for (int i = 0; i < st.n; i++) open[i] = i;
    st.steps = 0;
    st.budget = budget;
    st.pairs = pairs;
    st.n_pairs = 0;
    int ok = cover(&st, open, st.n, 0);
    if (!ok) return 0;
    *n_pairs = st.n_pairs;
    *cells = 0;
    for (int i = 0; i < st.n_pairs; i++) *cells |= bit(pairs[i][0]) | bit(pairs[i][1]);
    return 1;
}

int ss_pairing_find(const ss_game *g, uint64_t attacker, uint64_t defender, int defender_to_move, int64_t budget,
                    int8_t *pairs, int *n_pairs, int32_t *first_move) {
    uint64_t cells;
    *first_move = SS_NO_MOVE;
    if (pairing_search(g, attacker, defender, budget, &cells, (int8_t(*)[2])pairs, n_pairs)) return 1;
    if (!defender_to_move) return 0;
    for (uint64_t m = g->full & ~(attacker | defender); m; m &= m - 1) {
        int cell = lowest_cell(m);
        if (pairing_search(g, attacker, defender | bit(cell), budget, &cells, (int8_t(*)[2])pairs, n_pairs)) {
            *first_move = cell;
            return 1;
        }
    }
    return 0;
}
