"""The cache of proven positions (by canonical form, merged, bounded, shared), the analyst's order of
sources, answers' derived values, and the opening book against the tables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from service.engine import Analyst, Position, SearcherPool, TableStore, get_variant
from service.engine.answer import Answer, Source
from service.engine.books.build import book_positions, build_book
from service.engine.rules.geometry import geometry_of
from service.engine.rules.known_move import Estimate, KnownMove
from service.engine.rules.values import Value
from service.engine.search import Budget
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_record import BOOK
from tests.engine.search.records import ALPHA_BETA

V = get_variant("4x4k4")


def asymmetric() -> Position:
    """A position no symmetry but the identity keeps (made-up values of its moves need not be symmetric)."""
    position = Position.empty(V).play(1).play(6)
    geometry = geometry_of(V)
    fixed = [
        s
        for s in geometry.symmetries
        if geometry.permute(position.x, s) == position.x and geometry.permute(position.o, s) == position.o
    ]
    assert len(fixed) == 1
    return position


def test_a_record_is_found_from_every_symmetric_image(tmp_path: Path) -> None:
    store = ProvenCache(tmp_path)
    position = asymmetric()
    moves = [KnownMove(c, 0, 0, 14) if c % 2 else KnownMove(c, 0, 1, None) for c in position.legal_moves()]
    store.put(position, moves, ALPHA_BETA)
    geometry = geometry_of(V)
    for symmetry in geometry.symmetries:
        image = Position(
            V,
            geometry.permute(position.x, symmetry),
            geometry.permute(position.o, symmetry),
            position.to_move,
        )
        record = store.get(image)
        assert record is not None and record.origin == ALPHA_BETA and not record.exact
        expected = sorted(
            (KnownMove(symmetry[m.cell], m.lower, m.upper, m.remoteness) for m in moves),
            key=lambda m: m.cell,
        )
        assert list(record.moves) == expected
    assert store.get(Position.empty(V).play(1)) is None


def test_records_merge_to_the_tighter_bounds(tmp_path: Path) -> None:
    store = ProvenCache(tmp_path)
    position = asymmetric()
    cells = position.legal_moves()
    store.put(position, [KnownMove(c, 0, 1, None) for c in cells], ALPHA_BETA)
    store.put(position, [KnownMove(c, -1, 0, None) for c in cells], ALPHA_BETA)
    record = store.get(position)
    assert record is not None and all((m.lower, m.upper) == (0, 0) for m in record.moves)
    store.put(
        position,
        [KnownMove(c, 0, 0, 15) if c == cells[0] else KnownMove(c, -1, 1, None) for c in cells],
        ALPHA_BETA,
    )
    record = store.get(position)
    assert record is not None and record.moves[0].remoteness == 15 and record.moves[1].remoteness is None
    store.put(
        position, [KnownMove(c, -1, 1, None) for c in cells], ALPHA_BETA
    )  # nothing proven: nothing written
    assert store.stats().records == 1


@pytest.mark.slow
def test_the_store_keeps_to_its_bound(tmp_path: Path) -> None:
    store = ProvenCache(tmp_path, max_bytes=300_000)
    rng = random.Random(1)
    for _ in range(4000):
        position = Position.empty(V)
        for _ in range(rng.randrange(1, 8)):
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            store.put(position, [KnownMove(c, 0, 0, 9) for c in position.legal_moves()], ALPHA_BETA)
    store.trim()
    stats = store.stats()
    assert stats.bytes <= 300_000 and stats.records > 100
    assert store.clear() == stats.records and store.stats().records == 0


def test_the_analyst_asks_the_table_then_the_store_then_the_search(tmp_path: Path) -> None:
    tables = TableStore(tmp_path)
    proven = ProvenCache(tmp_path)
    analyst = Analyst(lambda v: tables.opened(v) or tables.try_open(v), proven, SearcherPool(1))
    position = Position.empty(V).play(5).play(10)
    searched = analyst.analyze(position, Budget(5.0))
    assert searched.source is Source.SEARCH and searched.exact and searched.nodes > 0
    assert analyst.analyze(position, Budget(5.0)).source is Source.CACHE
    assert analyst.analyze(position, Budget(5.0), search_only=True).source is Source.SEARCH
    tables.get(V)
    from_table = analyst.analyze(position, Budget(5.0))
    assert from_table.source is Source.TABLE and from_table.moves == searched.moves


def test_an_answers_value_is_only_what_its_moves_prove() -> None:
    position = Position.empty(V)
    win = KnownMove(0, 1, 1, 7)
    maybe = KnownMove(1, 0, 1, None, Estimate(5, 3))
    draw = KnownMove(2, 0, 0, 16)
    answer = Answer.of_proofs(position, [draw, maybe, win], Source.SEARCH)
    assert [m.cell for m in answer.moves] == [0, 1, 2]  # a win, at least a draw, a draw
    # a win is proven, but the unproven move might win faster: no value, no best move proven
    assert answer.result is not None and answer.value is None and answer.best_moves == ()
    assert answer.best_move == 0 and not answer.best_move_proven and not answer.exact
    sure = Answer.of_proofs(position, [draw, KnownMove(1, 1, 1, 9), win], Source.SEARCH)
    assert sure.value == Value(1, 7) and sure.best_moves == (0,) and sure.exact


@pytest.mark.slow
def test_the_book_agrees_with_the_table(tmp_path: Path) -> None:
    """The book of 4x4k4 to ply 3, searched at the deepest ply on two processes and derived above it,
    holds what the table holds."""
    store = ProvenCache(tmp_path)
    counts = build_book(V, 3, store, processes=2)
    layers = book_positions(V, 3)
    assert [c.positions for c in counts] == [len(layer) for layer in layers]
    assert [len(layer) for layer in layers][:3] == [1, 3, 33]  # corner, edge and centre openings, ...
    assert [c.searched for c in counts] == [0, 0, 0, len(layers[3])]  # the deepest ply only
    table = TableStore(tmp_path / "tables").get(V)
    for layer in layers:
        for position in layer:
            record = store.get(position)
            assert record is not None and record.exact and record.origin.door == BOOK
            want = {m.cell: m.value for m in table.lookup(position).moves}
            assert {m.cell: Value(m.lower, m.remoteness or 0) for m in record.moves} == want
    assert store.stats().book == sum(len(layer) for layer in layers)
