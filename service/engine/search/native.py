"""The compiled core's binding, the one module that imports it (`_core` and its wider builds, built by
build_core.py from core/sanmoku_search.h): the core's objects owned by Python objects (freed with them), and
its calls with typed arguments and results. cffi releases the GIL during each call.

Three builds of the same sources differ in the width of a set of cells (core/mask.h): `_core`, one word,
for boards of up to 64 cells, `_core_128`, two words, up to 128, and `_core_wide`, eight words, up to 512.
A Game is made on the narrowest build its board fits (`Width`); every call takes the game's build, and its
tables and helper threads are made on that build when first used with it. A set of cells is a Python int
on this side of every call; Width.mask and Width.cells_of are the one place that converts. The wider
builds' scores use their own SS_BIG (Game.big): the module's BIG, SCORE_MIN and SCORE_MAX are those of
the boards the service plays, up to 64 cells.

In turn: the budget a call gets; the game (a board as data); alpha-beta and its transposition table; the
provers (the proof-number search, its table and options); the provers on two threads (the helper thread,
the families of questions). The tests' own entry points are in tests/core_debug.py
(core/sanmoku_debug.h, compiled into the same extension).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

from . import _core, _core_128, _core_wide
from .board import Board

ffi, lib = _core.ffi, _core.lib  # the build of the boards the service plays

SCORE_MIN: int = lib.SS_SCORE_MIN
SCORE_MAX: int = lib.SS_SCORE_MAX
BIG: int = lib.SS_BIG
HEURISTIC_UNIT: int = lib.SS_HEURISTIC_UNIT
NO_MOVE: int = lib.SS_NO_MOVE
GOAL_RESULT: int = lib.SS_GOAL_RESULT
GOAL_SCORE: int = lib.SS_GOAL_SCORE
MAX_CELLS: int = lib.SS_MAX_CELLS
DEFAULT_TABLE_BITS = 19  # 2**19 buckets of 64 bytes (3 positions each): 32 MB per searcher
# A wider build's table is made at the first request of a board past 64 cells, within its budget, and a
# table is filled whole when made (a search that met fresh pages between two reads of its clock overran:
# first touches are slow here, 180 ms for 32 MB). That board's nodes are slow: 2**16 buckets (4 MB)
# hold what a request's search reaches.
WIDE_TABLE_BITS = 16
# 2**18 slots of 40 bytes: 10 MB per searching thread, enough for the proofs of one request.
DEFAULT_PROOF_TABLE_BITS = 18


def monotonic() -> float:
    """The clock the core's deadlines are read on."""
    return float(lib.ss_monotonic())


NO_CANCEL: Any = ffi.NULL  # a call no flag can stop


def cancel_cell() -> Any:
    """A cancel flag's cell (an int32_t, 0: go on), which the core reads every few thousand nodes."""
    return ffi.new("int32_t *")


@dataclass(frozen=True)
class Limits:
    """One call's budget: an absolute deadline on `monotonic()`, a node count (0: none of either), and
    the cancel flag's cell (Cancel.cell in budget.py; NO_CANCEL: none)."""

    deadline: float
    nodes: int
    cancel: Any = NO_CANCEL


class Width:
    """One build of the core: its binding, the most cells a board may have on it, and how a set of cells
    (a Python int) crosses into it and back: as itself on one word, as its words (an ss_mask struct's
    initializer) on more."""

    def __init__(self, module: Any) -> None:
        self.ffi, self.lib = module.ffi, module.lib
        self.cells: int = module.lib.SS_MAX_CELLS
        self.words: int = module.ffi.sizeof("ss_mask") // 8
        self.big: int = module.lib.SS_BIG

    def mask(self, cells: int) -> Any:
        """The core's ss_mask of a set of cells."""
        if self.words == 1:
            return cells
        return [[cells >> (64 * i) & 0xFFFF_FFFF_FFFF_FFFF for i in range(self.words)]]

    def cells_of(self, mask: Any) -> int:
        """The set of cells of the core's ss_mask."""
        if self.words == 1:
            return int(mask)
        return sum(int(word) << (64 * i) for i, word in enumerate(mask.w))


