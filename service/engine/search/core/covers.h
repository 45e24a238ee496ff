/* The covers of one group of lines for the pairing search (pairing.c): sets of disjoint pairs of the
   group's empty cells such that every line of the group holds one of the pairs. */
#ifndef SS_COVERS_H
#define SS_COVERS_H

#include <stdint.h>

#include "board.h"

enum { MAX_GROUPS = 64, MAX_GROUP_LINES = 64, MAX_COVERS = 48, MAX_POOL = 8192 };

typedef struct {
    uint64_t cells; /* the cover's paired cells */
    int first, n;   /* its pairs: pool[first .. first + n) */
} cover;

typedef struct {
    int first, n; /* its covers: covers[first .. first + n) */
} group;

/* One pairing search's groups and their covers. */
typedef struct {
    int64_t steps, budget;
    group groups[MAX_GROUPS];
    int n_groups;
    cover covers[MAX_GROUPS * MAX_COVERS];
    int n_covers;
    int8_t pool[MAX_POOL][2];
    int n_pool;
    int chosen[MAX_GROUPS];   /* the cover of each group, -1: none yet */
    uint64_t open;            /* the groups with no cover chosen yet */
    uint64_t reach[MAX_GROUPS]; /* the cells of all the group's covers */
    uint64_t groups_at[SS_MAX_CELLS]; /* the groups whose reach holds the cell */
    uint64_t whole[MAX_GROUPS], gaps[MAX_GROUPS]; /* all the cells of the group's lines; the empty ones */
    uint64_t used; /* the groups the search's reasoning used: they took cells, were chosen or failed */
} pairing_state;

/* Appends the group of `lines` (each line's empty cells) with its covers, fewest cells first, at most
   MAX_COVERS, none using a superset of another's cells; 0 when it has none (or none was found). */
int add_group(pairing_state *st, const uint64_t *lines, int n_lines);

/* Frees the calling thread's cache of the groups' covers (a thread about to end calls it). */
void covers_release(void);

#endif
