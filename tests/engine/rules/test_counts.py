"""Counting tests (perft): the rules pinned to published numbers, and tier counts to the reference's."""

from __future__ import annotations

from collections import Counter

import pytest

from service.engine import MISERE, NORMAL, Position, Table, count_games, get_variant, summarize
from tests.reference import Rules, all_reachable, reachable

BY_MARKS = (1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78)


@pytest.mark.parametrize("first", ["X", "O"])
def test_reachable_positions(tables: dict[str, Table], first: str) -> None:
    summary = summarize(tables["normal"], first)
    assert summary.positions == 5478 == len(all_reachable(first))
    assert summary.by_marks == BY_MARKS
    finished = {k: v for k, v in summary.by_status.items() if k != "in_progress"}
    assert summary.by_status["in_progress"] == 4520
    assert sum(finished.values()) == 958
    first_wins, second_wins = (626, 316) if first == "X" else (316, 626)
    assert finished == {"x_won": first_wins, "o_won": second_wins, "draw": 16}


def test_symmetry_classes(tables: dict[str, Table]) -> None:
    for first in "XO":
        assert summarize(tables["normal"], first, canonical=True).positions == 765


def test_game_counts_normal() -> None:
    assert count_games(Position.empty(NORMAL)) == {
        "total": 255168,
        "x_won": 131184,
        "o_won": 77904,
        "draw": 46080,
    }


@pytest.mark.slow
def test_game_counts_misere_swap_winners() -> None:
    assert count_games(Position.empty(MISERE)) == {
        "total": 255168,
        "x_won": 77904,
        "o_won": 131184,
        "draw": 46080,
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", ["2x4k3", "3x3k3-torus", "2x5k4-torus-misere", "3x4k3", "4x3k4-misere"])
def test_positions_by_marks_equal_the_reference_walk(tables: dict[str, Table], name: str) -> None:
    from tests.engine.tables.boards import table_of

    variant = get_variant(name)
    rules = Rules(variant.rows, variant.cols, variant.k, variant.misere, variant.torus)
    walked = Counter(board.count("X") + board.count("O") for board in reachable(rules, "X"))
    summary = summarize(table_of(variant), "X")
    assert summary.by_marks == tuple(walked[n] for n in range(variant.cells + 1))
