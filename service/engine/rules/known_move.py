"""What is known of one move, for the side that plays it: the one record every source gives (a table,
a book, the cache, the search). A table or a book knows the exact value; the search and the store
may know only bounds on the result (at least / at most a draw), the result without its remoteness, or a
guess, which is never a proof.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .values import Known, Result, Value

_RESULTS = {1: Result.WIN, 0: Result.DRAW, -1: Result.LOSS}


@dataclass(frozen=True)
class Estimate:
    """A heuristic score for the side that plays the move (larger is better), read `depth` plies ahead;
    never a proof."""

    score: int
    depth: int


class KnownMove(NamedTuple):  # a tuple, not a dataclass: made by the thousand near the end of a game
    cell: int  # the move (a board's cell, Eight's pick)
    lower: int  # the least result score (-1, 0, +1) proven for the side that plays the move
    upper: int  # the greatest; lower == upper: the result is proven
    remoteness: int | None  # plies to the end counting the move, proven only with the result
    estimate: Estimate | None = None  # a guess where the result is not proven, when one was asked for
    within: int | None = None  # with the result proven and not its remoteness: the most plies it takes

    @classmethod
    def exactly(cls, cell: int, value: Value) -> KnownMove:
        return cls(cell, value.score, value.score, value.remoteness)

    @property
    def result(self) -> Result | None:
        return _RESULTS[self.lower] if self.lower == self.upper else None

    @property
    def known(self) -> Known:
        return Known(self.lower, self.upper, self.remoteness)

    @property
    def value(self) -> Value | None:
        """The exact value (result and remoteness), when both are proven."""
        if self.lower != self.upper or self.remoteness is None:
            return None
        return Value(self.lower, self.remoteness)

    @property
    def exact_value(self) -> Value:
        """The exact value of a move whose source knows it (a table, a book): ValueError otherwise."""
        value = self.value
        if value is None:
            raise ValueError(f"the move {self.cell} is not known exactly")
        return value
