"""Exact negamax over the whole game, one search per symmetry class.

Values are from the side to move: score +1/0/-1 and remoteness, the plies to the end under
perfect play (the winner hurries, the loser delays).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .cache import CacheStats, TranspositionTable
from .geometry import geometry_of
from .position import Position
from .variants import Variant


class Result(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class Value(NamedTuple):
    score: int
    remoteness: int

    @property
    def result(self) -> Result:
        return (Result.LOSS, Result.DRAW, Result.WIN)[self.score + 1]

    def preference(self) -> tuple[int, int]:
        """Sort key, smaller first: better result, then the faster win or the slower loss."""
        return (-self.score, self.remoteness if self.score > 0 else -self.remoteness)

    def after_move(self) -> Value:
        """This value of the child, seen by the side that moved into it."""
        return Value(-self.score, self.remoteness + 1)


@dataclass(frozen=True)
class MoveValue:
    cell: int
    value: Value


@dataclass(frozen=True)
class Analysis:
    position: Position
    value: Value
    moves: tuple[MoveValue, ...]  # best first, ties by cell

    @property
    def best_moves(self) -> tuple[int, ...]:
        return tuple(m.cell for m in self.moves if m.value == self.value)

    @property
    def best_move(self) -> int | None:
        return self.moves[0].cell if self.moves else None


class Solver:
    """Solves one variant; every position's value is searched once and kept in the table."""

    def __init__(self, variant: Variant, capacity: int = 1_000_000) -> None:
        self.variant = variant
        self.table: TranspositionTable[Value] = TranspositionTable(capacity)
        self._geometry = geometry_of(variant)
        # A line made by the side that just moved: it lost under misère, it won otherwise.
        self._line_made = Value(1, 0) if variant.misere else Value(-1, 0)

    def warm_up(self) -> CacheStats:
        self.value(Position.empty(self.variant))
        return self.table.stats()

    def value(self, position: Position) -> Value:
        self._check_variant(position)
        return self._value(position.mine, position.theirs)

    def analyze(self, position: Position) -> Analysis:
        self._check_variant(position)
        mine, theirs = position.mine, position.theirs
        moves = [
            MoveValue(cell, self._value(theirs, mine | (1 << cell)).after_move())
            for cell in position.legal_moves()
        ]
        moves.sort(key=lambda m: (m.value.preference(), m.cell))
        return Analysis(position, self._value(mine, theirs), tuple(moves))

    def _check_variant(self, position: Position) -> None:
        if position.variant != self.variant:
            raise ValueError(f"a {position.variant.name} position given to the {self.variant.name} solver")

    def _value(self, mine: int, theirs: int) -> Value:
        key = self._geometry.key(mine, theirs)
        value = self.table.get(key)
        if value is None:
            value = self._search(mine, theirs)
            self.table.put(key, value)
        return value

    def _search(self, mine: int, theirs: int) -> Value:
        geometry = self._geometry
        if geometry.holds_line(theirs):
            return self._line_made
        empty = geometry.full & ~(mine | theirs)
        if not empty:
            return Value(0, 0)
        best: Value | None = None
        while empty:
            bit = empty & -empty
            empty ^= bit
            candidate = self._value(theirs, mine | bit).after_move()
            if best is None or candidate.preference() < best.preference():
                best = candidate
        assert best is not None
        return best
