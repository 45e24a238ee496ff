"""Eight's solved table: the value of every (total, last pick), for the side to move, solved whole in
memory (a few dozen positions) by backing the ends of the game up, as the board tables are solved."""

from __future__ import annotations

from functools import cache
from typing import cast

from ..rules.eight import EIGHT, EightPosition
from ..rules.game import GamePosition, final_score
from ..rules.known_move import KnownMove
from ..rules.values import Value
from .table import Lookup


class EightTable:
    """The table of Eight; answers as a board's `Table` does (`value`, `lookup`)."""

    variant = EIGHT

    def __init__(self) -> None:
        # by total, highest first: every child of a position has the higher total
        self.values: dict[tuple[int, int], Value] = {}
        for total, last in sorted(EIGHT.reachable, reverse=True):
            self.values[total, last] = self._backed_up(total, last)

    @property
    def positions(self) -> int:
        return len(self.values)

    def value(self, position: GamePosition) -> Value:
        return self.values[_key(position)]

    def lookup(self, position: GamePosition) -> Lookup:
        total, last = _key(position)
        moves = sorted(
            (
                KnownMove.exactly(pick, self.values[total + pick, pick].after_move())
                for pick in EIGHT.moves(total, last)
            ),
            key=lambda move: (move.exact_value.preference(), move.cell),
        )
        return Lookup(position, self.values[total, last], tuple(moves))

    def _backed_up(self, total: int, last: int) -> Value:
        picks = EIGHT.moves(total, last)
        if not picks:
            return Value(final_score(EightPosition(total, last, EightPosition.start().to_move)), 0)
        return min((self.values[total + p, p].after_move() for p in picks), key=Value.preference)


def _key(position: GamePosition) -> tuple[int, int]:
    eight = cast(EightPosition, position)  # the registry of games hands this table Eight's positions only
    return eight.total, eight.last


@cache
def eight_table() -> EightTable:
    return EightTable()
