"""Sanmoku's engine: the games, their solved tables and the search, behind one front door.

The engine has four wings, each a package that says what it owns and what it may import:
- `rules`: variants, positions, geometry, values (imports no other wing);
- `tables`: the retrograde solver, table files, the store and which table answers now (`supply`);
- `search`: the compiled search, the cache of proven positions, the opening books;
- `play`: policies, reviews, main lines, strength.

The front door is this module with `answer` (one shape for an answer from any source), `analyst` (the
one place that decides table, book, store or search) and `errors`. Code outside the engine (the HTTP
layer, the command line) imports from here only. No HTTP code lives in the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import on_first_use
from .analyst import Analyst, SearcherPool
from .answer import Answer, Answers, GameAnswers, Source, answers_from, table_answers
from .books.background import BookBuild, book_build_report
from .books.source import Books
from .books.supply import build_book_file, open_books, read_large_books
from .errors import (
    BuildRefusedError,
    ClusterUnavailableError,
    EngineError,
    IllegalMoveError,
    IllegalSequenceError,
    InvalidPositionError,
    NoBoardError,
    NoTableError,
    PolicyError,
    ProvenCacheError,
    SearchBusyError,
    SearcherBusyError,
    TableNotBuiltError,
    TableNotReadyError,
    TableUnavailableError,
    UnknownVariantError,
)
from .games import (
    GRID,
    OWN_VIEW,
    Game,
    board_variant,
    exact_values,
    game_of,
    get_game,
    listed_games,
    read_position,
    start_position,
)
from .play.heuristic import Reading, read_ahead
from .play.mainline import MainLine, main_line
from .play.policies import (
    DEFAULT_DEPTH,
    POLICIES,
    Policy,
    check_choice,
    choose_move,
    default_depth,
    get_policy,
    player,
)
from .play.review import (
    PlyReview,
    Review,
    SideSummary,
    Verdict,
    moves_from_boards,
    moves_from_columns,
    review_boards,
    review_game,
)
from .rules.canonical import ready_shapes
from .rules.eight import EIGHT, EightPosition
from .rules.game import GamePosition, GameRules, final_score
from .rules.geometry import MIN_DEPTH, Geometry, geometry_of, iter_cells
from .rules.known_move import Estimate, KnownMove
from .rules.notation import cell_name
from .rules.position import EMPTY, MARKS, Mark, Position, Status, other
from .rules.records import (
    MAX_RECORD_CHARS,
    RecordError,
    cells_of,
    moves_text,
    psq_size,
    psq_text,
    read_moves_text,
    read_psq,
    replayed,
)
from .rules.shape import Shape
from .rules.values import DECODED, Known, Result, Value
from .rules.variants import (
    LISTED,
    MAX_CELLS,
    MAX_SIDE,
    MAX_TABLE_CELLS,
    MIN_K,
    MIN_SIDE,
    MISERE,
    NAME_FORM,
    NAMING,
    NORMAL,
    PRESETS,
    VARIANTS,
    Variant,
    aliases,
    get_variant,
    supported_variants,
)
from .search import Budget, Cancel, Deadline
from .search.proven import DEFAULT_MAX_BYTES, ProvenCache
from .search.proven_file import Health
from .search.win_tree import WinTree
from .slots import FairSlots
from .sources import Sources, compose_sources
from .tables.build_plan import BuildPlan, check_resources, plan
from .tables.build_queue import BuildQueue, Waiting, work_through
from .tables.builder import build_queued
from .tables.progress import progress_for
from .tables.solver import SOLVER_VERSION, solve
from .tables.store import TableInfo, TableStore, default_directory, file_name
from .tables.stream import Chunk, Summary, chunks, lookups, positions, summarize
from .tables.supply import BACKGROUND_BUILD_CELLS, TableSupply, variants_at_start
from .tables.table import MOVE_VALUE, Lookup, Table
from .tables.table_file import TableFileError, file_size, mapped_file
from .teach import MAX_TREE_NODES, Algorithm, Cutoff, GameTree, Leaf, Lesson, TreeTooLargeError, Visit, lesson
from .teach import Node as TreeNode

# The command line's parts, imported on first use (`on_first_use`), so that a server's start does not
# wait for them.
if TYPE_CHECKING:
    from .books.build import book_positions, build_book
    from .books.check import sample_entries, verify_entries
    from .play.strength import Accuracy, Contender, Record, Strength, measure_strength, strength_table
    from .proven_check import audit as audit_proven
    from .rules.perft import count_games
    from .search.proof_number import unsound_because
    from .search.proof_run import Progress as ProofProgress
    from .search.proof_run import ProofRun, proof_lock


def __getattr__(name: str) -> Any:
    return on_first_use.resolve(name, globals())


__all__ = [
    "BACKGROUND_BUILD_CELLS",
    "DECODED",
    "DEFAULT_DEPTH",
    "DEFAULT_MAX_BYTES",
    "EIGHT",
    "EMPTY",
    "GRID",
    "LISTED",
    "MARKS",
    "MAX_CELLS",
    "MAX_RECORD_CHARS",
    "MAX_SIDE",
    "MAX_TABLE_CELLS",
    "MAX_TREE_NODES",
    "MIN_DEPTH",
    "MIN_K",
    "MIN_SIDE",
    "MISERE",
    "MOVE_VALUE",
    "NAME_FORM",
    "NAMING",
    "NORMAL",
    "OWN_VIEW",
    "POLICIES",
    "PRESETS",
    "SOLVER_VERSION",
    "VARIANTS",
    "Accuracy",
    "Algorithm",
    "Analyst",
    "Answer",
    "Answers",
    "BookBuild",
    "Books",
    "Budget",
    "BuildPlan",
    "BuildQueue",
    "BuildRefusedError",
    "Cancel",
    "Chunk",
    "ClusterUnavailableError",
    "Contender",
    "Cutoff",
    "Deadline",
    "EightPosition",
    "EngineError",
    "Estimate",
    "FairSlots",
    "Game",
    "GameAnswers",
    "GamePosition",
    "GameRules",
    "GameTree",
    "Geometry",
    "Health",
    "IllegalMoveError",
    "IllegalSequenceError",
    "InvalidPositionError",
    "Known",
    "KnownMove",
    "Leaf",
    "Lesson",
    "Lookup",
    "MainLine",
    "Mark",
    "NoBoardError",
    "NoTableError",
    "PlyReview",
    "Policy",
    "PolicyError",
    "Position",
    "ProofProgress",
    "ProofRun",
    "ProvenCache",
    "ProvenCacheError",
    "Reading",
    "Record",
    "RecordError",
    "Result",
    "Review",
    "SearchBusyError",
    "SearcherBusyError",
    "SearcherPool",
    "Shape",
    "SideSummary",
    "Source",
    "Sources",
    "Status",
    "Strength",
    "Summary",
    "Table",
    "TableFileError",
    "TableInfo",
    "TableNotBuiltError",
    "TableNotReadyError",
    "TableStore",
    "TableSupply",
    "TableUnavailableError",
    "TreeNode",
    "TreeTooLargeError",
    "UnknownVariantError",
    "Value",
    "Variant",
    "Verdict",
    "Visit",
    "Waiting",
    "WinTree",
    "aliases",
    "answers_from",
    "audit_proven",
    "board_variant",
    "book_build_report",
    "book_positions",
    "build_book",
    "build_book_file",
    "build_queued",
    "cell_name",
    "cells_of",
    "check_choice",
    "check_resources",
    "choose_move",
    "chunks",
    "compose_sources",
    "count_games",
    "default_depth",
    "default_directory",
    "exact_values",
    "file_name",
    "file_size",
    "final_score",
    "game_of",
    "geometry_of",
    "get_game",
    "get_policy",
    "get_variant",
    "iter_cells",
    "lesson",
    "listed_games",
    "lookups",
    "main_line",
    "mapped_file",
    "measure_strength",
    "moves_from_boards",
    "moves_from_columns",
    "moves_text",
    "open_books",
    "other",
    "plan",
    "player",
    "positions",
    "progress_for",
    "proof_lock",
    "psq_size",
    "psq_text",
    "read_ahead",
    "read_large_books",
    "read_moves_text",
    "read_position",
    "read_psq",
    "ready_shapes",
    "replayed",
    "review_boards",
    "review_game",
    "sample_entries",
    "solve",
    "start_position",
    "strength_table",
    "summarize",
    "supported_variants",
    "table_answers",
    "unsound_because",
    "variants_at_start",
    "verify_entries",
    "work_through",
]
