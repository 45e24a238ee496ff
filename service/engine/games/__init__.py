"""The registry of games: the one list of families, and the one place that knows which family a name
or a position belongs to. Adding a game is a module in this package and one line in FAMILIES.

A family parses names into games (`Game`: what a game is and what it can do). Sources of answers, the
HTTP layer and the command line ask a game for a capability (`Game.whole_table`, `Game.board`,
`Game.evaluation`) and never what kind of game it is. The registry sits above the wings whose parts
its entries name (a table solved in memory, an evaluation), below the front door.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..errors import NoBoardError
from ..rules.game import GamePosition
from ..rules.values import Value
from ..rules.variants import Variant, get_variant
from ..tables.table import Table
from ..teach.evaluations import Evaluation
from .eight import EightFamily
from .game import GRID, OWN_VIEW, Game, WholeTable
from .mnk import Boards, board_game


class Family(Protocol):
    naming: str  # how its games are named, in one sentence

    def parse(self, name: str) -> Game | None:
        """The game of that name; None when the name is not of this family (or UnknownVariantError
        saying why a name of its form names no game)."""
        ...

    @property
    def listed(self) -> list[Game]: ...  # what GET /variants lists, in order


# The families, in the order names are tried (the boards' grammar last: it says why a name is wrong).
FAMILIES: tuple[Family, ...] = (EightFamily(), Boards())


def get_game(name: str) -> Game:
    """The game of that name (UnknownVariantError says how to name one)."""
    for family in FAMILIES:
        game = family.parse(name)
        if game is not None:
            return game
    raise AssertionError("the boards' family names every game or says why not")  # pragma: no cover


def board_variant(
    name: str, takes: str = "this takes a board's variant (GET /variants lists them)"
) -> Variant:
    """The board variant of that name: a game without a board (Eight) is refused as such (NoBoardError,
    `takes` saying what is wanted instead), not as a name no one knows."""
    if get_game(name).board is None:
        raise NoBoardError(name, takes)
    return get_variant(name)


def game_of(position: GamePosition) -> Game:
    return get_game(position.variant.name)


def listed_games() -> list[Game]:
    return [game for family in FAMILIES for game in family.listed]


def read_position(name: str, text: str, to_move: str | None = None) -> GamePosition:
    """A position of the game called `name`, read from its text (InvalidPositionError unless legal)."""
    return get_game(name).read(text, to_move)


def start_position(name: str, first: str = "X") -> GamePosition:
    return get_game(name).start(first)


def exact_values(
    position: GamePosition, board_table: Callable[[Variant], Table | None]
) -> Callable[[GamePosition], Value] | None:
    """The exact values of the positions of `position`'s game: from its whole table, else from its
    board's table (`board_table` gives one if it answers now), else None (only a search could say)."""
    game = game_of(position)
    if game.whole_table is not None:
        return game.whole_table().value
    board = game.board
    table = None if board is None else board_table(board(position).variant)
    if board is None or table is None:
        return None
    found, as_board = table, board
    return lambda other: found.value(as_board(other))


__all__ = [
    "FAMILIES",
    "GRID",
    "OWN_VIEW",
    "Evaluation",
    "Family",
    "Game",
    "WholeTable",
    "board_game",
    "exact_values",
    "game_of",
    "get_game",
    "listed_games",
    "read_position",
    "start_position",
]