NARROW = Width(_core)
WIDTH_128 = Width(_core_128)
WIDE = Width(_core_wide)
WIDTHS = (NARROW, WIDTH_128, WIDE)  # narrowest first


def width_for(cells: int) -> Width:
    """The narrowest build a board of `cells` cells fits (ValueError past the widest)."""
    for width in WIDTHS:
        if cells <= width.cells:
            return width
    raise ValueError(f"the search core refused a board of {cells} cells: it plays at most {WIDE.cells}")


def budget_of(limits: Limits, width: Width = NARROW) -> Any:
    """The core's ss_budget of `limits` on the build `width` (kept alive by the caller for the call)."""
    budget = width.ffi.new("ss_budget *")
    budget.deadline = limits.deadline
    budget.max_nodes = limits.nodes
    budget.cancel = limits.cancel
    return budget


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
    @property
    def flanks(self) -> tuple[int, ...] | None: ...  # per line, the cells beside its ends (exactly k)


class Game:
    """A board's rules in the core, made from the board as data (ss_board: its cells, lines, each cell's
    wait-cell, misère, the lines' flanks under "exactly k"); immutable, so threads may share it
    (`Game.of`: one per board)."""

    @staticmethod
    @lru_cache(maxsize=64)  # one per board, as `Board.of` (whose boards this keeps)
    def of(board: Board) -> Game:
        return Game(board)

    def __init__(self, board: Described, width: Width | None = None) -> None:
        """The board's game on the build `width` (None: the narrowest it fits)."""
        self.board = board
        self.width = width = width or width_for(board.cells)
        self.big = width.big  # a win whose last mark is the T-th scores big - T
        self.score_min, self.score_max = -width.big, width.big
        core = width.ffi
        lines = core.new("ss_mask[]", [width.mask(line) for line in board.lines])
        waits = core.NULL
        if any(wait is not None for wait in board.waits):
            waits = core.new("int32_t[]", [lib.SS_NO_CELL if wait is None else wait for wait in board.waits])
        flanks = core.NULL
        if board.flanks is not None:
            flanks = core.new("ss_mask[]", [width.mask(flank) for flank in board.flanks])
        description = core.new("ss_board *")
        description.cells, description.misere = board.cells, int(board.misere)
        description.lines, description.n_lines, description.waits = lines, len(board.lines), waits
        description.flanks = flanks
        pointer = width.lib.ss_game_new(description)
        if pointer == core.NULL:
            raise ValueError(f"the search core refused the {board.name} board")
        self.pointer: Any = core.gc(pointer, width.lib.ss_game_free)


class PerBuild:
    """A native object of the core made once per build: the 64-cell build's at once (`pointer`), a wider
    build's when a game past 64 cells first uses it (`pointer_for`). Subclasses say how one is made."""

    def __init__(self) -> None:
        self.pointer: Any = self._new(NARROW)
        self._wider: dict[Width, Any] = {}

    def _new(self, width: Width) -> Any:
        raise NotImplementedError

    def pointer_for(self, game: Game) -> Any:
        """The object on the game's build."""
        if game.width is NARROW:
            return self.pointer
        if game.width not in self._wider:
            self._wider[game.width] = self._new(game.width)
        return self._wider[game.width]


