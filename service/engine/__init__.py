"""Sanmoku's engine: variants, positions, the retrograde solver and its tables. No HTTP code lives here."""

from __future__ import annotations

from .errors import (
    BuildRefusedError,
    EngineError,
    IllegalMoveError,
    InvalidPositionError,
    UnknownVariantError,
)
from .play.mainline import MainLine, main_line
from .play.policies import DEFAULT_DEPTH, POLICIES, Policy, PolicyError, choose_move, get_policy, player
from .play.review import (
    IllegalSequenceError,
    PlyReview,
    Review,
    SideSummary,
    Verdict,
    moves_from_boards,
    review_boards,
    review_game,
)
from .play.strength import Accuracy, Contender, Record, Strength, measure_strength, strength_table
from .rules.geometry import MIN_DEPTH, Geometry, geometry_of
from .rules.perft import count_games
from .rules.position import EMPTY, MARKS, Mark, Position, Status, other
from .rules.values import Result, Value
from .rules.variants import (
    MISERE,
    NAMING,
    NORMAL,
    PRESETS,
    VARIANTS,
    Variant,
    get_variant,
    supported_variants,
)
from .tables.build_plan import BuildPlan, check_resources, plan
from .tables.build_queue import BuildQueue, Waiting, work_through
from .tables.solver import SOLVER_VERSION, solve
from .tables.store import TableInfo, TableStore, default_directory
from .tables.stream import Chunk, Summary, analyses, chunks, positions, summarize
from .tables.table import Analysis, MoveValue, Table
from .tables.table_file import TableFileError

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
