"""The threats first: before the proof-number search's questions share the budget out evenly
(results.py), the moves a threat settles in a few nodes are asked about first.

On gomoku's boards a question's first node costs about a millisecond (each reply of the defender is
probed, dfpn.c), and a position has some 200 moves with two questions each. Shared in even rounds, the
budget of a second gave each question a node or two, and a move that makes an open four, or starts a
sequence of fours, was not reached: an open three on 15x15 stayed unproven for three seconds. Asked
first, with a few nodes each, such a move is proven in a few nodes, since a defender's node facing two
threats closes at once and one facing a four has one reply (dfpn.c, settle_defender; threats.c).

The moves asked first are those that make a threat: each empty cell of a line free of the opponent's
marks holding k - 3 of the mover's or more, those of fuller lines first. Nothing is claimed here that
the proof-number search does not prove; this only chooses which questions it is asked first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .budget import Spending
from .native import Limits, Question

# Nodes for each threat move's question whether it wins: a defender facing two threats closes at its
# first node, and a sequence of fours is found by the threat search at the attacker's next node.
THREAT_NODES = 8
# The share of the results' budget these questions may take at most (most take a few milliseconds).
THREATS_SHARE = 0.25
# Lines holding fewer of the mover's marks than k - FARTHEST are not threats one move can make.
FARTHEST = 3


def threat_moves(
    lines: Iterable[int], k: int, mine: int, theirs: int, open_cells: Iterable[int]
) -> list[int]:
    """The open cells that make a threat of the side with `mine`, best first: by the most marks of a
    line free of `theirs` through the cell, then by how many such lines, then by cell."""
    fullest: dict[int, tuple[int, int]] = {}
    wanted = set(open_cells)
    for line in lines:
        if line & theirs:
            continue
        held = (line & mine).bit_count()
        if held < k - FARTHEST:
            continue
        empty = line & ~mine
        while empty:
            low = empty & -empty
            cell = low.bit_length() - 1
            empty ^= low
            if cell in wanted:
                most, count = fullest.get(cell, (0, 0))
                fullest[cell] = (max(most, held), count + 1)
    return sorted(fullest, key=lambda cell: (-fullest[cell][0], -fullest[cell][1], cell))


def ask_threats_first(
    moves: list[int], wins: Callable[[int, Limits], Question | None], spending: Spending
) -> None:
    """Ask `wins(cell, limits)` (None: nothing left to ask of that move) for each of `moves` in turn,
    with THREAT_NODES nodes each, within THREATS_SHARE of `spending`'s time, charged to it."""
    part = spending.part(THREATS_SHARE)
    for cell in moves:
        if part.spent:
            return
        limits = part.share()
        question = wins(cell, Limits(limits.deadline, THREAT_NODES, limits.cancel))
        if question is not None:
            part.charge(question)
