"""Sanmoku's engine: positions, variants and the exact solver. No HTTP code lives here."""

from __future__ import annotations

from .cache import CacheStats, TranspositionTable
from .errors import EngineError, IllegalMoveError, InvalidPositionError, UnknownVariantError
from .perft import count_games
from .policies import DEFAULT_DEPTH, POLICIES, Policy, PolicyError, choose_move, get_policy, player
from .position import EMPTY, MARKS, Position, Status, other
from .search import Analysis, MoveValue, Result, Solver, Value
from .solve import SolveTable, Summary, reachable, representative, solve_table
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
    "Analysis",
    "CacheStats",
    "EngineError",
    "IllegalMoveError",
    "InvalidPositionError",
    "MoveValue",
    "Policy",
    "PolicyError",
    "Position",
    "Result",
    "SolveTable",
    "Solver",
    "Status",
    "Summary",
    "TranspositionTable",
    "UnknownVariantError",
    "Value",
    "Variant",
    "choose_move",
    "count_games",
    "get_policy",
    "get_variant",
    "other",
    "player",
    "reachable",
    "representative",
    "solve_table",
    "warm_solvers",
]
