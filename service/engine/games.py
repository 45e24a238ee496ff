"""The registry of games: every m,n,k board (named by the variants' grammar, answered by the tables'
supply, the store of proven positions and the search) and, by name, each game that is not a board,
which brings its own reader of positions and its own table, solved whole in memory.

Whoever serves a game asks here and reads positions through `GamePosition`; nothing else needs to know
which kind of game it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .rules.eight import EIGHT, EightPosition
from .rules.game import GamePosition, GameRules
from .rules.position import Position
from .rules.values import Value
from .rules.variants import Variant, get_variant
from .tables.eight import eight_table
from .tables.table import Lookup, Table


class WholeTable(Protocol):
    """A table that holds every position of its game (as `Table` does for a board)."""

    def value(self, position: GamePosition) -> Value: ...

    def lookup(self, position: GamePosition) -> Lookup: ...


@dataclass(frozen=True)
class SolvedGame:
    """A game that is not a board: its facts, how its positions are read, and its table."""

    rules: GameRules
    read: Callable[[str, str | None], GamePosition]  # (position as text, side to move or None)
    start: Callable[[str], GamePosition]  # the first position, given who moves first
    table: Callable[[], WholeTable]  # solved on first use, then kept


SOLVED_GAMES: dict[str, SolvedGame] = {
    EIGHT.name: SolvedGame(EIGHT, EightPosition.parse, EightPosition.start, eight_table),
}


def get_game(name: str) -> GameRules:
    """The game of that name: a game that is not a board, else the board variant (UnknownVariantError
    says what is supported)."""
    solved = SOLVED_GAMES.get(name)
    return solved.rules if solved is not None else get_variant(name)


def read_position(name: str, text: str, to_move: str | None = None) -> GamePosition:
    """A position of the game called `name`, read from its text (InvalidPositionError unless legal)."""
    solved = SOLVED_GAMES.get(name)
    if solved is not None:
        return solved.read(text, to_move)
    return Position.parse(text, to_move, get_variant(name))


def start_position(name: str, first: str = "X") -> GamePosition:
    solved = SOLVED_GAMES.get(name)
    return solved.start(first) if solved is not None else Position.empty(get_variant(name), first)


def whole_table(position: GamePosition) -> WholeTable | None:
    """The table of a game solved whole in memory; None for a board (the analyst's sources answer it)."""
    solved = SOLVED_GAMES.get(position.variant.name)
    return None if solved is None else solved.table()


def board_of(position: GamePosition) -> Position | None:
    """The position as a board's, or None for a game that is not a board."""
    return position if isinstance(position, Position) else None


def exact_values(
    position: GamePosition, board_table: Callable[[Variant], Table | None]
) -> Callable[[GamePosition], Value] | None:
    """The exact values of the positions of `position`'s game, from its table (`board_table` gives a
    board's, if one answers now), or None when no table does."""
    whole = whole_table(position)
    if whole is not None:
        return whole.value
    board = board_of(position)
    table = None if board is None else board_table(board.variant)
    if table is None:
        return None
    found = table

    def value(other: GamePosition) -> Value:
        other_board = board_of(other)
        if other_board is None:
            raise ValueError(f"a {other.variant.name} position given to the {found.variant.name} table")
        return found.value(other_board)

    return value
