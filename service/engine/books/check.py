"""Book entries compared with the search: entries drawn at random from chosen plies, each position's own
value proven by the compiled core (result and remoteness: its exact score) within a budget of nodes,
and every entry proven compared with the book, which must hold that very value.

An entry whose proof does not finish within the budget is counted, not compared; the budget is of
nodes, not seconds, and each search starts from a cleared transposition table, so that the same
entries are proven on any machine, however loaded, in any order.
"""

from __future__ import annotations

import multiprocessing
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..rules.position import Mark, Position
from ..rules.values import Value
from ..rules.variants import Variant
from ..search.board import Board
from ..search.budget import Budget, Spending
from ..search.native import GOAL_SCORE, Game, TranspositionTable, prove
from ..search.report import move_proof
from .source import Book

Report = Callable[[str], None]
MIN_TABLE_BITS = 12
LONG = 20  # plies to the end: a long game, which only a large budget proves


@dataclass(frozen=True)
class Disagreement:
    position: Position
    book: Value | None
    search: Value


@dataclass
class Verified:
    sampled: Counter[int] = field(default_factory=Counter)  # entries drawn, by ply
    compared: Counter[int] = field(default_factory=Counter)  # of which proven and compared
    remoteness: Counter[int] = field(default_factory=Counter)  # the remoteness of those compared
    disagreements: list[Disagreement] = field(default_factory=list)


def position_of(book: Book, ply: int, index: int) -> Position:
    """The position of the `index`-th entry of a ply, X having moved first."""
    mover, other = book.board.position(int(book.data.keys[ply][index]))
    x, o, to_move = (mover, other, Mark.X) if ply % 2 == 0 else (other, mover, Mark.O)
    return Position(book.variant, x, o, to_move)


def sample_entries(book: Book, plies: Iterable[int], per_ply: int, rng: random.Random) -> list[Position]:
    """Up to `per_ply` positions of each ply, drawn at random from the book's entries."""
    found = []
    for ply in plies:
        count = len(book.data.keys[ply])
        found += [position_of(book, ply, i) for i in rng.sample(range(count), min(per_ply, count))]
    return found


def verify_entries(
    book: Book, positions: list[Position], nodes: int, report: Report, processes: int = 1
) -> Verified:
    """Prove each position's value within `nodes` and compare it with the book's entry."""
    found = Verified()
    for position, proven in zip(positions, proven_values(positions, nodes, processes), strict=True):
        found.sampled[position.marks] += 1
        if proven is None:
            continue
        found.compared[position.marks] += 1
        found.remoteness[proven.remoteness] += 1
        held = book.value(position)
        if held != proven:
            found.disagreements.append(Disagreement(position, held, proven))
            report(f"DISAGREE {position.cells}: book {held}, search {proven}")
    for ply in sorted(found.sampled):
        report(
            f"ply {ply:>2}: {found.compared[ply]:>5} of {found.sampled[ply]:>5} entries proven and compared"
        )
    compared = sum(found.compared.values())
    report(f"{compared} entries compared (result and remoteness), {len(found.disagreements)} disagreements")
    if compared:
        distances = sorted(found.remoteness.elements())
        median, longest = distances[len(distances) // 2], distances[-1]
        long = sum(1 for d in distances if d >= LONG)
        report(f"their remoteness: median {median}, {long} of {LONG} plies or more, at most {longest}")
    return found


def proven_values(positions: list[Position], nodes: int, processes: int) -> Iterator[Value | None]:
    """Each position's exact value, or None where its proof takes more than `nodes`."""
    tasks = [(position, nodes) for position in positions]
    if processes <= 1 or len(positions) <= 1:
        yield from map(_proven, tasks)
        return
    # forkserver: workers forked from a clean server process, never from this one, whose other threads
    # (a server's, Ray's) may hold a lock at the fork (such a child hung in the tests);
    # each keeps one table per board, cleared for every search
    with multiprocessing.get_context("forkserver").Pool(processes) as pool:
        yield from pool.imap(_proven, tasks, chunksize=16)


_PROVERS: dict[tuple[Variant, int], tuple[Game, TranspositionTable]] = {}


def _proven(task: tuple[Position, int]) -> Value | None:
    position, nodes = task
    # A table in proportion to the budget: clearing one costs in proportion to its size.
    bits = min(max(MIN_TABLE_BITS, nodes.bit_length() - 2), 20)
    key = (position.variant, bits)
    if key not in _PROVERS:
        _PROVERS[key] = (Game(Board.of(position.variant)), TranspositionTable(bits))
    game, table = _PROVERS[key]
    table.clear()
    limits = Spending.of(Budget(nodes=nodes)).share()
    outcome = prove(
        game, table, position.mine, position.theirs, GOAL_SCORE, limits, game.score_min, game.score_max
    )
    # The position's score reads as a move's would, counted from the marks on the board now.
    cells = position.variant.cells
    return move_proof(-1, outcome.lower, outcome.upper, position.marks, cells, None, game.big).value