class TranspositionTable(PerBuild):
    """2**bits buckets of 3 positions; one caller at a time (not thread-safe); clears itself when given
    another game."""

    def __init__(self, bits: int = DEFAULT_TABLE_BITS) -> None:
        self.bits = bits
        super().__init__()

    def _new(self, width: Width) -> Any:
        bits = self.bits if width is NARROW else min(self.bits, WIDE_TABLE_BITS)
        pointer = width.lib.ss_table_new(bits)
        if pointer == width.ffi.NULL:
            raise MemoryError(f"no transposition table of 2**{bits} buckets")
        return width.ffi.gc(pointer, width.lib.ss_table_free)

    def clear(self) -> None:
        lib.ss_table_clear(self.pointer)
        for width, pointer in self._wider.items():
            width.lib.ss_table_clear(pointer)


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
    width = game.width
    result = width.ffi.new("ss_result *")
    result.lower, result.upper = lower, upper
    position = (width.mask(mine), width.mask(theirs))
    width.lib.ss_prove(
        game.pointer, table.pointer_for(game), *position, goal, budget_of(limits, width), result
    )
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
    two threads, unless the limits cap the nodes (ss_prove_moves_two); on one on a wider build, whose
    helper thread the second's is not."""
    width = game.width
    cells, n = list(moves), len(moves)
    lower = width.ffi.new("int32_t[]", [bounds[0] for bounds in moves.values()])
    upper = width.ffi.new("int32_t[]", [bounds[1] for bounds in moves.values()])
    spent = width.ffi.new("ss_result *")
    budget = budget_of(limits, width)
    narrowed = (goal, budget, lower, upper, spent)
    position = (width.mask(mine), width.mask(theirs))
    if second is None or width is not NARROW:
        width.lib.ss_prove_moves(game.pointer, table.pointer_for(game), *position, cells, n, *narrowed)
    else:
        threads = (table.pointer, second.table.pointer, second.helper)
        lib.ss_prove_moves_two(game.pointer, *threads, *position, cells, n, *narrowed)
    bounds = zip(ffi.unpack(lower, n), ffi.unpack(upper, n), strict=True)
    return dict(zip(cells, bounds, strict=True)), _outcome(spent)


def score_moves(
    game: Game, table: TranspositionTable, mine: int, theirs: int, cells: list[int]
) -> tuple[list[int], Outcome]:
    """The exact score of each move of `cells` for the side that plays it, with no limit, in one call;
    and what the searches spent."""
    width, n = game.width, len(cells)
    scores = width.ffi.new("int32_t[]", n)
    spent = width.ffi.new("ss_result *")
    position = (width.mask(mine), width.mask(theirs))
    width.lib.ss_score_moves(game.pointer, table.pointer_for(game), *position, cells, n, scores, spent)
    return width.ffi.unpack(scores, n), _outcome(spent)


def score_all(
    game: Game, table: TranspositionTable, mine: int, theirs: int
) -> tuple[list[int], list[int], Outcome]:
    """Every legal move (none when the game is over) in the order of their cells, the exact score of
    each for the side that plays it, with no limit, in one call; and what the searches spent."""
    width = game.width
    cells = width.ffi.new("int32_t[]", width.cells)
    scores = width.ffi.new("int32_t[]", width.cells)
    spent = width.ffi.new("ss_result *")
    position = (width.mask(mine), width.mask(theirs))
    n = width.lib.ss_score_all(game.pointer, table.pointer_for(game), *position, cells, scores, spent)
    return width.ffi.unpack(cells, n), width.ffi.unpack(scores, n), _outcome(spent)


def threats(game: Game, player: int, other: int) -> int:
    """The empty cells where `player` would complete a line (`other` holds the rest)."""
    width = game.width
    return width.cells_of(width.lib.ss_threats(game.pointer, width.mask(player), width.mask(other)))


def threat_sequence(game: Game, attacker: int, defender: int, nodes: int) -> int | None:
    """The cells of a win by continuous threats of `attacker`, to move (core/threats.c), looked for within
    `nodes` (0: no limit), or None: none found."""
    width = game.width
    cells = width.ffi.new("ss_mask *")
    found = width.lib.ss_threat_sequence(
        game.pointer, width.mask(attacker), width.mask(defender), nodes, cells
    )
    return width.cells_of(cells[0]) if found else None


class ThreesTree(NamedTuple):
    """One search for a tree of threes: the tree's first move (None: none found), the cells its proof
    depends on (a mark of the defender elsewhere changes nothing it needs), and what it spent (a tree
    search counts nodes only)."""

    first: int | None
    zone: int
    nodes: int
    depth: int = 0
    cutoffs: int = 0
    tt_hits: int = 0


