/* The pairing search: disjoint pairs of empty cells such that every line the attacker can still complete
   holds one.

   A pair can serve several lines only if they share both its cells; so the lines fall into groups (lines
   linked by sharing two cells or more: on a flat board, the windows of one row, column or diagonal) and
   a pair serves the lines of one group only. The search is then two-level:
   1. each group's covers: sets of disjoint pairs of its empty cells, every live line of the group holding
      one (enumerated, minimal, fewest cells first, cached per thread: below);
   2. one cover per group, the chosen covers' cells disjoint: a backtracking search that takes the group
      with the fewest covers still possible, after propagating the cells every possible cover of a group
      shares (a group left with none, or two groups needing one cell, fails the branch at once).
   The matching view of the issue (each line needs two cells of its own) is the special case of groups of
   one line; the groups are what make the search small: about 30 on 8x8 with five in a row.
   A live line with fewer than two empty cells is a threat (or a completed line): no pairing. Before any
   group is made, a count of lines that need a pair each (0. below) settles most positions that have
   none, at once: those of big boards with few marks, where making the groups would cost far more than a
   node. Capping the covers (and the steps of a group's walk) keeps the search sound (a pairing found is
   one) but may miss a pairing; so does the budget, which counts the steps of the second level and gives
   the walks WALKS_PER_STEP times as many (1. below), and so does giving up past MAX_GROUPS groups.
   A failure names its reason (pairing_failure): the lines of the groups the search's reasoning used.
   A group that never took a cell (its core stayed empty), was never chosen and never failed only ever
   lost covers; without it the same steps fail the same way, so those lines alone have no pairing. */

#include <stdlib.h>
#include <string.h>

#include "pairing.h"
#include "sanmoku_debug.h"

/* A group's covers: sets of disjoint pairs of the group's empty cells such that every line of the group
   holds one of the pairs. */
enum { MAX_GROUPS = 64, MAX_GROUP_LINES = 64, MAX_COVERS = 48, MAX_POOL = 8192 };

typedef struct {
    mask cells; /* the cover's paired cells */
    int first, n;   /* its pairs: pool[first .. first + n) */
} cover;

typedef struct {
    int first, n; /* its covers: covers[first .. first + n) */
} group;

/* One pairing search's groups and their covers. */
typedef struct {
    int64_t steps, budget;                 /* the steps taken, and how many it may (0: no limit) */
    group groups[MAX_GROUPS];              /* the groups of the lines still open to the attacker */
    int n_groups;                          /* how many */
    cover covers[MAX_GROUPS * MAX_COVERS]; /* every group's covers */
    int n_covers;                          /* how many */
    ss_cell pool[MAX_POOL][2];             /* the covers' pairs */
    int n_pool;                            /* how many pairs the pool holds */
    int chosen[MAX_GROUPS];   /* the cover of each group, -1: none yet */
    uint64_t open;            /* the groups with no cover chosen yet */
    mask reach[MAX_GROUPS]; /* the cells of all the group's covers */
    uint64_t groups_at[SS_MAX_CELLS]; /* the groups whose reach holds the cell */
    mask whole[MAX_GROUPS], gaps[MAX_GROUPS]; /* all the cells of the group's lines; the empty ones */
    uint64_t used; /* the groups the search's reasoning used: they took cells, were chosen or failed */
    int64_t walked, walk_budget; /* the walks' steps taken, and how many they may (0: no limit) */
    /* the groups' live lines (their empty cells), found before any walk: group g's are
       members[member_first[g] .. member_first[g + 1]) */
    mask members[MAX_GROUPS * MAX_GROUP_LINES];
    int member_first[MAX_GROUPS + 1];
    /* one family's live lines at a time: their empty cells, all their cells, their union's links */
    mask live[SS_MAX_CELLS * 4], line_whole[SS_MAX_CELLS * 4];
    int parent[SS_MAX_CELLS * 4];
    uint64_t at[SS_MAX_CELLS]; /* a walked group's lines through each of its empty cells (bit i: line i) */
} pairing_state;

