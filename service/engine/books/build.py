"""The opening book: every position of the first plies of a board with no table, proven exactly and kept
in the cache of proven positions (`proven`), so that the answers near the start of a game, the hardest
for the search, are lookups.

The deepest ply is proven by the search, one position (up to symmetry) per task, on every processor;
each shallower ply then follows from the ply below it without a search: a move's value is its child's,
seen from the other side, one ply further from the end.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..rules.canonical import canonical
from ..rules.known_move import KnownMove
from ..rules.position import Position
from ..rules.values import Value, encode
from ..rules.variants import Variant
from ..search import Budget, Searcher
from ..search.narrowing import search_provers
from ..search.proven import ProvenCache
from ..search.proven_record import BOOK, Origin
from .arrays import array_board, masks
from .file import BookData, stored, write_book
from .retrograde import IncompleteBookError, build_layers, lookup, retrograde
from .source import Book

Report = Callable[[str], None]
Advance = Callable[[str, int, int], None]  # (stage, done, total): a position of the deepest ply proven


@dataclass(frozen=True)
class PlyCount:
    ply: int
    positions: int  # up to symmetry
    searched: int  # proven by a search (the others followed from the ply below)
    seconds: float


def book_positions(variant: Variant, plies: int) -> list[list[Position]]:
    """The positions in progress of each ply up to `plies`, one per symmetry class, X first."""
    layers: list[list[Position]] = [[Position.empty(variant)]]
    for _ in range(plies):
        seen: dict[tuple[int, int], Position] = {}
        for position in layers[-1]:
            for cell in position.legal_moves():
                child = position.play(cell)
                if not child.is_over:
                    seen.setdefault(canonical(variant, child.mine, child.theirs)[1], child)
        layers.append(list(seen.values()))
    return layers


def build_book(
    variant: Variant,
    plies: int,
    store: ProvenCache,
    processes: int,
    seconds: float | None = None,
    report: Report | None = None,
    advance: Advance | None = None,
    ray_address: str | None = None,
) -> list[PlyCount]:
    """Prove every position of the first `plies` plies into `store` (a search may take `seconds` per
    position: one it does not finish keeps what it proved, and the plies above it are searched too);
    what each ply took, from the empty board down. `report` gets a line per ply, `advance` each
    searched position. The searches run on `processes` processes here, or as tasks on the Ray cluster
    at `ray_address`."""
    counts = []
    origin = Origin.of(BOOK, search_provers(variant))  # the searches' provers, and what they imply
    for ply, layer in reversed(list(enumerate(book_positions(variant, plies)))):
        started = time.perf_counter()
        searched = []
        for position in layer:
            record = store.get(position)
            if record is not None and record.exact:
                continue
            moves = _from_children(store, position)
            if moves is None:
                searched.append(position)
            else:
                store.put(position, moves, origin)
        for done, (position, proofs) in enumerate(
            prove_all(searched, processes, Budget(seconds), ray_address), 1
        ):
            store.put(position, proofs, origin)
            if advance is not None:
                advance(f"ply {ply}", done, len(searched))
        counts.append(PlyCount(ply, len(layer), len(searched), time.perf_counter() - started))
        if report is not None:
            last = counts[-1]
            report(
                f"ply {ply}: {last.positions:,} positions, {last.searched:,} searched, {last.seconds:.1f} s"
            )
    return counts[::-1]


def _from_children(store: ProvenCache, position: Position) -> list[KnownMove] | None:
    """Every move's exact value from the store's records of the children, or None if one is missing."""
    moves = []
    for cell in position.legal_moves():
        child = position.play(cell)
        value = _finished(child) if child.is_over else _value_of(store, child)
        if value is None:
            return None
        seen = value.after_move()
        moves.append(KnownMove(cell, seen.score, seen.score, seen.remoteness))
    return moves


def _value_of(store: ProvenCache, position: Position) -> Value | None:
    record = store.get(position)
    if record is None or not record.exact:
        return None
    values = [Value(m.lower, m.remoteness) for m in record.moves if m.remoteness is not None]
    return min(values, key=Value.preference) if values else None


def _finished(position: Position) -> Value:
    """A finished game's value for the side to move: the other side made a line (a loss, a win under
    misère) or filled the board."""
    if position.line_holder is None:
        return Value(0, 0)
    return Value(1 if position.variant.misere else -1, 0)


def prove_all(
    positions: list[Position], processes: int, budget: Budget, ray_address: str | None = None
) -> Iterator[tuple[Position, list[KnownMove]]]:
    """Every move of each position searched (within `budget` each), on `processes` processes here or
    as tasks on the Ray cluster at `ray_address`."""
    tasks = [(position, budget) for position in positions]
    if ray_address is not None:  # one task a position, in the order they finish
        from ..cluster import remote, run_tasks  # ray is an optional extra

        for (task,), proofs in run_tasks(ray_address, remote(_prove), [(task,) for task in tasks]):
            yield task[0], proofs
        return
    if processes <= 1 or len(positions) <= 1:
        yield from zip(positions, (_prove(task) for task in tasks), strict=True)
        return
    # forkserver: workers forked from a clean server process, never from this one, whose other threads
    # (a server's, Ray's) may hold a lock at the fork (such a child hung in the tests);
    # each keeps one searcher (and its table) for all its tasks
    with multiprocessing.get_context("forkserver").Pool(processes) as pool:
        yield from zip(positions, pool.imap(_prove, tasks, chunksize=1), strict=True)


_SEARCHERS: dict[Variant, Searcher] = {}


def _prove(task: tuple[Position, Budget]) -> list[KnownMove]:
    position, budget = task
    searcher = _SEARCHERS.get(position.variant) or _SEARCHERS.setdefault(
        position.variant, Searcher(position.variant)
    )
    return list(searcher.analyze(position, budget).moves)


def export_book(
    variant: Variant, plies: int, store: ProvenCache, path: Path, seconds: float
) -> dict[str, Any]:
    """Write the book file of what `build_book` proved into `store` to `plies` plies: the values of
    the positions of ply `plies` + 1 from the moves of those of ply `plies`, the plies above by the
    retrograde pass, which must give every move of every position the value the store holds for it."""
    board = array_board(variant)
    layers = build_layers(board, plies + 1)
    deepest = book_positions(variant, plies)
    known: dict[int, int] = {}
    for position in deepest[plies]:
        for cell, value in _exact_moves(store, position):
            child = position.play(cell)
            if not child.is_over:
                key = int(board.key(masks([child.mine]), masks([child.theirs]))[0])
                known[key] = encode(Value(-value.score, value.remoteness - 1))
    keys = np.array(sorted(known), dtype=np.uint64)
    leaves = np.array([known[k] for k in keys.tolist()], dtype=np.uint8)
    values = retrograde(layers, lambda layer: lookup(keys, leaves, layer.keys))
    plies_kept = stored([layer.keys for layer in layers.layers], values)
    book = Book(
        BookData(variant, {}, tuple(k for k, _ in plies_kept), tuple(v for _, v in plies_kept), path, 0)
    )
    for position in (p for layer in deepest for p in layer):
        proven = _exact_moves(store, position)
        derived = [(m.cell, m.value) for m in book.moves(position) or []]
        if proven != derived:
            raise IncompleteBookError(f"{position.cells}: the store holds {proven}, the book {derived}")
    count = sum(len(layer) for layer in deepest)
    source = {
        "summary": f"sanmoku's search: every move of ply {plies} searched, plies 0-{plies} by retrograde",
        "checks": [f"every move of the {count:,} positions of plies 0-{plies} as the search proved it"],
    }
    return write_book(path, variant, plies_kept, source, seconds)


def _exact_moves(store: ProvenCache, position: Position) -> list[tuple[int, Value]]:
    """Every move's exact value as the store holds it, by cell."""
    record = store.get(position)
    if record is None or not record.exact:
        raise IncompleteBookError(f"{position.cells}: not proven in the store (build the book first)")
    return [(m.cell, Value(m.lower, m.remoteness or 0)) for m in record.moves]
