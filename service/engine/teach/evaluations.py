"""Named static evaluations: a guess at a position's worth, for the side to move, read without looking
ahead. A tree with no table reads them at its leaves, and alpha-beta with ordering tries the children
with the best guess first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..games import board_of
from ..play.heuristic import static_value
from ..rules.eight import EIGHT, EightPosition
from ..rules.game import GamePosition


@dataclass(frozen=True)
class Evaluation:
    name: str
    description: str
    of: Callable[[GamePosition], int]  # from the side to move; larger is better


def _open_lines(position: GamePosition) -> int:
    board = board_of(position)
    if board is None:
        raise ValueError(f"open-lines evaluates boards, not {position.variant.name}")
    return static_value(board)


def _multiple_of_four(position: GamePosition) -> int:
    if not isinstance(position, EightPosition):
        raise ValueError(f"multiple-of-four evaluates Eight, not {position.variant.name}")
    return -1 if (EIGHT.target - position.total) % 4 == 0 else 1


OPEN_LINES = Evaluation(
    "open-lines",
    "each line only the side to move has marks on counts the square of its marks, each line only the "
    "other side has counts against; two lines a mark short (a fork) add 6; negated under misère",
    _open_lines,
)
MULTIPLE_OF_FOUR = Evaluation(
    "multiple-of-four",
    "+1 when the total is short of 8 by anything but a multiple of 4, else -1: without the rule "
    "against repeating a pick, the side to move would win by leaving the other a multiple of 4",
    _multiple_of_four,
)
# Games that are not boards name their own; every board uses open lines.
_BY_GAME = {EIGHT.name: MULTIPLE_OF_FOUR}


def evaluation_of(position: GamePosition) -> Evaluation:
    return _BY_GAME.get(position.variant.name, OPEN_LINES)