/* 0. Counting lines apart: lines each two of which share at most one empty cell need a pair each, of two
   cells of their own (a pair inside two of them would be two cells they share); so when they are more
   than half their empty cells, no pairing exists. Lines of two families share one cell at most. On a
   board of windows of k cells, two windows of one step share two cells or more only when one starts
   k - 2 steps or fewer after the other, so the windows of one phase (their place along their row, column
   or diagonal, modulo k - 1) are apart. On gomoku's boards with few marks they are far too many: 168
   windows on 225 cells (15x15, k = 5), 288 on 361 (19x19). There a search made 72 or more groups (one per
   row, column and diagonal, 64 at most held) and walked them, 10 ms a search on the empty 15x15, before
   it gave up; these counts take about a microsecond (tests/bench/pairing_walk.py).

   The failure they name is a reason (pairing_failure): a position where those lines are still free of
   the defender, their empty cells no more, has as many lines apart on as few cells. */

/* Sets g->apart (board.h), checked: on a board that is not a grid of windows (two windows of one phase
   sharing two cells, or a family of lines of two steps), g->n_phases stays 0 and counted_out() is not
   used. */
void pairing_setup(ss_game *g) {
    g->n_phases = 0;
    int k = g->line_length, phases = k - 1;
    if (g->n_shifts < 1 || phases < 2 || phases > MAX_PHASES) return;
    for (int f = 0; f < g->n_families; f++) { /* lines of two steps share one cell at most */
        int step = -1;
        for (int at = g->family_start[f]; at < g->family_start[f + 1]; at++) {
            mask line = g->lines[g->family_line[at]];
            int its = lowest_cell(without_lowest(line)) - lowest_cell(line);
            if (step >= 0 && its != step) return;
            step = its;
        }
    }
    for (int i = 0; i < g->n_shifts; i++) {
        int s = g->shifts[i];
        mask at = g->starts[i] & ~shift_up(g->starts[i], s); /* first along their row: place 0 */
        for (int p = 0; p < phases; p++) g->apart[i][p] = NO_CELLS;
        for (int place = 0; any(at); place++) {
            g->apart[i][place % phases] |= at;
            at = shift_up(at, s) & g->starts[i];
        }
        for (int p = 0; p < phases; p++) /* checked, whatever the board: none k - 2 steps after another */
            for (int t = 1; t <= k - 2; t++)
                if (any(g->apart[i][p] & shift_up(g->apart[i][p], t * s))) return;
    }
    g->n_phases = phases;
}

/* Before any group is made, on a board of windows (g->n_phases), every window at once, a step at a time:
   1 when the windows apart (of each step, those of its phase with most windows free of the defender)
   show there is no pairing (*why: them); 2 when the groups would be more than MAX_GROUPS (the search
   gives up); else 0. The groups are at least the runs of windows free of the defender along a row: on a
   grid two windows of two runs never share two cells (one of them would hold the defender's mark that
   stops a window between them), and each run's lines make one group or more. Elsewhere a run may be
   counted twice: the search only gives up sooner. */
static int counted_out(const ss_game *g, mask attacker, mask defender, pairing_failure *why) {
    mask empty = g->full & ~(attacker | defender), cells = NO_CELLS;
    int apart = 0, runs = 0;
    for (int i = 0; i < g->n_shifts; i++) {
        int s = g->shifts[i];
        mask live = g->starts[i];
        for (int j = 0, shift = 0; j < g->line_length; j++, shift += s) live &= ~shift_down(defender, shift);
        runs += count(live & ~shift_up(live, s));
        int best = 0, most = -1;
        for (int p = 0; p < g->n_phases; p++) {
            int n = count(live & g->apart[i][p]);
            if (n > most) most = n, best = p;
        }
        mask picked = live & g->apart[i][best];
        apart += most;
        for (int j = 0, shift = 0; j < g->line_length; j++, shift += s) cells |= shift_up(picked, shift);
    }
    if (2 * apart > count(cells & empty)) {
        why->lines = cells;
        why->gaps = cells & empty;
        return 1;
    }
    return runs > MAX_GROUPS ? 2 : 0;
}

