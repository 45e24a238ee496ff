"""The search wing: values for boards past the tables (up to 8x8, normal or misère, flat or torus, with
or without gravity). A compiled bitboard negamax (`core/`, through cffi: `native`) that proves each
move's result and then its remoteness within a budget and says which it did not prove (`searcher`,
`board`, `budget`, `report`); the cache of positions proven before, shared by every process
(`proven`). The opening books are a wing of their own (`engine.books`).

Imports the rules wing only.
"""

from __future__ import annotations

from ..rules.known_move import Estimate, KnownMove
from .board import Board
from .budget import Budget, Cancel, Deadline
from .report import SearchReport
from .searcher import Searcher

__all__ = [
    "Board",
    "Budget",
    "Cancel",
    "Deadline",
    "Estimate",
    "KnownMove",
    "SearchReport",
    "Searcher",
]
