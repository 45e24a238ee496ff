"""The compiled core for Python: its game and transposition table as owned objects (freed with their
owner), and its two calls with typed arguments and results. cffi releases the GIL during each call."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from ._core import ffi, lib
from .board import Board

SCORE_MIN: int = lib.SS_SCORE_MIN
SCORE_MAX: int = lib.SS_SCORE_MAX
BIG: int = lib.SS_BIG
HEURISTIC_UNIT: int = lib.SS_HEURISTIC_UNIT
NO_MOVE: int = lib.SS_NO_MOVE
GOAL_RESULT: int = lib.SS_GOAL_RESULT
GOAL_SCORE: int = lib.SS_GOAL_SCORE
MAX_CELLS: int = lib.SS_MAX_CELLS
DEFAULT_TABLE_BITS = 19  # 2**19 buckets of 64 bytes (3 positions each): 32 MB per engine


def monotonic() -> float:
    """The clock the core's deadlines are read on."""
    return float(lib.ss_monotonic())


NO_CANCEL: Any = ffi.NULL  # a call no flag can stop


@dataclass(frozen=True)
class Limits:
    """One call's budget: an absolute deadline on `monotonic()`, a node count (0: none of either), and
    the cancel flag's cell (Cancel.cell in budget.py; NO_CANCEL: none)."""

    deadline: float
    nodes: int
    cancel: Any = NO_CANCEL


class Outcome(NamedTuple):  # a tuple, not a dataclass: one per call, and calls near the end are many
    lower: int  # proven bounds on the score of the side to move
    upper: int
    best_move: int | None
    depth: int
    estimate: int  # ss_estimate only
    stopped: bool
    nodes: int
    seconds: float
    cutoffs: int  # nodes whose other moves a move scoring at least beta made needless
    tt_hits: int  # transposition-table probes that found the position


class Described(Protocol):
    """A board as data, all the core takes of a game (search/board.py's Board is one)."""

    @property
    def name(self) -> str: ...
    @property
    def cells(self) -> int: ...
    @property
    def lines(self) -> tuple[int, ...]: ...  # the winning sets of cells (misère: the losing ones)
    @property
    def waits(self) -> tuple[int | None, ...]: ...  # the cell each cell waits for (gravity), or None
    @property
    def misere(self) -> bool: ...


class Game:
    """A board's rules in the core, made from the board as data (ss_board: its cells, lines, each cell's
    wait-cell, misère); immutable, so threads may share it (`Game.of`: one per board)."""

    @staticmethod
    @lru_cache(maxsize=64)  # one per board, as `Board.of` (whose boards this keeps)
    def of(board: Board) -> Game:
        return Game(board)

    def __init__(self, board: Described) -> None:
        self.board = board
        lines = ffi.new("ss_mask[]", list(board.lines))
        waits = ffi.NULL
        if any(wait is not None for wait in board.waits):
            waits = ffi.new("int32_t[]", [lib.SS_NO_CELL if wait is None else wait for wait in board.waits])
        description = ffi.new("ss_board *")
        description.cells, description.misere = board.cells, int(board.misere)
        description.lines, description.n_lines, description.waits = lines, len(board.lines), waits
        pointer = lib.ss_game_new(description)
        if pointer == ffi.NULL:
            raise ValueError(f"the search core refused the {board.name} board")
        self.pointer: Any = ffi.gc(pointer, lib.ss_game_free)


class TranspositionTable:
    """2**bits buckets of 3 positions; one caller at a time (not thread-safe); clears itself when given
    another game."""

    def __init__(self, bits: int = DEFAULT_TABLE_BITS) -> None:
        pointer = lib.ss_table_new(bits)
        self.bits = bits
        if pointer == ffi.NULL:
            raise MemoryError(f"no transposition table of 2**{bits} buckets")
        self.pointer: Any = ffi.gc(pointer, lib.ss_table_free)

    def clear(self) -> None:
        lib.ss_table_clear(self.pointer)

    def positions(self) -> int:
        """How many positions it holds (a pass over all of it: for tests and diagnostics)."""
        return int(lib.ss_table_positions(self.pointer))


@dataclass(frozen=True, kw_only=True)
class ProverOptions:
    """How one call's proof-number search searches (ss_pn_options): the defaults are the service's,
    the others for the tests and the benchmarks' comparisons. Per call, so two threads may differ."""

    guard_zones: bool = True  # False: proof zones without their guard cells, unsound (core/zones.c)
    probe_plies: int = lib.SS_PROBE_PLIES  # the defender's replies probed fewer plies than this deep
    probe_nodes: int = lib.SS_PROBE_NODES  # a probed reply's first allowance; 0: none probed, df-pn alone


DEFAULT_OPTIONS = ProverOptions()


def options_of(options: ProverOptions) -> Any:
    """The core's ss_pn_options of `options` (ffi.NULL for the defaults: the core's own)."""
    if options == DEFAULT_OPTIONS:
        return ffi.NULL
    struct = ffi.new("ss_pn_options *")
    struct.unguarded = not options.guard_zones
    struct.probe_plies = max(options.probe_plies, 0)
    probed = options.probe_nodes > 0 and options.probe_plies > 0
    struct.probe_nodes = options.probe_nodes if probed else -1
    return struct