/* Every line free of the defender, line by line, on any board: 1 when one has fewer than two empty cells
   (a threat of the attacker's, or a line complete: *why, that line) or when the lines apart show there is
   no pairing (*why: them), else 0. The lines apart: those of one family picked in turn, each sharing at
   most one empty cell with those picked before. Where counted_out() takes one phase for all the rows of
   a step, this picks each row's windows around the defender's marks (and the attacker's): in the first
   1,000 nodes of a question on 15x15 with 40 marks, it settled 23,200 of the 23,300 searches that
   counted_out() left, of 31,500. */
static int lines_apart(const ss_game *g, pairing_state *st, mask empty, mask defender, pairing_failure *why) {
    int apart = 0;
    mask lines = NO_CELLS, gaps_of_them = NO_CELLS, *picked = st->live;
    for (int f = 0; f < g->n_families; f++) {
        int n_picked = 0;
        for (int at = g->family_start[f]; at < g->family_start[f + 1]; at++) {
            mask line = g->lines[g->family_line[at]];
            if (any(line & defender)) continue;
            mask gaps = line & empty;
            if (!more_than_one(gaps)) {
                why->lines = line;
                why->gaps = gaps;
                return 1;
            }
            int alone = 1;
            for (int j = 0; j < n_picked && alone; j++) alone = !more_than_one(gaps & picked[j]);
            if (!alone || n_picked == SS_MAX_CELLS * 4) continue; /* fewer picked: a weaker count, still true */
            picked[n_picked++] = gaps;
            lines |= line;
            gaps_of_them |= gaps;
        }
        apart += n_picked;
    }
    if (2 * apart <= count(gaps_of_them)) return 0;
    why->lines = lines;
    why->gaps = gaps_of_them;
    return 1;
}

/* 1. Enumerating a group's covers, depth-first: the first line not yet covered, each pair of its free cells,
   the pairs serving most lines first; a cover is kept when no cover kept before uses a subset of its
   cells (and replaces those that use a superset). At most WALK_STEPS steps per group, and a search with
   a budget gives all its walks WALKS_PER_STEP steps per step of its budget, shared evenly by the groups
   still to walk (a group left fewer than MIN_WALK: the search gives up). A step is about 100 ns: at
   df-pn's budget (75, dfpn.c) a search's walks take at most 4,800 steps, half a millisecond, where each
   long row's group (a row of 15 cells has 11 windows, too many to be cached) took 4,096 steps every time
   it was made. On the 64-cell build no search of tests/bench/provers_nodes.py walks more than 1,812
   steps, none of the first 20,000 nodes on the empty 8x8k5 more than 2,267: at 64 steps per step (and
   at 32) its 60 fingerprints and the 180 root questions of tests/bench/provers_misses.py (6x6k5 to
   8x8k4 --roots 30000) are as they were; at 16, 9 of the 60 differ.

   Sibling positions of a search share most of their groups (a move changes at most four), so each
   thread keeps the covers of the groups it has seen in a direct-mapped cache, keyed by the group's lines
   (compared whole, not by a hash alone: a collision costs a walk, never a wrong cover). Groups of more
   than CACHED_LINES lines, or covers of more than CACHED_PAIRS pairs, are walked every time. */
enum { WALK_STEPS = 4096, CACHED_LINES = 8, CACHED_PAIRS = 8, CACHE_SLOTS = 4096 };
enum { WALKS_PER_STEP = 64, MIN_WALK = 16 };

typedef struct {
    const mask *lines; /* the group's live lines, as their empty cells */
    int n_lines;          /* how many */
    ss_cell stack[SS_MAX_CELLS / 2][2]; /* the pairs chosen so far */
    int depth;            /* how many */
    int first_cover;      /* the group's first cover in the state's covers */
    int steps;     /* of this group's walk... */
    int allowance; /* ...at most these: WALK_STEPS, or fewer when the search's budget runs short */
    int cut;       /* a step more was wanted: the walk stopped there */
} cover_walk;

