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
   A live line with fewer than two empty cells is a threat (or a completed line): no pairing. Capping the
   covers (and the steps of a group's walk) keeps the search sound (a pairing found is one) but may miss
   a pairing; so does the budget, which counts the steps of the second level.
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
} pairing_state;

/* 1. Enumerating a group's covers, depth-first: the first line not yet covered, each pair of its free cells,
   the pairs serving most lines first; a cover is kept when no cover kept before uses a subset of its
   cells (and replaces those that use a superset). At most WALK_STEPS steps per group.

   Sibling positions of a search share most of their groups (a move changes at most four), so each
   thread keeps the covers of the groups it has seen in a direct-mapped cache, keyed by the group's lines
   (compared whole, not by a hash alone: a collision costs a walk, never a wrong cover). Groups of more
   than CACHED_LINES lines, or covers of more than CACHED_PAIRS pairs, are walked every time. */
enum { WALK_STEPS = 4096, CACHED_LINES = 8, CACHED_PAIRS = 8, CACHE_SLOTS = 4096 };

typedef struct {
    const mask *lines; /* the group's live lines, as their empty cells */
    int n_lines;          /* how many */
    ss_cell stack[SS_MAX_CELLS / 2][2]; /* the pairs chosen so far */
    int depth;            /* how many */
    int first_cover;      /* the group's first cover in the state's covers */
    int steps; /* of this group's walk: at most WALK_STEPS */
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
    if (++w->steps > WALK_STEPS) return;
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
    /* each pair with the lines it serves, most first */
    enum { MAX_PAIRS = 128 };
    mask pair_cells[MAX_PAIRS];
    uint64_t serves[MAX_PAIRS];
    int n_pairs = 0;
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n && n_pairs < MAX_PAIRS; b++) {
            mask p = bit(cells[a]) | bit(cells[b]);
            uint64_t lines = 0;
            for (int i = 0; i < w->n_lines; i++)
                if (same(w->lines[i] & p, p)) lines |= word_bit(i);
            int j = n_pairs++;
            for (; j > 0 && word_count(serves[j - 1]) < word_count(lines); j--) {
                pair_cells[j] = pair_cells[j - 1];
                serves[j] = serves[j - 1];
            }
            pair_cells[j] = p;
            serves[j] = lines;
        }
    }
    for (int j = 0; j < n_pairs; j++) {
        mask p = pair_cells[j];
        w->stack[w->depth][0] = (ss_cell)lowest_cell(p);
        w->stack[w->depth][1] = (ss_cell)lowest_cell(without_lowest(p));
        w->depth++;
        walk(st, w, covered | serves[j], used | p);
        w->depth--;
        if (w->steps > WALK_STEPS) return;
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

static void finish_group(pairing_state *st, int first) {
    for (int i = first + 1; i < st->n_covers; i++) { /* insertion sort by the number of cells */
        cover c = st->covers[i];
        int j = i;
        for (; j > first && count(st->covers[j - 1].cells) > count(c.cells); j--) st->covers[j] = st->covers[j - 1];
        st->covers[j] = c;
    }
    st->groups[st->n_groups].first = first;
    st->groups[st->n_groups].n = st->n_covers - first;
    st->n_groups++;
}

/* Appends the group of `lines` (each line's empty cells) with its covers, fewest cells first, at most
   MAX_COVERS, none using a superset of another's cells; 0 when it has none (or none was found). */
static int add_group(pairing_state *st, const mask *lines, int n_lines) {
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
        cover_walk w = {lines, n_lines, {{0}}, 0, first, 0};
        walk(st, &w, 0, NO_CELLS);
        int fits = slot != NULL;
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
    finish_group(st, first);
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

/* The groups: lines linked through shared pairs of cells (a union of the lines sharing two cells). */
static int root_of(int *parent, int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
}

/* About 100 KB, not on the stack: one per thread, reached through a plain pointer (a thread-local
   variable itself would cost a lookup at every use in the recursion); the search's first choice, 1 KB,
   is not on the stack either. */
static _Thread_local pairing_state *mine;
static _Thread_local choice *start;

void pairing_release(void) {
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

int pairing_search(const ss_game *g, mask attacker, mask defender, int64_t budget, mask *cells,
                   ss_cell (*pairs)[2], int *n_pairs, pairing_failure *why) {
    why->lines = why->gaps = NO_CELLS;
    if (!mine && !(mine = malloc(sizeof *mine))) return 0;
    pairing_state *st = mine;
    mask empty = g->full & ~(attacker | defender);
    st->steps = 0;
    st->budget = budget;
    st->n_groups = st->n_covers = st->n_pool = 0;
    /* Lines linked through two cells share them on the board, so they are of one family (board.h): the
       groups are made family by family, each family's few lines compared with each other only. */
    for (int f = 0; f < g->n_families; f++) {
        mask live[SS_MAX_CELLS * 4], whole[SS_MAX_CELLS * 4];
        int n = 0, parent[SS_MAX_CELLS * 4];
        for (int at = g->family_start[f]; at < g->family_start[f + 1]; at++) {
            mask line = g->lines[g->family_line[at]];
            if (any(line & defender)) continue;
            mask gaps = line & empty;
            if (!more_than_one(gaps)) {
                why->lines = line;
                why->gaps = gaps;
                return 0;
            }
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
        mask members[MAX_GROUP_LINES];
        for (int i = 0; i < n; i++) {
            if (root_of(parent, i) != i) continue;
            int m = 0, at = st->n_groups;
            if (at == MAX_GROUPS) return 0;
            st->whole[at] = st->gaps[at] = NO_CELLS;
            for (int j = 0; j < n; j++) {
                if (root_of(parent, j) != i) continue;
                if (m == MAX_GROUP_LINES) return 0;
                members[m++] = live[j];
                st->whole[at] |= whole[j];
                st->gaps[at] |= live[j];
            }
            if (!add_group(st, members, m)) {
                *why = failure_of(st, word_bit(at));
                return 0;
            }
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
