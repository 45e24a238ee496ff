"""Heuristic estimates of the moves no proof settled, made to be compared and to be repeated.

- One common depth for every move: the heuristic favours the side that moved last, so a score read an
  odd number of plies ahead cannot be ranked against one read an even number (on 8×8 five in a row the
  same move read +68 at three plies and -24 at four). The moves are deepened together, and the last
  depth every move completed is kept.
- A node budget, not a time: the same position and budget then give the same estimates on any machine
  and at any load. It follows from the request's budget (`estimate_nodes`); the deadline still stops
  the estimates (then the last depth completed by every move is kept, as when the nodes run out).
- A table of their own, cleared first: what earlier searches left in the shared table (proofs, best
  moves) would change the scores and the nodes spent from one request to the next.
"""

from __future__ import annotations

from ..rules.known_move import Estimate
from .budget import Budget, Spending
from .native import Game, Limits, TranspositionTable, estimate

ESTIMATE_NODES_PER_SECOND = 40_000  # of the request's budget: about 0.15 s of it on this kind of machine
ESTIMATE_NODE_SHARE = 0.15  # of a node budget
ESTIMATE_TABLE_BITS = 12  # 2**12 buckets (256 KB): these searches are shallow and short


def estimate_nodes(budget: Budget) -> int:
    """The nodes the estimates of one analysis may spend, from its budget (1 s when it has none). The
    time is what is left of a request's budget when its search starts (a little less than asked): it is
    rounded to a tenth of a second first, so that those few milliseconds do not change the count."""
    if budget.nodes is not None:
        return max(1, int(budget.nodes * ESTIMATE_NODE_SHARE))
    seconds = 1.0 if budget.seconds is None else budget.seconds
    if seconds >= 0.05:
        seconds = round(seconds, 1)
    return max(1, int(seconds * ESTIMATE_NODES_PER_SECOND))


def common_depth_estimates(
    game: Game,
    table: TranspositionTable,
    mine: int,
    theirs: int,
    cells: list[int],
    empty_after: int,
    nodes: int,
    spending: Spending,
) -> dict[int, Estimate]:
    """The estimate of each move in `cells` (for the side that plays it), all read to the deepest depth
    that every one of them completed within `nodes` (and the spending's deadline). A move whose game
    ends within the horizon keeps the depth at which that was seen: deeper reads the same."""
    table.clear()
    kept: dict[int, Estimate] = {}
    ended: dict[int, Estimate] = {}
    used = 0
    for below in range(1, empty_after + 1):  # plies below the move
        found: dict[int, Estimate] = {}
        for cell in cells:
            if cell in ended:
                found[cell] = ended[cell]
                continue
            share = spending.share()
            left = nodes - used
            if left <= 0 or spending.spent:
                return kept
            limits = Limits(share.deadline, min(left, share.nodes) if share.nodes else left, share.cancel)
            outcome = estimate(game, table, theirs, mine | 1 << cell, below, limits)
            spending.charge(outcome)
            used += outcome.nodes
            if outcome.stopped:  # this depth is not complete for every move
                return kept
            found[cell] = Estimate(-outcome.estimate, outcome.depth + 1)
            if outcome.depth < below:  # the game ends within the horizon
                ended[cell] = found[cell]
        kept = found
        if len(ended) == len(cells):
            break
    return kept