static void keep_cover(pairing_state *st, cover_walk *w, mask used) {
    for (int i = w->first_cover; i < st->n_covers; i++) {
        mask other = st->covers[i].cells;
        if (same(other & used, other)) return; /* a cover with a subset of its cells is kept already */
    }
    if (st->n_covers - w->first_cover >= MAX_COVERS || st->n_pool + w->depth > MAX_POOL) return;
    for (int i = w->first_cover; i < st->n_covers; i++) { /* it replaces the covers it is a subset of */
        if (same(st->covers[i].cells & used, used)) st->covers[i--] = st->covers[--st->n_covers];
    }
    cover *c = &st->covers[st->n_covers++];
    c->cells = used;
    c->first = st->n_pool;
    c->n = w->depth;
    memcpy(st->pool[st->n_pool], w->stack, sizeof(ss_cell[2]) * (size_t)w->depth);
    st->n_pool += w->depth;
}

static void walk(pairing_state *st, cover_walk *w, uint64_t covered, mask used) {
    if (w->steps == w->allowance) {
        w->cut = 1;
        return;
    }
    w->steps++;
    st->walked++;
    int line = -1;
    for (int i = 0; i < w->n_lines && line < 0; i++)
        if (!(covered >> i & 1)) line = i;
    if (line < 0) {
        keep_cover(st, w, used);
        return;
    }
    mask free = w->lines[line] & ~used;
    int cells[SS_MAX_CELLS], n = 0;
    for (mask m = free; any(m); m = without_lowest(m)) cells[n++] = lowest_cell(m);
    /* each pair with the lines it serves (those through both its cells: st->at), most first */
    enum { MAX_PAIRS = 128 };
    ss_cell pair[MAX_PAIRS][2];
    uint64_t serves[MAX_PAIRS];
    int n_pairs = 0;
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n && n_pairs < MAX_PAIRS; b++) {
            uint64_t lines = st->at[cells[a]] & st->at[cells[b]];
            int j = n_pairs++;
            for (; j > 0 && word_count(serves[j - 1]) < word_count(lines); j--) {
                pair[j][0] = pair[j - 1][0];
                pair[j][1] = pair[j - 1][1];
                serves[j] = serves[j - 1];
            }
            pair[j][0] = (ss_cell)cells[a];
            pair[j][1] = (ss_cell)cells[b];
            serves[j] = lines;
        }
    }
    for (int j = 0; j < n_pairs; j++) {
        w->stack[w->depth][0] = pair[j][0];
        w->stack[w->depth][1] = pair[j][1];
        w->depth++;
        walk(st, w, covered | serves[j], used | bit(pair[j][0]) | bit(pair[j][1]));
        w->depth--;
        if (w->cut) return;
    }
}

typedef struct {
    mask lines[CACHED_LINES]; /* the group's lines, sorted; n_lines 0: a free slot */
    int n_lines, n_covers;       /* how many lines, and how many covers */
    mask cells[MAX_COVERS];   /* each cover's paired cells */
    ss_cell pairs[MAX_COVERS][CACHED_PAIRS][2]; /* each cover's pairs */
    int8_t n_pairs[MAX_COVERS];   /* how many */
} cached_group;

static _Thread_local cached_group *cache; /* CACHE_SLOTS groups: 5 MB per thread that pairs */

static cached_group *slot_of(const mask *sorted, int n) {
    if (!cache && !(cache = calloc(CACHE_SLOTS, sizeof *cache))) return NULL;
    uint64_t h = (uint64_t)n;
    for (int i = 0; i < n; i++) h = (h ^ mask_word(sorted[i])) * 0x9E3779B97F4A7C15ULL, h ^= h >> 31;
    return cache + (h % CACHE_SLOTS);
}

static void finish_group(pairing_state *st, int g, int first) {
    for (int i = first + 1; i < st->n_covers; i++) { /* insertion sort by the number of cells */
        cover c = st->covers[i];
        int j = i;
        for (; j > first && count(st->covers[j - 1].cells) > count(c.cells); j--) st->covers[j] = st->covers[j - 1];
        st->covers[j] = c;
    }
    st->groups[g].first = first;
    st->groups[g].n = st->n_covers - first;
}

