"""Game values: the published facts, and every position against the brute-force reference."""

from __future__ import annotations

import pytest

from service.engine import MISERE, NORMAL, Position, Result, Table, lookups, summarize
from tests.reference import all_reachable, minimax, move_values


def test_normal_empty_board_draws_and_every_opening_draws(tables: dict[str, Table]) -> None:
    analysis = tables["normal"].lookup(Position.empty(NORMAL))
    assert analysis.value.result is Result.DRAW
    assert analysis.value.remoteness == 9
    assert sorted(m.cell for m in analysis.moves) == list(range(9))
    assert all(m.value.result is Result.DRAW for m in analysis.moves)
    assert analysis.best_moves == tuple(range(9))
    assert analysis.best_move == 0


def test_misere_only_the_centre_draws(tables: dict[str, Table]) -> None:
    analysis = tables["misere"].lookup(Position.empty(MISERE))
    assert analysis.value.result is Result.DRAW
    assert analysis.best_moves == (4,)
    assert analysis.best_move == 4
    for move in analysis.moves:
        if move.cell != 4:
            assert move.value.result is Result.LOSS
            assert move.value.remoteness == 9


@pytest.mark.parametrize(
    ("variant", "canonical", "expected"),
    [
        ("normal", False, {"win": 2836, "draw": 1068, "loss": 1574}),
        ("normal", True, {"win": 390, "draw": 151, "loss": 224}),
        ("misere", False, {"win": 3054, "draw": 980, "loss": 1444}),
        ("misere", True, {"win": 421, "draw": 140, "loss": 204}),
    ],
)
def test_results_over_the_table(
    tables: dict[str, Table], variant: str, canonical: bool, expected: dict[str, int]
) -> None:
    for first in "XO":
        assert summarize(tables[variant], first, canonical).by_result == expected


@pytest.mark.parametrize("variant", ["normal", "misere"])
@pytest.mark.parametrize("first", ["X", "O"])
def test_every_position_matches_the_reference(tables: dict[str, Table], variant: str, first: str) -> None:
    misere = variant == "misere"
    entries = {a.position.cells: a for a in lookups(tables[variant], first)}
    reachable = all_reachable(first)
    assert list(entries) == sorted(
        reachable, key=lambda b: (9 - b.count("."), b.translate(SWAP) if first == "O" else b)
    )
    for board, to_move in reachable.items():
        analysis = entries[board]
        assert analysis.position.to_move == to_move
        assert tuple(analysis.value) == minimax(board, to_move, misere), board
        expected = move_values(board, to_move, misere)
        assert {m.cell: tuple(m.value) for m in analysis.moves} == expected, board
        if expected:
            best = max(expected.values(), key=lambda v: (v[0], -v[1] if v[0] > 0 else v[1]))
            assert tuple(analysis.value) == best
            assert analysis.best_moves == tuple(sorted(c for c, v in expected.items() if v == best))
            assert analysis.best_move == min(analysis.best_moves)
            assert analysis.moves[0].cell == analysis.best_move


SWAP = str.maketrans("XO", "OX")


def test_moves_are_ordered_best_first_then_by_cell(tables: dict[str, Table]) -> None:
    analysis = tables["normal"].lookup(Position.parse("XX.OO...."))
    values = [(m.cell, tuple(m.value)) for m in analysis.moves]
    # Win at once; else block (draw); every other move lets O win next: ties go by cell.
    assert values == [(2, (1, 1)), (5, (0, 5)), (6, (-1, 2)), (7, (-1, 2)), (8, (-1, 2))]
