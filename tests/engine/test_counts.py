"""Counting tests (perft): the rules pinned to published numbers."""

from __future__ import annotations

import pytest

from service.engine import MISERE, NORMAL, Position, Solver, count_games, solve_table
from tests.reference import all_reachable

BY_MARKS = (1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78)


@pytest.mark.parametrize("first", ["X", "O"])
def test_reachable_positions(solvers: dict[str, Solver], first: str) -> None:
    table = solve_table(solvers["normal"], first)
    assert table.summary.positions == 5478 == len(table.entries)
    assert set(table.entries) == set(all_reachable(first))
    assert table.summary.by_marks == BY_MARKS
    finished = {k: v for k, v in table.summary.by_status.items() if k != "in_progress"}
    assert table.summary.by_status["in_progress"] == 4520
    assert sum(finished.values()) == 958
    first_wins, second_wins = (626, 316) if first == "X" else (316, 626)
    assert finished == {"x_won": first_wins, "o_won": second_wins, "draw": 16}


def test_symmetry_classes(solvers: dict[str, Solver]) -> None:
    for first in "XO":
        table = solve_table(solvers["normal"], first, canonical=True)
        assert table.summary.positions == 765 == len(table.entries)


def test_game_counts_normal() -> None:
    assert count_games(Position.empty(NORMAL)) == {
        "total": 255168,
        "x_won": 131184,
        "o_won": 77904,
        "draw": 46080,
    }


def test_game_counts_misere_swap_winners() -> None:
    assert count_games(Position.empty(MISERE)) == {
        "total": 255168,
        "x_won": 77904,
        "o_won": 131184,
        "draw": 46080,
    }