def threes_tree(
    game: Game,
    attacker: int,
    defender: int,
    depth: int,
    nodes: int,
    deadline: float,
    quiet: bool = False,
    banned: int = 0,
) -> ThreesTree:
    """A tree of up to `depth` threes by which `attacker`, to move, forces a line, looked for within
    `nodes` and before `deadline` (on monotonic(); 0: none of either) (core/threats.c; a win by fours
    alone is not looked for); `quiet`: quiet threes too, moves after which it would win by fours;
    `banned`: cells its first move is not."""
    width = game.width
    first = width.ffi.new("int32_t *")
    zone = width.ffi.new("ss_mask *")
    searched = width.ffi.new("int64_t *")
    found = width.lib.ss_threes_tree(
        game.pointer,
        width.mask(attacker),
        width.mask(defender),
        depth,
        int(quiet),
        width.mask(banned),
        nodes,
        deadline,
        first,
        zone,
        searched,
    )
    if not found or first[0] < 0:
        return ThreesTree(None, 0, int(searched[0]))
    return ThreesTree(int(first[0]), width.cells_of(zone[0]), int(searched[0]))


class ThreatAnswers(NamedTuple):
    """The defender to move after the attacker's threat (core/threats.c, tss_answers): `kind` (ESCAPES,
    BLOCK after a four, ANSWERS after a three, TWO_THREATS), the replies that do not lose at once, and
    the attacker's move after any other reply (None unless BLOCK or ANSWERS)."""

    kind: int
    answers: int
    next: int | None


ESCAPES, BLOCK, ANSWERS, TWO_THREATS = 0, 1, 2, 3


def threat_answers(game: Game, attacker: int, defender: int, banned: int = 0) -> ThreatAnswers:
    """What the defender, to move, may answer the attacker's threat with; the attacker's double threat
    after a three never on `banned`."""
    width = game.width
    answers = width.ffi.new("ss_mask *")
    after = width.ffi.new("int32_t *")
    kind = width.lib.ss_threat_answers(
        game.pointer, width.mask(attacker), width.mask(defender), width.mask(banned), answers, after
    )
    cell = int(after[0])
    return ThreatAnswers(int(kind), width.cells_of(answers[0]), cell if cell >= 0 else None)


def estimate(
    game: Game, table: TranspositionTable, mine: int, theirs: int, max_depth: int, limits: Limits
) -> Outcome:
    """The heuristic score of a live position, deepened a ply at a time within the limits."""
    width = game.width
    result = width.ffi.new("ss_result *")
    position = (width.mask(mine), width.mask(theirs))
    budget = budget_of(limits, width)
    width.lib.ss_estimate(game.pointer, table.pointer_for(game), *position, max_depth, budget, result)
    return _outcome(result)


# The provers beside alpha-beta: the proof-number search (core/dfpn.c), with the pairings (core/pairing.c)
# and the threat sequences (core/threats.c) it settles positions by.


class Prover(StrEnum):
    """What closed a move's result, as the answer's search statistics name it."""

    ALPHA_BETA = "alpha_beta"
    PROOF_NUMBER = "proof_number"
    PAIRING = "pairing"  # a pairing strategy of the defender, found at the position itself
    THREAT_SPACE = "threat_space"  # a sequence of threats of the attacker, found at the position itself


_CLOSED_BY = {
    lib.SS_BY_SEARCH: Prover.PROOF_NUMBER,
    lib.SS_BY_PAIRING: Prover.PAIRING,
    lib.SS_BY_THREATS: Prover.THREAT_SPACE,
}


class Question(NamedTuple):
    outcome: int  # 1: the attacker can force a line; -1: it cannot; 0: not settled within the limits
    zone: int  # the cells the disproof (-1) or the proof (1: core/zones.c; 0 not known) depends on
    nodes: int
    depth: int
    seconds: float
    pairings: int  # positions closed by a pairing
    threat_wins: int  # positions closed by a threat sequence
    stopped: bool
    prover: Prover  # what settled it: a pairing or a threat sequence at the position itself, or the search
    cutoffs: int = 0  # alpha-beta's statistics (SearchReport): none here
    tt_hits: int = 0
    pruned: int = 0  # the defender's replies settled by a proof's zone (core/zones.c)
    focus: int | None = None  # the move (or reply) the search went into last: its most promising one


