/* What the proof-number search's files share (dfpn.c, zones.c, threads.c): one search's state, what
   settles a node, a node's children and a node's value. */
#ifndef SS_PN_SEARCH_H
#define SS_PN_SEARCH_H

#include <stdint.h>

#include "pairing.h"
#include "dfpn_table.h"

/* A second thread's help with one question whose attacker is to move (threads.c): the attacker's moves
   there it settled, each asked as a question of its own on its own table. The question's search takes
   them in at its root (pn_absorb_help in dfpn.c) and marks the moves it settled itself, for the helper to
   skip. Masks of cells, read and written atomically; a move's zone is written before its bit. */
typedef struct {
    mask disproven, proven; /* by the helper */
    mask zone[SS_MAX_CELLS]; /* the zone of the helper's answer about each move */
    mask settled_at_root;   /* by the question's own search */
    int32_t focus;              /* the move the search is in (SS_NO_MOVE: none): the helper takes others */
    int32_t stop;               /* set when the question's search returns: the helper stops */
    double deadline;            /* the question's (0: none) */
} pn_help;

/* ss_pn_prove_families (threads.c; entry.c calls it). */
void pn_prove_families(const ss_game *g, ss_pn_family *families, ss_pn_helper *h, double root_share,
                       double round_share, const ss_budget *budget, const ss_pn_options *options);

/* ss_pn_prove with a helper's answers taken in at the root (help: NULL for none). */
void pn_prove_helped(const ss_game *g, ss_pn_table *t, mask att, mask def, int att_to_move,
                     const ss_budget *budget, const ss_pn_options *options, pn_help *help, ss_pn_result *result);

/* How much of the costlier checks (the threat sequence, the pairing) a node gets: none (a child looked
   at by the defender's node); when first seen as a child of the attacker's (LOOK_AHEAD: the threat
   sequence within a tenth of the nodes, the pairing); when expanded (EXPAND). Both searches give the
   same answer every time they are asked the same position with the same budget, so a node expanded
   after its look-ahead skips the pairing (EXPAND_AFTER_LOOK: the same steps failed), and a node expanded
   again (df-pn comes back to a node each time its thresholds grow) skips both (EXPAND_AGAIN): on random
   7x7k5 positions, 2.1 million pairing searches for 0.83 million nodes before. */
enum { SHALLOW = 0, LOOK_AHEAD = 1, EXPAND = 2, EXPAND_AFTER_LOOK = 3, EXPAND_AGAIN = 4 };
enum { NULL_MOVE = -1, MAX_CHILDREN = SS_MAX_CELLS + 1 };
enum { OPEN = 0, PROVEN = 1, DISPROVEN = 2 };

/* One question's search. */
typedef struct {
    const ss_game *g;  /* the board */
    ss_pn_table *t;    /* the table it searches on */
    meter m;           /* the budget, nodes and depth */
    /* positions closed by a pairing, by a threat sequence; pairing searches run; entries inherited by
       monotony (pt_inherited); replies and moves settled by a zone (ss_pn_result) */
    int64_t pairings, threat_wins, pairing_calls, inherited, pruned;
    int focus; /* the root's child searched last */
    pn_help *help; /* another thread's answers about the root's moves (NULL: none) */
    mask root_att; /* the attacker's marks at the root: a move's node below it holds one more */
    int abandon;       /* the helper settled the root's move searched now: unwind to its node */
    pairing_memo unpaired; /* the pairing searches that failed last (pairing.h) */
    int guard;             /* proof zones with their guard cells: 1 but in the test that shows the need */
    int probe_plies;       /* the defender's replies are probed fewer plies than this below the root */
    int64_t probe_nodes;   /* the first allowance of a probed reply; 0: none probed, df-pn alone */
    int attacker_pass;     /* ss_pn_options.attacker_pass */
} pn_search;

/* What a node settles before any search. */
typedef struct {
    int status;     /* OPEN, PROVEN or DISPROVEN */
    int rule;       /* what settled it: SS_BY_PAIRING, SS_BY_THREATS, else SS_BY_SEARCH */
    mask zone;  /* DISPROVEN: its disproof's zone; PROVEN: its proof's (zones.c) */
    mask cut;   /* OPEN, defender to move: the cells that rule out the moves not in `moves`... */
    int cut_guard;  /* ... with the guard of three cells per line (pn_cut_zone()) */
    int forced;     /* OPEN, attacker to move: the one cell it must take, else NULL_MOVE */
    int unpaired;   /* OPEN, attacker to move: it has no pairing (none found, or none by monotony) */
    mask moves; /* OPEN, defender to move: the moves worth searching */
} pn_class;

