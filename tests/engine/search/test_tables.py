"""The search agrees with the solved tables: every move's result and remoteness, and the position's
value, on every reachable position of the 3x3 boards and on positions of random games elsewhere."""

from __future__ import annotations

import pytest

from service.engine import MISERE, NORMAL, Position, TableStore, Variant, get_variant
from service.engine.search import Board, Budget, Searcher
from service.engine.search.native import (
    GOAL_SCORE,
    SCORE_MAX,
    SCORE_MIN,
    Game,
    Limits,
    TranspositionTable,
    prove,
)
from tests.engine.search.exact_scores import score_of
from tests.engine.search.positions import random_positions

SAMPLED = [
    get_variant(name)
    for name in (
        "3x4k3",
        "3x4k3-misere",
        "4x3k4",
        "2x7k3-torus",
        "3x5k3",
        "3x5k4-misere",
        "4x4k3",
        "4x4k3-misere",
        "4x4k4",
        "4x4k4-misere",
        "4x4k3-torus",
        "4x4k4-torus-misere",
        "2x8k4-misere",
    )
]
POSITIONS_PER_VARIANT = 500


def reachable(variant: Variant, first: str) -> list[Position]:
    start = Position.empty(variant, first)
    seen, frontier = {start}, [start]
    while frontier:
        position = frontier.pop()
        for cell in position.legal_moves():
            child = position.play(cell)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return sorted(seen, key=lambda p: (p.x, p.o, p.to_move))


def disagreements(store: TableStore, positions: list[Position]) -> list[str]:
    variant = positions[0].variant
    table, searcher = store.get(variant), Searcher(variant, table_bits=14)
    found = []
    for position in positions:
        analysis = searcher.analyze(position, Budget())
        want = {} if position.is_over else {m.cell: m.value for m in table.lookup(position).moves}
        got = {m.cell: m.value for m in analysis.moves}
        value = None if position.is_over else table.value(position)
        if got != want or analysis.value != value or not analysis.exact:
            found.append(f"{variant.name} {position.cells} {position.to_move}: {got} != {want}")
    return found


@pytest.mark.parametrize("variant", [NORMAL, MISERE, get_variant("3x3k3-torus")], ids=lambda v: v.name)
def test_every_reachable_3x3_position(store: TableStore, variant: Variant) -> None:
    positions = reachable(variant, "X") + reachable(variant, "O")
    assert len(positions) > 5000 or variant.torus
    assert disagreements(store, positions) == []


@pytest.mark.slow
@pytest.mark.parametrize("variant", SAMPLED, ids=lambda v: v.name)
def test_sampled_positions(store: TableStore, variant: Variant) -> None:
    positions = random_positions(variant, POSITIONS_PER_VARIANT, seed=variant.cells)
    assert disagreements(store, positions) == []


def test_one_table_serves_games_in_turn(store: TableStore) -> None:
    """The same marks mean different things under normal and misère rules: a table handed from one
    game to the other forgets the first (the core clears it when its game changes)."""
    table = TranspositionTable(bits=12)
    for variant in (NORMAL, MISERE, NORMAL):
        game = Game(Board.of(variant))
        for position in reachable(variant, "X")[::7]:
            if position.is_over:
                continue
            limits = Limits(deadline=0.0, nodes=0)
            outcome = prove(
                game, table, position.mine, position.theirs, GOAL_SCORE, limits, SCORE_MIN, SCORE_MAX
            )
            value = store.get(variant).value(position)
            assert outcome.lower == outcome.upper == score_of(value, position.marks, variant.cells)
