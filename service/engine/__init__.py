"""Sanmoku's engine: positions, variants and the exact solver. No HTTP code lives here."""

from __future__ import annotations

from .cache import CacheStats, TranspositionTable
from .errors import EngineError, IllegalMoveError, InvalidPositionError, UnknownVariantError
from .mainline import MainLine, main_line
from .perft import count_games
from .policies import DEFAULT_DEPTH, POLICIES, Policy, PolicyError, choose_move, get_policy, player
from .position import EMPTY, MARKS, Position, Status, other
from .review import (
    IllegalSequenceError,
    PlyReview,
    Review,
    SideSummary,
    Verdict,
    moves_from_boards,
    review_boards,
    review_game,
)
from .search import Analysis, MoveValue, Result, Solver, Value
from .solve import SolveTable, Summary, reachable, representative, solve_table
from .strength import Accuracy, Contender, Record, Strength, measure_strength, strength_table
from .variants import MISERE, NORMAL, VARIANTS, Variant, get_variant


def warm_solvers() -> dict[str, Solver]:
    """One solver per registered variant, each with its cache filled."""
    solvers = {name: Solver(variant) for name, variant in VARIANTS.items()}
    for solver in solvers.values():
        solver.warm_up()
    return solvers


__all__ = [
    "DEFAULT_DEPTH",
    "EMPTY",
    "MARKS",
    "MISERE",
    "NORMAL",
    "POLICIES",
    "VARIANTS",
    "Accuracy",
    "Analysis",
    "CacheStats",
    "Contender",
    "EngineError",
    "IllegalMoveError",
    "IllegalSequenceError",
    "InvalidPositionError",
    "MainLine",
    "MoveValue",
    "PlyReview",
    "Policy",
    "PolicyError",
    "Position",
    "Record",
    "Result",
    "Review",
    "SideSummary",
    "SolveTable",
    "Solver",
    "Status",
    "Strength",
    "Summary",
    "TranspositionTable",
    "UnknownVariantError",
    "Value",
    "Variant",
    "Verdict",
    "choose_move",
    "count_games",
    "get_policy",
    "get_variant",
    "main_line",
    "measure_strength",
    "moves_from_boards",
    "other",
    "player",
    "reachable",
    "representative",
    "review_boards",
    "review_game",
    "solve_table",
    "strength_table",
    "warm_solvers",
]
