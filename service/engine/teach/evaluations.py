"""A named static evaluation: a guess at a position's worth, for the side to move, read without looking
ahead. A tree with no table reads it at its leaves, and alpha-beta with ordering tries the children with
the best guess first. Each game names its own (the registry of games: `games`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..rules.game import GamePosition


@dataclass(frozen=True)
class Evaluation:
    name: str
    description: str
    of: Callable[[GamePosition], int]  # from the side to move; larger is better
