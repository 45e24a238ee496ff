"""Eight, the first game tree of the articles Sanmoku grew from (rules/eight.py): a game of its own
name, answered whole from its table."""

from __future__ import annotations

from typing import cast

from ..rules.eight import EIGHT, EightPosition
from ..rules.game import GamePosition
from ..tables.eight import eight_table
from ..teach.evaluations import Evaluation
from .game import OWN_VIEW, Game

MULTIPLE_OF_FOUR = Evaluation(
    "multiple-of-four",
    "+1 when the total is short of 8 by anything but a multiple of 4, else -1: without the rule "
    "against repeating a pick, the side to move would win by leaving the other a multiple of 4",
    lambda position: -1 if (EIGHT.target - cast(EightPosition, position).total) % 4 == 0 else 1,
)

GAME = Game(
    rules=EIGHT,
    read=EightPosition.parse,
    start=EightPosition.start,
    view=OWN_VIEW,
    whole_table=eight_table,
    evaluation=MULTIPLE_OF_FOUR,
)


class EightFamily:
    """A family of one game, by its name."""

    naming = "'eight' names Eight"

    def parse(self, name: str) -> Game | None:
        return GAME if name == EIGHT.name else None

    @property
    def listed(self) -> list[Game]:
        return [GAME]


def eight_position(position: GamePosition) -> EightPosition:
    return cast(EightPosition, position)  # the registry hands Eight's table its own positions only
