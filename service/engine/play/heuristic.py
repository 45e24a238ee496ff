"""A depth-limited negamax with alpha-beta pruning and a static evaluation at the horizon.

This is a difficulty level, not a solver: it never consults exact values, so a shallow search
misjudges positions the way a player who reads only a few plies ahead would.

Scores are from the side to move. A finished game scores ``WIN - ply`` for the winner (``ply`` counted
from the root), so a nearer win outranks a farther one and a loser prefers the farther loss. The static
evaluation stays far below ``WIN`` less the longest game, so a forced result always outranks any guess.
"""

from __future__ import annotations

from ..rules.geometry import MIN_DEPTH, Geometry
from ..rules.position import Position

WIN = 1000
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


def depth_limited_move(position: Position, depth: int) -> int:
    """The move with the best score read `depth` plies ahead; ties go to the lowest cell."""
    _check_depth(depth, position)
    moves = position.legal_moves()
    if not moves:
        raise ValueError("depth_limited_move needs a position with a legal move")
    search = _Search(position)
    mine, theirs = position.mine, position.theirs
    best_cell, best = moves[0], -_INFINITY
    for cell in moves:
        # Searching with alpha = best keeps later moves that only tie from displacing an earlier one.
        score = -search.negamax(theirs, mine | (1 << cell), depth - 1, 1, -_INFINITY, -best)
        if score > best:
            best_cell, best = cell, score
    return best_cell


class _Search:
    def __init__(self, position: Position) -> None:
        self.geometry = position.geometry
        self.misere = position.variant.misere

    def negamax(self, mine: int, theirs: int, depth: int, ply: int, alpha: int, beta: int) -> int:
        geometry = self.geometry
        if geometry.holds_line(theirs):
            # The side that just moved made a line: it won, or under misère it lost.
            return WIN - ply if self.misere else ply - WIN
        moves = geometry.playable(mine | theirs)  # none only on a full board, gravity or not
        if not moves:
            return 0
        if depth == 0:
            return _static(geometry, mine, theirs, self.misere)
        best = -_INFINITY
        while moves:
            bit = moves & -moves
            moves ^= bit
            score = -self.negamax(theirs, mine | bit, depth - 1, ply + 1, -beta, -alpha)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best


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