/* Group g, of `lines` (each line's empty cells), with its covers, fewest cells first, at most
   MAX_COVERS, none using a superset of another's cells; 0 when it has none (or none was found). A walk of
   fewer steps than WALK_STEPS (`allowance`) that used them all is cut short (*cut): its covers are not
   kept in the cache, and finding none tells nothing. */
static int add_group(pairing_state *st, int g, const mask *lines, int n_lines, int allowance, int *cut) {
    *cut = 0;
    int first = st->n_covers;
    cached_group *slot = NULL;
    mask sorted[CACHED_LINES];
    if (n_lines <= CACHED_LINES) {
        for (int i = 0; i < n_lines; i++) {
            int j = i;
            for (; j > 0 && mask_order(sorted[j - 1], lines[i]) > 0; j--) sorted[j] = sorted[j - 1];
            sorted[j] = lines[i];
        }
        slot = slot_of(sorted, n_lines);
    }
    if (slot && slot->n_lines == n_lines && !memcmp(slot->lines, sorted, sizeof(mask) * (size_t)n_lines)) {
        for (int i = 0; i < slot->n_covers && st->n_pool + slot->n_pairs[i] <= MAX_POOL; i++) {
            cover *c = &st->covers[st->n_covers++];
            c->cells = slot->cells[i];
            c->first = st->n_pool;
            c->n = slot->n_pairs[i];
            memcpy(st->pool[st->n_pool], slot->pairs[i], sizeof(ss_cell[2]) * (size_t)c->n);
            st->n_pool += c->n;
        }
    } else {
        mask cells = NO_CELLS;
        for (int i = 0; i < n_lines; i++) cells |= lines[i];
        for (mask m = cells; any(m); m = without_lowest(m)) st->at[lowest_cell(m)] = 0;
        for (int i = 0; i < n_lines; i++)
            for (mask m = lines[i]; any(m); m = without_lowest(m)) st->at[lowest_cell(m)] |= word_bit(i);
        cover_walk w = {lines, n_lines, {{0}}, 0, first, 0, allowance, 0};
        walk(st, &w, 0, NO_CELLS);
        *cut = allowance < WALK_STEPS && w.cut;
        int fits = slot != NULL && !*cut;
        for (int i = first; i < st->n_covers; i++) fits &= st->covers[i].n <= CACHED_PAIRS;
        if (fits) {
            slot->n_lines = n_lines;
            memcpy(slot->lines, sorted, sizeof(mask) * (size_t)n_lines);
            slot->n_covers = st->n_covers - first;
            for (int i = 0; i < slot->n_covers; i++) {
                const cover *c = &st->covers[first + i];
                slot->cells[i] = c->cells;
                slot->n_pairs[i] = (int8_t)c->n;
                memcpy(slot->pairs[i], st->pool[c->first], sizeof(ss_cell[2]) * (size_t)c->n);
            }
        }
    }
    finish_group(st, g, first);
    return st->n_covers > first;
}

/* 2. Choosing one cover per group */

static int spent(pairing_state *st) { return st->budget && ++st->steps > st->budget; }

/* What the choice knows at one node of its search: the covers of each group still possible (bit i:
   covers[first + i]), the cells all of them share (the group's core: it will take them), and the cells
   taken (the chosen covers' and every core). A group's two words lie together, and a step copies only
   the groups there are (about 18 of MAX_GROUPS): the whole state is 1 KB, and copying it was a tenth of
   choose's samples in perf. */
typedef struct {
    uint64_t alive; /* the group's covers still possible (bit i: covers[first + i]) */
    mask core;   /* the cells they all share: the group will take them */
} group_choice;

typedef struct {
    mask taken;               /* the cells the chosen covers and the cores take */
    group_choice of[MAX_GROUPS]; /* each group's covers still possible */
} choice;

/* Drops the covers that use a cell another group takes, and takes the cores that grow, until nothing
   changes; only groups that can reach a cell taken anew (`fresh`) are looked at again. 0 when a group is
   left with no cover. The groups to look at come from the few fresh cells (groups_at), in the order of
   the groups, rather than from testing every group: most steps take a handful of cells. */
