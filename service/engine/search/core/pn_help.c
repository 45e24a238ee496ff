/* A second thread's help with a question at its root (families.c): the moves it settled taken in, and
   the moves settled here told to it. */
#include "dfpn.h"

/* At the root (the attacker to move): the moves the helper settled taken in, as a sibling's zone prunes
   them (pn_prune_moves); and the moves settled here told to the helper, which skips them. */
void pn_absorb_help(pn_search *s, pn_node n, pn_children *ch) {
    pn_help *h = s->help;
    uint64_t disproven = __atomic_load_n(&h->disproven, __ATOMIC_ACQUIRE);
    uint64_t proven = __atomic_load_n(&h->proven, __ATOMIC_ACQUIRE);
    uint64_t settled = 0;
    int taken = 0;
    for (int i = 0; i < ch->n; i++) {
        int cell = ch->cell[i];
        if (cell == NULL_MOVE) continue;
        if (ch->pn[i] && ch->dn[i] && ((disproven | proven) & bit(cell))) {
            int won = (proven & bit(cell)) != 0;
            ch->pn[i] = won ? 0 : PN_INF;
            ch->dn[i] = won ? PN_INF : 0;
            ch->zone[i] = h->zone[cell];
            pt_store(s->t, child_of(n, cell), ch->pn[i], ch->dn[i], ch->zone[i], 0, SS_BY_SEARCH, NULL_MOVE);
            taken = 1;
        }
    }
    if (taken) pn_prune_moves(s, n, ch);
    for (int i = 0; i < ch->n; i++)
        if (ch->cell[i] != NULL_MOVE && (!ch->pn[i] || !ch->dn[i])) settled |= bit(ch->cell[i]);
    __atomic_fetch_or(&h->settled_at_root, settled, __ATOMIC_RELAXED);
}

int pn_helper_settled(const pn_help *h, int cell) {
    if (cell == NULL_MOVE) return 0;
    uint64_t settled = __atomic_load_n(&h->disproven, __ATOMIC_RELAXED) | __atomic_load_n(&h->proven, __ATOMIC_RELAXED);
    return (settled & bit(cell)) != 0;
}

int pn_helped_move(const pn_search *s, pn_node n, pn_value *out) {
    uint64_t added = n.att ^ s->root_att;
    if (n.att_to_move || !added) return 0; /* the root's pass */
    const pn_help *h = s->help;
    int cell = lowest_cell(added);
    uint64_t disproven = __atomic_load_n(&h->disproven, __ATOMIC_ACQUIRE);
    uint64_t proven = __atomic_load_n(&h->proven, __ATOMIC_ACQUIRE);
    if (!((disproven | proven) & bit(cell))) return 0;
    int won = (proven & bit(cell)) != 0;
    out->pn = won ? 0 : PN_INF;
    out->dn = won ? PN_INF : 0;
    out->zone = h->zone[cell];
    out->rule = SS_BY_SEARCH;
    return 1;
}
