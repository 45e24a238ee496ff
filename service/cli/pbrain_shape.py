"""The best guess among moves the analysis left unproven, for `sanmoku pbrain`: a move's shape, the
lines of k cells through it that one side alone holds, weighted by how many of their cells that side
already has.

On 15x15 the analysis' own estimates do not rank such moves: the proofs take the budget first. Measured
here with one or two stones on each side near the centre: a 1 s analysis made no estimate at all, so the
first move it listed was cell 0, the top-left corner; a 3 s one read two plies and scored (4,4), three
cells from any stone, as high as (7,4). A line counted here is one a side could still
complete, so a cell that extends one's own lines or cuts the opponent's ranks first, and a cell far from
every stone ranks by the lines through it only (the centre's are the most).
"""

from __future__ import annotations

from functools import lru_cache

from ..engine import Position, Variant, geometry_of

# A line's weight by the marks its side has on it: each mark more multiplies it. The lines a move extends
# weigh a little more than those it cuts, so that a four of one's own goes before the opponent's three.
ATTACK_BASE = 12
DEFENCE_BASE = 10


@lru_cache(maxsize=8)
def _lines_through(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """For each cell, the masks of the lines that pass through it."""
    geometry = geometry_of(variant)
    through: list[list[int]] = [[] for _ in range(geometry.cells)]
    for line in geometry.lines:
        cell, rest = 0, line
        while rest:
            low = rest & -rest
            cell = low.bit_length() - 1
            through[cell].append(line)
            rest ^= low
    return tuple(tuple(lines) for lines in through)


def shape_score(position: Position, cell: int) -> int:
    """How much `cell` extends the side to move's open lines and cuts the opponent's."""
    mine, theirs = position.mine, position.theirs
    score = 0
    for line in _lines_through(position.variant)[cell]:
        if not line & theirs:
            score += ATTACK_BASE ** (line & mine).bit_count()
        if not line & mine:
            score += DEFENCE_BASE ** (line & theirs).bit_count()
    return score