static int propagate(pairing_state *st, choice *k, mask fresh) {
    while (any(fresh)) {
        mask next = NO_CELLS;
        uint64_t reached = 0;
        for (mask m = fresh; any(m); m = without_lowest(m)) reached |= st->groups_at[lowest_cell(m)];
        for (uint64_t todo = reached & st->open; todo; todo &= todo - 1) {
            int g = word_lowest(todo);
            group_choice *of = &k->of[g];
            mask forbidden = k->taken & ~of->core, shared = ALL_CELLS;
            uint64_t keep = 0;
            const cover *c = st->covers + st->groups[g].first;
            /* without a branch: whether a cover clashes follows no pattern the processor can
               predict, and this test was a third of choose's samples in perf */
            for (uint64_t m = of->alive; m; m &= m - 1) {
                int i = word_lowest(m);
                mask cells = c[i].cells;
                int fits = !any(cells & forbidden);
                keep |= (uint64_t)fits << i;
                shared &= cells | every_cell_if(!fits); /* a clashing cover: all ones, no effect */
            }
            if (!keep) {
                st->used |= word_bit(g);
                return 0;
            }
            if (any(shared & ~of->core)) st->used |= word_bit(g);
            of->alive = keep;
            next |= shared & ~of->core; /* free of the others' cells: they were forbidden */
            k->taken |= shared;
            of->core = shared;
        }
        fresh = next;
    }
    return 1;
}

static int choose(pairing_state *st, const choice *before, mask fresh, int left) {
    if (!left) return 1;
    if (spent(st)) return 0;
    choice k;
    k.taken = before->taken;
    memcpy(k.of, before->of, sizeof(group_choice) * (size_t)st->n_groups);
    if (!propagate(st, &k, fresh)) return 0;
    int pick = -1, fewest = MAX_COVERS + 1;
    for (uint64_t todo = st->open; todo; todo &= todo - 1) {
        int g = word_lowest(todo);
        int fits = word_count(k.of[g].alive);
        if (fits < fewest) {
            fewest = fits;
            pick = g;
        }
    }
    const cover *c = st->covers + st->groups[pick].first;
    mask taken = k.taken;
    st->open &= ~word_bit(pick);
    st->used |= word_bit(pick);
    for (uint64_t m = k.of[pick].alive; m; m &= m - 1) {
        int i = word_lowest(m);
        st->chosen[pick] = st->groups[pick].first + i;
        k.taken = taken | c[i].cells;
        if (choose(st, &k, c[i].cells & ~k.of[pick].core, left - 1)) return 1;
        if (st->budget && st->steps > st->budget) break;
    }
    st->chosen[pick] = -1;
    st->open |= word_bit(pick);
    return 0;
}

/* 3. The search: the counts, the groups and their covers, the choice */

