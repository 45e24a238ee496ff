"""A depth-limited negamax with alpha-beta pruning and a static evaluation at the horizon.

This is a difficulty level, not a solver: it never consults exact values, so a shallow search
misjudges positions the way a player who reads only a few plies ahead would.

Scores are from the side to move. A finished game scores ``WIN - ply`` for the winner (``ply`` counted
from the root), so a nearer win outranks a farther one and a loser prefers the farther loss. The static
evaluation stays far below ``WIN`` less the longest game, so a forced result always outranks any guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..rules.geometry import MIN_DEPTH, Geometry
from ..rules.position import Position

WIN = 1000
STOP_EVERY = 256  # nodes between two questions to `stop`: about 5 ms of Python on 8x8
# Two or more lines each one mark short: one cannot answer both.
FORK_BONUS = 6
_INFINITY = WIN + 1


def _check_depth(depth: int, position: Position) -> None:
    # Callers validate user input (see policies); this guards the engine's own calls.
    deepest = position.geometry.max_depth
    if not MIN_DEPTH <= depth <= deepest:
        raise ValueError(f"depth {depth} is not between {MIN_DEPTH} and {deepest}")


def static_value(position: Position) -> int:
    """The horizon's guess from the side to move, without reading any move ahead.

    Normal rules: each line that holds marks of the side to move and none of the other side's scores
    the square of its marks (1, 4, 9, ...), less the same for the other side; a side with two or more
    such lines that lack only one mark (a fork) gets FORK_BONUS.
    Misère: the same number negated, because a line of your own marks is a trap you must avoid filling
    and two of them leave you fewer safe cells, so every term counts against its owner.
    """
    return _static(position.geometry, position.mine, position.theirs, position.variant.misere)


def search_value(position: Position, depth: int) -> int:
    """The negamax score of `position` read `depth` plies ahead, from the side to move."""
    _check_depth(depth, position)
    search = _Search(position)
    return search.negamax(position.mine, position.theirs, depth, 0, -_INFINITY, _INFINITY)


@dataclass(frozen=True)
class Reading:
    """The move chosen and how many plies ahead it was read: the depth asked, or fewer when `stop` said
    so first (the deepest read that was finished)."""

    cell: int
    depth: int


def depth_limited_move(position: Position, depth: int) -> int:
    """The move with the best score read `depth` plies ahead; ties go to the lowest cell."""
    return read_ahead(position, depth).cell


def read_ahead(position: Position, depth: int, stop: Callable[[], bool] | None = None) -> Reading:
    """`depth_limited_move`, read one ply deeper at a time while `stop` (asked every STOP_EVERY nodes)
    says to go on: the move of the deepest read finished. One ply is always read."""
    _check_depth(depth, position)
    moves = position.legal_moves()
    if not moves:
        raise ValueError("depth_limited_move needs a position with a legal move")
    search = _Search(position, stop)
    reading = Reading(_best_move(search, position, moves, 1), 1)
    for plies in range(2, depth + 1):
        try:
            reading = Reading(_best_move(search, position, moves, plies), plies)
        except _StoppedError:
            break
    return reading


def _best_move(search: _Search, position: Position, moves: list[int], depth: int) -> int:
    mine, theirs = position.mine, position.theirs
    best_cell, best = moves[0], -_INFINITY
    for cell in moves:  # in cell order, so that ties go to the lowest cell
        # Searching with alpha = best keeps later moves that only tie from displacing an earlier one.
        score = -search.negamax(theirs, mine | (1 << cell), depth - 1, 1, -_INFINITY, -best)
        if score > best:
            best_cell, best = cell, score
    return best_cell


class _StoppedError(Exception):
    """`stop` said so: the read under way is given up."""


class _Search:
    def __init__(self, position: Position, stop: Callable[[], bool] | None = None) -> None:
        self.geometry = position.geometry
        self.misere = position.variant.misere
        self.stop, self.nodes = stop, 0
        self.order = _tried_first(self.geometry)

    def negamax(self, mine: int, theirs: int, depth: int, ply: int, alpha: int, beta: int) -> int:
        geometry = self.geometry
        if geometry.holds_line(theirs):
            # The side that just moved made a line: it won, or under misère it lost.
            return WIN - ply if self.misere else ply - WIN
        self.nodes += 1
        if self.stop is not None and self.nodes % STOP_EVERY == 0 and self.stop():
            raise _StoppedError
        moves = geometry.playable(mine | theirs)  # none only on a full board, gravity or not
        if not moves:
            return 0
        if depth == 0:
            return _static(geometry, mine, theirs, self.misere)
        best = -_INFINITY
        # The cells on the most lines first: the moves that matter come early and cut the rest off
        # (8x8, depth 3: 4,800 horizon positions instead of about 100,000; the scores are the same).
        for bit in self.order:
            if not moves & bit:
                continue
            score = -self.negamax(theirs, mine | bit, depth - 1, ply + 1, -beta, -alpha)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best


@cache
def _tried_first(geometry: Geometry) -> tuple[int, ...]:
    """Every cell's bit, the cells on the most lines first (then by cell)."""
    through = geometry.lines_through
    return tuple(1 << cell for cell in sorted(range(geometry.cells), key=lambda c: (-through[c], c)))


def _static(geometry: Geometry, mine: int, theirs: int, misere: bool) -> int:
    score = 0
    my_threats = their_threats = 0
    for line in geometry.lines:
        m, t = (line & mine).bit_count(), (line & theirs).bit_count()
        if t == 0:
            score += m * m
            my_threats += m == geometry.k - 1
        elif m == 0:
            score -= t * t
            their_threats += t == geometry.k - 1
    score += FORK_BONUS * ((my_threats >= 2) - (their_threats >= 2))
    return -score if misere else score
