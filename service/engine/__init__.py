"""Sanmoku's engine: variants, positions, the retrograde solver and its tables. No HTTP code lives here."""

from __future__ import annotations

from .build_plan import BuildPlan, check_resources, plan
from .build_queue import BuildQueue, Waiting, work_through
from .errors import (
    BuildRefusedError,
    EngineError,
    IllegalMoveError,
    InvalidPositionError,
    UnknownVariantError,
)
from .geometry import MIN_DEPTH, Geometry, geometry_of
from .mainline import MainLine, main_line
from .perft import count_games
from .policies import DEFAULT_DEPTH, POLICIES, Policy, PolicyError, choose_move, get_policy, player
from .position import EMPTY, MARKS, Mark, Position, Status, other
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
from .solve import Chunk, Summary, analyses, chunks, positions, summarize
from .solver import SOLVER_VERSION, solve
from .store import TableInfo, TableStore, default_directory
from .strength import Accuracy, Contender, Record, Strength, measure_strength, strength_table
from .table import Analysis, MoveValue, Table
from .table_file import TableFileError
from .values import Result, Value
from .variants import MISERE, NAMING, NORMAL, PRESETS, VARIANTS, Variant, get_variant, supported_variants

__all__ = [
    "DEFAULT_DEPTH",
    "EMPTY",
    "MARKS",
    "MIN_DEPTH",
    "MISERE",
    "NAMING",
    "NORMAL",
    "POLICIES",
    "PRESETS",
    "SOLVER_VERSION",
    "VARIANTS",
    "Accuracy",
    "Analysis",
    "BuildPlan",
    "BuildQueue",
    "BuildRefusedError",
    "Chunk",
    "Contender",
    "EngineError",
    "Geometry",
    "IllegalMoveError",
    "IllegalSequenceError",
    "InvalidPositionError",
    "MainLine",
    "Mark",
    "MoveValue",
    "PlyReview",
    "Policy",
    "PolicyError",
    "Position",
    "Record",
    "Result",
    "Review",
    "SideSummary",
    "Status",
    "Strength",
    "Summary",
    "Table",
    "TableFileError",
    "TableInfo",
    "TableStore",
    "UnknownVariantError",
    "Value",
    "Variant",
    "Verdict",
    "Waiting",
    "analyses",
    "check_resources",
    "choose_move",
    "chunks",
    "count_games",
    "default_directory",
    "geometry_of",
    "get_policy",
    "get_variant",
    "main_line",
    "measure_strength",
    "moves_from_boards",
    "other",
    "plan",
    "player",
    "positions",
    "review_boards",
    "review_game",
    "solve",
    "strength_table",
    "summarize",
    "supported_variants",
    "work_through",
]
