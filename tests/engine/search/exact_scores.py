"""The compiled search's exact scores, for comparisons with the tables (a table value's score is
`score_of` it)."""

from __future__ import annotations

from service.engine import Value, Variant
from service.engine.search import Board
from service.engine.search.native import (
    BIG,
    GOAL_SCORE,
    SCORE_MAX,
    SCORE_MIN,
    Game,
    Limits,
    TranspositionTable,
    prove,
)


def score_of(value: Value, marks: int, cells: int) -> int:
    """The core's score of a position's value: the game ends with `end` marks on the board."""
    end = marks + value.remoteness
    return value.score * (BIG - end) if value.score else 0


class Prover:
    """The compiled search's exact score of positions of one board, with no limit (for comparisons
    with tables: `score_of` gives a table value's score)."""

    def __init__(self, variant: Variant, bits: int = 20) -> None:
        self.board = Board.of(variant)
        self.game, self.table = Game(self.board), TranspositionTable(bits)
        self.limits = Limits(deadline=0.0, nodes=0)

    def bounds(self, mine: int, theirs: int) -> tuple[int, int]:
        """The proven lower and upper bounds of the score of the side to move (equal: exact)."""
        outcome = prove(self.game, self.table, mine, theirs, GOAL_SCORE, self.limits, SCORE_MIN, SCORE_MAX)
        return outcome.lower, outcome.upper