/* A node's children, best first, with what is known of each. */
typedef struct {
    int n;                                       /* how many */
    ss_cell cell[MAX_CHILDREN];                   /* the move to each (NULL_MOVE: the attacker's pass) */
    uint32_t pn[MAX_CHILDREN], dn[MAX_CHILDREN]; /* their proof and disproof numbers */
    mask zone[MAX_CHILDREN];                  /* a solved child's zone (0: not known) */
    ss_cell reply[MAX_CHILDREN]; /* the move that settled the child (its entry's `reply`; NULL_MOVE: none) */
} pn_children;

/* What a node's search gives back. */
typedef struct {
    uint32_t pn, dn; /* its proof and disproof numbers */
    mask zone;    /* solved: the zone its proof or disproof depends on (0: not known) */
    int rule;  /* solved before expansion: what settled it */
    int reply; /* the move that settled it: a disproven defender's reply, a proven attacker's move */
} pn_value;

static inline pn_node child_of(pn_node n, int cell) {
    pn_node c = n;
    if (cell != NULL_MOVE) {
        if (n.att_to_move) c.att |= bit(cell);
        else c.def |= bit(cell);
    }
    c.att_to_move = !n.att_to_move;
    return c;
}

/* The value of n, stored, when pn_settle (with `deep` of its checks) settles it before its children are
   searched: 1; else 0, with what pn_settle found in `k` (dfpn.c). */
int pn_settled_at_once(pn_search *s, pn_node n, int deep, pn_class *k, pn_value *out);
/* df-pn's search of the node n within the thresholds (dfpn.c); `killer`: a move to try first. */
pn_value pn_mid(pn_search *s, pn_node n, uint32_t thpn, uint32_t thdn, int ply, int killer);
/* The defender's node n, not in the table as solved, solved by probing its replies (dfpn.c), where
   pn_probing() says so. */
pn_value pn_probe_replies(pn_search *s, pn_node n, int ply, int killer);
int pn_probing(const pn_search *s, pn_node n, int ply);

/* What settles `n` before it is searched, with `deep` of the costlier checks (SHALLOW ... EXPAND_AGAIN:
   dfpn.c). */
void pn_settle(pn_search *s, pn_node n, pn_class *c, int deep);
/* The zone that rules out the defender's moves pn_settle cut (dfpn.c). */
mask pn_cut_zone(const ss_game *g, int guard, pn_node n, const pn_class *c);

/* The child i's numbers from the table (or inherited), else from what settles it, then kept in the
   table (dfpn.c). */
void pn_look_at(pn_search *s, pn_node n, pn_children *ch, int i);
/* Append the moves of `moves` best first for the side to move, `killer` first of all when it is one of
   them, each looked at; stop at one that settles the node (dfpn.c). */
void pn_add_moves(pn_search *s, pn_node n, mask moves, pn_children *ch, int killer);

/* The zones of solved nodes, and the children they settle without search (zones.c). */
mask pn_disproof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch);
mask pn_proof_zone(pn_search *s, pn_node n, const pn_class *k, const pn_children *ch);
void pn_prune_replies(pn_search *s, pn_node n, pn_children *ch);
void pn_prune_moves(pn_search *s, pn_node n, pn_children *ch);
void pn_prune_outside(pn_search *s, pn_node n, pn_children *ch, mask zone);

/* A second thread's answers about the root's moves (dfpn.c). Below the root, at a node of one of its
   moves, pn_helped_move gives the helper's answer about that move, if it has one (the search in it ends
   at once, rather than when it next comes back to the root); a search deeper in that move sees the
   answer come (pn_helper_settled) and unwinds to the move's node (`abandon`). */
void pn_absorb_help(pn_search *s, pn_node n, pn_children *ch);
int pn_helped_move(const pn_search *s, pn_node n, pn_value *out);
int pn_helper_settled(const pn_help *h, int cell);

#endif