/* The groups: lines linked through shared pairs of cells (a union of the lines sharing two cells). */
static int root_of(int *parent, int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* 107 KB (980 KB on the 512-cell build, of which a search touches the little it uses), not on the stack:
   one per thread, reached through a plain pointer (a thread-local variable itself would cost a lookup at
   every use in the recursion); the search's first choice, 1 KB (8 KB), is not on the stack either. */
static _Thread_local pairing_state *mine;
static _Thread_local choice *start;

/* The groups of the lines free of the defender (none with fewer than two empty cells: lines_apart() has
   looked) and their lines, in st->members: 0 when they are more than the search holds (it gives up).
   Lines linked through two cells share them on the board, so they are of one family (board.h): the
   groups are made family by family, each family's few lines compared with each other only. */
static int make_groups(const ss_game *g, pairing_state *st, mask empty, mask defender) {
    for (int f = 0; f < g->n_families; f++) {
        mask *live = st->live, *whole = st->line_whole;
        int n = 0, *parent = st->parent;
        for (int at = g->family_start[f]; at < g->family_start[f + 1]; at++) {
            mask line = g->lines[g->family_line[at]];
            if (any(line & defender)) continue;
            mask gaps = line & empty;
            int keep = 1; /* a line whose gaps hold another's needs no pair of its own */
            for (int j = 0; j < n && keep; j++) {
                if (same(live[j] & gaps, live[j])) keep = 0;
                else if (same(live[j] & gaps, gaps)) {
                    n--;
                    whole[j] = whole[n];
                    live[j--] = live[n];
                }
            }
            if (!keep) continue;
            if (n == SS_MAX_CELLS * 4) return 0;
            whole[n] = line;
            live[n++] = gaps;
        }
        for (int i = 0; i < n; i++) parent[i] = i;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (more_than_one(live[i] & live[j])) parent[root_of(parent, i)] = root_of(parent, j);
        for (int i = 0; i < n; i++) {
            if (root_of(parent, i) != i) continue;
            int at = st->n_groups, first = st->member_first[at], m = 0;
            if (at == MAX_GROUPS) return 0;
            st->whole[at] = st->gaps[at] = NO_CELLS;
            for (int j = 0; j < n; j++) {
                if (root_of(parent, j) != i) continue;
                if (m == MAX_GROUP_LINES) return 0;
                st->members[first + m++] = live[j];
                st->whole[at] |= whole[j];
                st->gaps[at] |= live[j];
            }
            st->member_first[++st->n_groups] = first + m;
        }
    }
    return 1;
}

/* The pairing searches since the counts were last reset (ss_pairing_counts): how many, their walks'
   steps in all, and the most of one search; each thread's own (no shared word written per search), added
   to all threads' when it releases its buffers (a thread about to end) or reads them. */
static _Thread_local int64_t counted[3];
static int64_t all_counted[3];

static void count_in(void) {
    __atomic_fetch_add(&all_counted[0], counted[0], __ATOMIC_RELAXED);
    __atomic_fetch_add(&all_counted[1], counted[1], __ATOMIC_RELAXED);
    int64_t most = __atomic_load_n(&all_counted[2], __ATOMIC_RELAXED);
    while (counted[2] > most && !__atomic_compare_exchange_n(&all_counted[2], &most, counted[2], 0,
                                                              __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    counted[0] = counted[1] = counted[2] = 0;
}

void pairing_counts_fold(void) { count_in(); }

void pairing_release(void) {
    count_in();
    free(mine);
    free(start);
    free(cache);
    mine = NULL;
    start = NULL;
    cache = NULL;
}

/* The failure of the groups in `groups`. */
static pairing_failure failure_of(const pairing_state *st, uint64_t groups) {
    pairing_failure why = {NO_CELLS, NO_CELLS};
    for (uint64_t m = groups; m; m &= m - 1) {
        why.lines |= st->whole[word_lowest(m)];
        why.gaps |= st->gaps[word_lowest(m)];
    }
    return why;
}


static int search(const ss_game *g, mask attacker, mask defender, int64_t budget, mask *cells,
                  ss_cell (*pairs)[2], int *n_pairs, pairing_failure *why) {
    why->lines = why->gaps = NO_CELLS;
    if (!mine && !(mine = malloc(sizeof *mine))) return 0;
    pairing_state *st = mine;
    mask empty = g->full & ~(attacker | defender);
    st->steps = 0;
    st->budget = budget;
    st->walked = 0;
    st->walk_budget = budget ? WALKS_PER_STEP * budget : 0;
    st->n_groups = st->n_covers = st->n_pool = 0;
    st->member_first[0] = 0;
    if (g->n_phases) {
        int out = counted_out(g, attacker, defender, why);
        if (out == 2) return 0;
        /* a threat of the attacker's is a shorter reason, its line alone: lines_apart() names it */
        if (out == 1 && !any(threats_of(g, attacker, defender))) return 0;
        why->lines = why->gaps = NO_CELLS;
    }
    if (lines_apart(g, st, empty, defender, why) || !make_groups(g, st, empty, defender)) return 0;
    for (int at = 0; at < st->n_groups; at++) {
        int first = st->member_first[at], cut, allowance = WALK_STEPS;
        if (st->walk_budget) { /* what is left, shared evenly by the groups left */
            int64_t share = (st->walk_budget - st->walked) / (st->n_groups - at);
            if (share < MIN_WALK) return 0;
            if (share < allowance) allowance = (int)share;
        }
        if (!add_group(st, at, st->members + first, st->member_first[at + 1] - first, allowance, &cut)) {
            if (!cut) *why = failure_of(st, word_bit(at));
            return 0;
        }
    }
    if (!start && !(start = malloc(sizeof *start))) return 0;
    start->taken = NO_CELLS;
    st->open = st->n_groups == 64 ? ~(uint64_t)0 : word_bit(st->n_groups) - 1;
    memset(st->groups_at, 0, sizeof st->groups_at);
    for (int i = 0; i < st->n_groups; i++) {
        st->chosen[i] = -1;
        start->of[i].alive = st->groups[i].n == 64 ? ~(uint64_t)0 : word_bit(st->groups[i].n) - 1;
        start->of[i].core = NO_CELLS;
        st->reach[i] = NO_CELLS;
        for (int j = 0; j < st->groups[i].n; j++) st->reach[i] |= st->covers[st->groups[i].first + j].cells;
        for (mask m = st->reach[i]; any(m); m = without_lowest(m)) st->groups_at[lowest_cell(m)] |= word_bit(i);
    }
    st->used = 0;
    if (!choose(st, start, ALL_CELLS, st->n_groups)) {
        if (!(st->budget && st->steps > st->budget)) *why = failure_of(st, st->used);
        return 0;
    }
    *n_pairs = 0;
    *cells = NO_CELLS;
    for (int i = 0; i < st->n_groups; i++) {
        const cover *c = &st->covers[st->chosen[i]];
        *cells |= c->cells;
        for (int p = 0; p < c->n; p++) {
            pairs[*n_pairs][0] = st->pool[c->first + p][0];
            pairs[*n_pairs][1] = st->pool[c->first + p][1];
            (*n_pairs)++;
        }
    }
    return 1;
}

int pairing_search(const ss_game *g, mask attacker, mask defender, int64_t budget, mask *cells,
                   ss_cell (*pairs)[2], int *n_pairs, pairing_failure *why) {
    int found = search(g, attacker, defender, budget, cells, pairs, n_pairs, why);
    int64_t walked = mine ? mine->walked : 0;
    counted[0]++;
    counted[1] += walked;
    if (walked > counted[2]) counted[2] = walked;
    return found;
}

void ss_pairing_counts(int64_t *counts, int reset) {
    count_in();
    for (int i = 0; i < 3; i++) counts[i] = reset ? __atomic_exchange_n(&all_counted[i], 0, __ATOMIC_RELAXED)
                                                  : __atomic_load_n(&all_counted[i], __ATOMIC_RELAXED);
}

/* The pairing search's entry points for Python (sanmoku_search.h): a pairing for either side to move
   (the defender to move may first play a move of its own), and why the search found none. */

int ss_pairing_failure(const ss_game *g, ss_mask attacker, ss_mask defender, int64_t budget, ss_mask *lines,
                       ss_mask *gaps) {
    ss_cell pairs[SS_MAX_CELLS / 2][2];
    int n_pairs;
    mask cells;
    pairing_failure why;
    int found = pairing_search(g, mask_in(attacker), mask_in(defender), budget, &cells, pairs, &n_pairs, &why);
    *lines = mask_out(why.lines);
    *gaps = mask_out(why.gaps);
    return found;
}

int ss_pairing_find(const ss_game *g, ss_mask attacker_words, ss_mask defender_words, int defender_to_move,
                    int64_t budget, ss_cell *pairs, int *n_pairs, int32_t *first_move) {
    mask cells, attacker = mask_in(attacker_words), defender = mask_in(defender_words);
    pairing_failure why;
    *first_move = SS_NO_MOVE;
    if (pairing_search(g, attacker, defender, budget, &cells, (ss_cell(*)[2])pairs, n_pairs, &why)) return 1;
    if (!defender_to_move) return 0;
    for (mask m = g->full & ~(attacker | defender); any(m); m = without_lowest(m)) {
        int cell = lowest_cell(m);
        if (pairing_search(g, attacker, defender | bit(cell), budget, &cells, (ss_cell(*)[2])pairs, n_pairs, &why)) {
            *first_move = cell;
            return 1;
        }
    }
    return 0;
}
