"""A game as the registry knows it (in the manner of GamesmanOne's game interface): what it is, how its
positions are read and started, how a page shows it, and what it can do. Each capability is optional,
and its comment says what leaving it out turns off: a source that needs one asks the game for it, never
what kind of game it is.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..rules.game import GamePosition, GameRules
from ..rules.position import Position
from ..rules.values import Value
from ..tables.table import Lookup
from ..teach.evaluations import Evaluation

GRID, OWN_VIEW = "grid", "own"  # how a page lays a game out: a board's cells in rows, or a view of its own


class WholeTable(Protocol):
    """A table that holds every position of its game (as `Table` does for a board's)."""

    def value(self, position: GamePosition) -> Value: ...

    def lookup(self, position: GamePosition) -> Lookup: ...


@dataclass(frozen=True)
class Game:
    rules: GameRules  # its name and its rules in one sentence
    read: Callable[[str, str | None], GamePosition]  # a position from its text and the side to move, checked
    start: Callable[[str], GamePosition]  # the first position, given who moves first
    view: str  # GRID or OWN_VIEW
    # Capabilities: each None turns off what its comment says.
    # A table solved whole in memory, made on first use. Without it the board's sources answer.
    whole_table: Callable[[], WholeTable] | None = None
    # The position as a board of marks (k in a row): the solved tables, the books, the cache and the
    # compiled search answer it. Without it a game needs a whole table.
    board: Callable[[GamePosition], Position] | None = None
    # A guess at a position's worth: /tree's horizon and its ordering. Without it /tree answers 422.
    evaluation: Evaluation | None = None

    @property
    def name(self) -> str:
        return self.rules.name
