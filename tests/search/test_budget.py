"""A budget that runs out leaves moves unknown or bounded, never wrong; a search can be cancelled from
another thread, and it lets the interpreter run other threads meanwhile."""

from __future__ import annotations

import threading
import time

import pytest

from service.engine import EngineBusyError, Position, TableStore, Value, Variant, get_variant
from service.engine.search import Budget, Cancel, MoveProof, SearchEngine
from tests.search.positions import position_of
from tests.search.test_tables import random_positions

SIX = Variant(6, 6, 5)


def consistent(move: MoveProof, truth: Value) -> bool:
    """What the move claims holds for its true value."""
    if not move.lower <= truth.score <= move.upper:
        return False
    if move.result is not None and move.remoteness is not None:
        return move.value == truth
    return move.remoteness is None


@pytest.mark.parametrize("nodes", [1, 30, 300, 3000])
def test_a_node_limit_never_gives_a_wrong_value(store: TableStore, nodes: int) -> None:
    variant = get_variant("4x4k4-misere")
    table, engine = store.get(variant), SearchEngine(variant, table_bits=14)
    unknown = 0
    for position in random_positions(variant, 150, seed=nodes):
        engine.table.clear()
        analysis = engine.analyze(position, Budget(nodes=nodes))
        truth = {} if position.is_over else {m.cell: m.value for m in table.lookup(position).moves}
        assert {m.cell for m in analysis.moves} == set(truth)
        for move in analysis.moves:
            assert consistent(move, truth[move.cell]), (position.cells, move, truth[move.cell])
        unknown += sum(move.value is None for move in analysis.moves)
        assert analysis.nodes <= nodes
    assert unknown > 0 or nodes >= 3000  # the small limits do stop searches


def test_a_deadline_is_kept() -> None:
    engine = SearchEngine(Variant(6, 6, 5), table_bits=14)
    started = time.monotonic()
    analysis = engine.analyze(Position.empty(Variant(6, 6, 5)), Budget(seconds=0.2))
    assert time.monotonic() - started < 0.5
    assert not analysis.exact
    assert all(move.result is None for move in analysis.moves)


def test_a_spent_budget_still_answers_moves_that_end_the_game() -> None:
    # X (to move) holds three of a row with the fourth empty; no search is needed to see the win
    variant = Variant(5, 5, 4)
    x, o = 0b1110, 0b111 << 10
    position = position_of(variant, x, o | 1 << 24)
    analysis = SearchEngine(variant, table_bits=14).analyze(position, Budget(nodes=1))
    wins = [move for move in analysis.moves if move.value == Value(1, 1)]
    assert [move.cell for move in wins] == [0, 4]


def test_cancel_from_another_thread() -> None:
    engine, cancel = SearchEngine(SIX, table_bits=14), Cancel()
    done: list[float] = []

    def search() -> None:
        engine.analyze(Position.empty(SIX), Budget(cancel=cancel))
        done.append(time.monotonic())

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(0.2)
    cancelled = time.monotonic()
    cancel.set()
    thread.join(timeout=5)
    assert done and done[0] - cancelled < 0.5


def test_a_search_releases_the_interpreter_and_its_engine_is_not_shared() -> None:
    engine, cancel = SearchEngine(SIX, table_bits=14), Cancel()
    thread = threading.Thread(
        target=engine.analyze, args=(Position.empty(SIX), Budget(seconds=5, cancel=cancel))
    )
    thread.start()
    time.sleep(0.05)
    try:
        with pytest.raises(EngineBusyError):
            engine.analyze(Position.empty(SIX), Budget(nodes=10))
        counted, until = 0, time.monotonic() + 0.3
        while time.monotonic() < until:  # this thread runs while the other one searches
            counted += 1
        assert counted > 10_000
    finally:
        cancel.set()
        thread.join()


def test_positions_of_another_variant_are_refused() -> None:
    engine = SearchEngine(Variant(4, 4, 4), table_bits=12)
    with pytest.raises(ValueError, match="4x4k3"):
        engine.analyze(Position.empty(get_variant("4x4k3")), Budget())
