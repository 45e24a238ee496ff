"""The search engine for boards past the tables (up to 8x8, normal or misère, flat or torus, with or
without gravity): a compiled bitboard negamax (core/, through cffi) that proves each move's result and
then its remoteness within a budget, and says which it did not prove."""

from __future__ import annotations

from .board import Board
from .budget import Budget, Cancel
from .engine import EngineBusyError, SearchEngine
from .report import Estimate, MoveProof, SearchReport

__all__ = [
    "Board",
    "Budget",
    "Cancel",
    "EngineBusyError",
    "Estimate",
    "MoveProof",
    "SearchEngine",
    "SearchReport",
]