class ProofTable(PerBuild):
    """The proof-number search's transposition table: 2**bits slots of 40 bytes; one caller at a time;
    clears itself when given another board. Its numbers, slots and fingerprint are those of the 64-cell
    build's table; a wider build's (64 bytes a slot on two words, 256 on eight) is made when a game past 64
    cells first uses it."""

    def __init__(self, bits: int = DEFAULT_PROOF_TABLE_BITS) -> None:
        self.bits = bits
        super().__init__()

    def _new(self, width: Width) -> Any:
        pointer = width.lib.ss_pn_table_new(self.bits)
        if pointer == width.ffi.NULL:
            raise MemoryError(f"no proof-number table of 2**{self.bits} slots")
        return width.ffi.gc(pointer, width.lib.ss_pn_table_free)

    def clear(self) -> None:
        lib.ss_pn_table_clear(self.pointer)
        for width, pointer in self._wider.items():
            width.lib.ss_pn_table_clear(pointer)

    def numbers(self, attacker: int, defender: int, attacker_to_move: bool) -> tuple[int, int] | None:
        """The (proof, disproof) numbers the table holds for the position, or None."""
        pn, dn = ffi.new("uint32_t *"), ffi.new("uint32_t *")
        if not lib.ss_pn_table_numbers(self.pointer, attacker, defender, int(attacker_to_move), pn, dn):
            return None
        return int(pn[0]), int(dn[0])

    def slots(self) -> memoryview:
        """Its slots' memory as bytes, to save it whole and load it back (a long proof resumed: after
        loading, give it the game's fingerprint again). Valid while the table lives."""
        size = ffi.new("uint64_t *")
        memory = lib.ss_pn_table_memory(self.pointer, size)
        return memoryview(ffi.buffer(memory, size[0])).cast("B")

    @property
    def fingerprint(self) -> int:
        """The fingerprint of the game its entries belong to."""
        return int(lib.ss_pn_table_game(self.pointer))

    @fingerprint.setter
    def fingerprint(self, game: int) -> None:
        lib.ss_pn_table_set_game(self.pointer, game)

    def refresh_filters(self) -> None:
        """Its bit filters made again from the entries it holds (the game's fingerprint given again
        does it): a replaced entry leaves its bit set, so a long proof's filters fill up and its probes
        pass them all (core/dfpn_table.c)."""
        lib.ss_pn_table_set_game(self.pointer, self.fingerprint)


@dataclass(frozen=True, kw_only=True)
class ProverOptions:
    """How one call's proof-number search searches (ss_pn_options): the defaults are the service's,
    the others for the tests and the benchmarks' comparisons. Per call, so two threads may differ."""

    guard_zones: bool = True  # False: proof zones without their guard cells, unsound (core/zones.c)
    probe_plies: int = lib.SS_PROBE_PLIES  # the defender's replies probed fewer plies than this deep
    probe_nodes: int = lib.SS_PROBE_NODES  # a probed reply's first allowance; 0: none probed, df-pn alone
    attacker_pass: int = lib.SS_PASS_BESIDE  # SS_PASS_FIRST: its moves once its pass fails (core/dfpn.c)


DEFAULT_OPTIONS = ProverOptions()


def options_of(options: ProverOptions, width: Width = NARROW) -> Any:
    """The core's ss_pn_options of `options` on the build `width` (NULL for the defaults: the core's own)."""
    if options == DEFAULT_OPTIONS:
        return ffi.NULL
    struct = width.ffi.new("ss_pn_options *")
    struct.unguarded = not options.guard_zones
    struct.probe_plies = max(options.probe_plies, 0)
    probed = options.probe_nodes > 0 and options.probe_plies > 0
    struct.probe_nodes = options.probe_nodes if probed else -1
    struct.attacker_pass = options.attacker_pass
    return struct