def budget_of(limits: Limits) -> Any:
    """The core's ss_budget of `limits` (kept alive by the caller for the call)."""
    budget = ffi.new("ss_budget *")
    budget.deadline = limits.deadline
    budget.max_nodes = limits.nodes
    budget.cancel = limits.cancel
    return budget


def _outcome(result: Any) -> Outcome:
    return Outcome(
        lower=int(result.lower),
        upper=int(result.upper),
        best_move=None if result.best_move == NO_MOVE else int(result.best_move),
        depth=int(result.depth),
        estimate=int(result.estimate),
        stopped=bool(result.stopped),
        nodes=int(result.nodes),
        seconds=float(result.seconds),
        cutoffs=int(result.cutoffs),
        tt_hits=int(result.tt_hits),
    )


def prove(
    game: Game,
    table: TranspositionTable,
    mine: int,
    theirs: int,
    goal: int,
    limits: Limits,
    lower: int,
    upper: int,
) -> Outcome:
    """Narrow the known bounds [lower, upper] on the score of a live position until `goal` is met
    (GOAL_RESULT: win, draw or loss; GOAL_SCORE: the exact score) or the limits are reached."""
    result = ffi.new("ss_result *")
    result.lower, result.upper = lower, upper
    lib.ss_prove(game.pointer, table.pointer, mine, theirs, goal, budget_of(limits), result)
    return _outcome(result)


class SecondThread(NamedTuple):
    """A second thread for a call (second_thread.py): the core's helper thread and its own table."""

    table: TranspositionTable
    helper: Any  # the ss_pn_helper's pointer


def prove_moves(
    game: Game,
    table: TranspositionTable,
    mine: int,
    theirs: int,
    moves: dict[int, tuple[int, int]],
    goal: int,
    limits: Limits,
    second: SecondThread | None = None,
) -> tuple[dict[int, tuple[int, int]], Outcome]:
    """Narrow the bounds of each move of `moves` (cell -> bounds on the score of the side that plays it;
    none may end the game) toward `goal` in one call: each an even share of the limits, then each all
    that is left, in the order given. The moves' new bounds, and what the searches spent in all (one
    Outcome: on positions near the end, one per move cost more than the searches). With `second`, on
    two threads, unless the limits cap the nodes (ss_prove_moves_two)."""
    cells, n = list(moves), len(moves)
    lower = ffi.new("int32_t[]", [bounds[0] for bounds in moves.values()])
    upper = ffi.new("int32_t[]", [bounds[1] for bounds in moves.values()])
    spent = ffi.new("ss_result *")
    budget = budget_of(limits)
    narrowed = (goal, budget, lower, upper, spent)
    if second is None:
        lib.ss_prove_moves(game.pointer, table.pointer, mine, theirs, cells, n, *narrowed)
    else:
        threads = (table.pointer, second.table.pointer, second.helper)
        lib.ss_prove_moves_two(game.pointer, *threads, mine, theirs, cells, n, *narrowed)
    bounds = zip(ffi.unpack(lower, n), ffi.unpack(upper, n), strict=True)
    return dict(zip(cells, bounds, strict=True)), _outcome(spent)


def score_moves(
    game: Game, table: TranspositionTable, mine: int, theirs: int, cells: list[int]
) -> tuple[list[int], Outcome]:
    """The exact score of each move of `cells` for the side that plays it, with no limit, in one call;
    and what the searches spent."""
    n = len(cells)
    scores = ffi.new("int32_t[]", n)
    spent = ffi.new("ss_result *")
    lib.ss_score_moves(game.pointer, table.pointer, mine, theirs, cells, n, scores, spent)
    return ffi.unpack(scores, n), _outcome(spent)


def score_all(
    game: Game, table: TranspositionTable, mine: int, theirs: int
) -> tuple[list[int], list[int], Outcome]:
    """Every legal move (none when the game is over) in the order of their cells, the exact score of
    each for the side that plays it, with no limit, in one call; and what the searches spent."""
    cells = ffi.new("int32_t[]", MAX_CELLS)
    scores = ffi.new("int32_t[]", MAX_CELLS)
    spent = ffi.new("ss_result *")
    n = lib.ss_score_all(game.pointer, table.pointer, mine, theirs, cells, scores, spent)
    return ffi.unpack(cells, n), ffi.unpack(scores, n), _outcome(spent)


def threats(game: Game, player: int, other: int) -> int:
    """The empty cells where `player` would complete a line (`other` holds the rest)."""
    return int(lib.ss_threats(game.pointer, player, other))


def estimate(
    game: Game, table: TranspositionTable, mine: int, theirs: int, max_depth: int, limits: Limits
) -> Outcome:
    """The heuristic score of a live position, deepened a ply at a time within the limits."""
    result = ffi.new("ss_result *")
    lib.ss_estimate(game.pointer, table.pointer, mine, theirs, max_depth, budget_of(limits), result)
    return _outcome(result)
