"""The k-in-a-row boards (the m,n,k family with its options: torus, gravity, misère): every name the
variants' grammar reads is a game, answered by the tables, the books, the cache and the search."""

from __future__ import annotations

from functools import cache
from typing import cast

from ..play.heuristic import static_value
from ..rules.game import GamePosition
from ..rules.position import Position
from ..rules.variants import LISTED, NAMING, Variant, get_variant
from ..teach.evaluations import Evaluation
from .game import GRID, Game

OPEN_LINES = Evaluation(
    "open-lines",
    "each line only the side to move has marks on counts the square of its marks, each line only the "
    "other side has counts against; two lines a mark short (a fork) add 6; negated under misère",
    lambda position: static_value(_board(position)),
)


def _board(position: GamePosition) -> Position:
    return cast(Position, position)  # the registry hands this family its own positions only


@cache
def board_game(variant: Variant) -> Game:
    return Game(
        rules=variant,
        read=lambda text, to_move: Position.parse(text, to_move, variant),
        start=lambda first: Position.empty(variant, first),
        view=GRID,
        board=_board,
        evaluation=OPEN_LINES,
    )


class Boards:
    """The family: `parse` a name into a game (UnknownVariantError says how to name one)."""

    naming = NAMING

    def parse(self, name: str) -> Game:
        return board_game(get_variant(name))

    @property
    def listed(self) -> list[Game]:
        return [board_game(variant) for variant in LISTED]