def ask(
    game: Game,
    table: ProofTable,
    attacker: int,
    defender: int,
    attacker_to_move: bool,
    limits: Limits,
    options: ProverOptions = DEFAULT_OPTIONS,
) -> Question:
    """Whether `attacker` can force a line against `defender` (the position legal, no line completed)."""
    width = game.width
    result = width.ffi.new("ss_pn_result *")
    budget, settings = budget_of(limits, width), options_of(options, width)
    position = (width.mask(attacker), width.mask(defender), int(attacker_to_move))
    width.lib.ss_pn_prove(game.pointer, table.pointer_for(game), *position, budget, settings, result)
    return _question(result, width)


def _question(result: Any, width: Width) -> Question:
    """The Question of the core's answer (an ss_pn_result) on the build `width`."""
    return Question(
        outcome=int(result.outcome),
        zone=width.cells_of(result.zone),
        nodes=int(result.nodes),
        depth=int(result.depth),
        seconds=float(result.seconds),
        pairings=int(result.pairings),
        threat_wins=int(result.threat_wins),
        stopped=bool(result.stopped),
        prover=_CLOSED_BY[int(result.closed_by)],
        pruned=int(result.pruned),
        focus=None if result.focus == NO_MOVE else int(result.focus),
    )


# The provers of one analysis on two threads (core/threads.c): its questions in two families, each on
# its own proof-number table, the second family on the searching thread's helper thread.


class Helper(PerBuild):
    """The core's helper thread (idle between calls), on which the provers' second family and half of
    the moves' alpha-beta searches run; freed, and its thread ended, with this object. A copy inherited
    through a fork frees only its memory when dropped (core/threads.c): Python's own clean-up after a
    fork drops the other threads' locals, and with them their helpers."""

    def __init__(self) -> None:
        super().__init__()  # a wider build's thread is started when a game first needs it
        self.pid = os.getpid()

    def _new(self, width: Width) -> Any:
        pointer = width.lib.ss_pn_helper_new()
        if pointer == width.ffi.NULL:
            raise OSError("no second thread could be made for the search")
        return width.ffi.gc(pointer, width.lib.ss_pn_helper_free)

    def forget(self) -> None:
        """Drop it without ending its thread: after a fork, the thread is not this process's."""
        ffi.gc(self.pointer, None)
        for width, pointer in self._wider.items():
            width.ffi.gc(pointer, None)


class Ask(NamedTuple):
    """A question of a family: can `attacker` force a line against `defender`?"""

    attacker: int
    defender: int
    attacker_to_move: bool
    cell: int = NO_MOVE  # the move it is about; NO_MOVE: the position's own question (a family's first)


class Answered(NamedTuple):
    """A family's answers, per Ask in order (None: never asked), and what its thread spent helping the
    other family's first question (its nodes and depth; core/threads.c)."""

    answers: list[Question | None]
    helping: Question


def prove_families(
    game: Game,
    tables: tuple[ProofTable, ProofTable],
    families: tuple[list[Ask], list[Ask]],
    helper: Helper,
    limits: Limits,
    root_share: float,
    round_share: float,
    options: ProverOptions = DEFAULT_OPTIONS,
) -> tuple[Answered, Answered]:
    """Ask both families at once, the first on the caller's thread, the second on the helper's, each on
    its table, by the rules of ss_pn_prove_families (sanmoku_search.h)."""
    width = game.width
    structs = width.ffi.new("ss_pn_family[2]")
    arrays = []
    for family, table, asks in zip(structs, tables, families, strict=True):
        questions = width.ffi.new("ss_pn_question[]", max(len(asks), 1))
        for question, one in zip(questions, asks, strict=False):
            question.attacker, question.defender = width.mask(one.attacker), width.mask(one.defender)
            question.attacker_to_move, question.cell = int(one.attacker_to_move), one.cell
        family.table, family.questions, family.n = table.pointer_for(game), questions, len(asks)
        arrays.append(questions)
    budget, settings = budget_of(limits, width), options_of(options, width)
    shares = (root_share, round_share)
    width.lib.ss_pn_prove_families(game.pointer, structs, helper.pointer_for(game), *shares, budget, settings)
    first, second = (
        Answered(
            [_question(q.result, width) if q.asked else None for q in questions[0 : len(asks)]],
            _question(family.helping, width),
        )
        for family, questions, asks in zip(structs, arrays, families, strict=True)
    )
    return first, second
