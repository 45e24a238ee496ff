"""Gravity tables: every reachable position of small boards, value and every move's, against the search
tests' brute-force string reference (tests/reference.py); the table holding exactly the positions
play reaches; larger boards against the search on positions of random games; Tromp's results."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from service.engine import Position, TableStore, Variant, get_variant, summarize
from service.engine.search import Budget, Searcher
from service.engine.tables.classes import class_layout_of
from service.engine.tables.gravity_solver import fold_reachable, solve_gravity_tiers
from service.engine.tables.solver import fold_tiers
from tests.engine.tables.boards import solved_table
from tests.reference import Reference, rules_of, states

WHOLE = ["3x4k3-gravity", "4x3k3-gravity", "3x4k3-gravity-misere", "2x5k3-gravity", "3x3k3-torus-gravity"]


@pytest.mark.slow
@pytest.mark.parametrize("name", WHOLE)
def test_every_reachable_position_against_the_reference(name: str) -> None:
    sys.setrecursionlimit(10_000)
    variant = get_variant(name)
    table = solved_table(variant)
    reference = Reference(rules_of(variant))
    for first in "XO":
        reference.memo.clear()
        reference.value("." * variant.cells, first)  # the memo: every position play reaches
        for (board, to_move), value in reference.memo.items():
            position = Position.parse(board, to_move, variant)
            assert tuple(table.value(position)) == value, (board, to_move)
            moves = {} if position.is_over else reference.moves(board, to_move)
            assert {m.cell: tuple(m.value) for m in table.lookup(position).moves} == moves, board
    assert table.positions == len(reference.memo)  # as many X first as O first


@pytest.mark.slow
@pytest.mark.parametrize("name", ["3x4k3-gravity", "4x4k4-gravity"])
def test_the_table_holds_exactly_the_positions_play_reaches(name: str) -> None:
    variant = get_variant(name)
    table = solved_table(variant)
    walked = {
        table.rank(Position.parse(board, to_move, variant))
        for board, to_move in states(rules_of(variant), "X")
    }
    assert set(np.flatnonzero(table.values).tolist()) == walked


def test_the_solve_table_of_a_gravity_board() -> None:
    """Summaries count the reachable positions, and the classes under the mirror alone."""
    variant = get_variant("3x4k3-gravity")
    table = solved_table(variant)
    walked = states(rules_of(variant), "X")
    assert summarize(table).positions == len(walked) == table.positions
    mirrored = {
        min(board, "".join(board[r * 4 : r * 4 + 4][::-1] for r in range(3))) + to_move
        for board, to_move in walked
    }
    assert summarize(table, canonical=True).positions == len(mirrored)


def random_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """Positions of random games, either first player, stopped at a random ply (not over)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position.empty(variant, rng.choice("XO"))
        for _ in range(rng.randrange(variant.cells)):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over:
                break
        if not position.is_over:
            found.append(position)
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "count"), [("4x4k4-gravity", 150), ("4x4k3-torus-gravity-misere", 100), ("4x5k3-gravity", 150)]
)
def test_tables_agree_with_the_search(store: TableStore, name: str, count: int) -> None:
    variant = get_variant(name)
    table, engine = store.get(variant), Searcher(variant, table_bits=16)
    for position in random_positions(variant, count, seed=variant.cells):
        analysis = engine.analyze(position, Budget())
        assert analysis.exact
        assert {m.cell: m.value for m in analysis.moves} == {
            m.cell: m.value for m in table.lookup(position).moves
        }
        assert analysis.value == table.value(position), position.cells


# Tromp's results, his columns x rows: 4x4 and 5x4 (our 4x5) and 4x5 (our 5x4) draws; a draw fills the board.
@pytest.mark.slow
@pytest.mark.parametrize(("name", "positions"), [("4x4k4-gravity", 161_029), ("4x5k4-gravity", 3_945_711)])
def test_known_results_and_counts(store: TableStore, name: str, positions: int) -> None:
    variant = get_variant(name)
    table = store.get(variant)
    assert tuple(table.value(Position.empty(variant))) == (0, variant.cells)
    assert table.positions == positions


@pytest.mark.slow
def test_5x4k4_gravity_is_a_draw(store: TableStore) -> None:
    variant = get_variant("5x4k4-gravity")  # Tromp's 4 columns x 5 rows
    assert tuple(store.get(variant).value(Position.empty(variant))) == (0, 20)


@pytest.mark.parametrize("name", ["3x4k3-gravity-misere", "4x4k3-torus-gravity-misere", "2x5k3-gravity"])
def test_folding_the_reachable_positions_is_folding_every_entry(name: str) -> None:
    # The gravity build folds only what play reaches into the class layout; every entry, as the other
    # boards are folded, gives the same bytes (the unreachable ones NOT_REACHABLE).
    variant = get_variant(name)
    layout = class_layout_of(variant)
    every_entry = list(fold_tiers(layout, solve_gravity_tiers(variant)))
    reachable_only = list(fold_reachable(layout, solve_gravity_tiers(variant)))
    assert [tier for tier, _ in reachable_only] == [tier for tier, _ in every_entry]
    for (_, ours), (_, theirs) in zip(reachable_only, every_entry, strict=True):
        assert np.array_equal(ours, theirs)
