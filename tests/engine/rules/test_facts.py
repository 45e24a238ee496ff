"""Published facts about the variants, from sources independent of this code (X moves first)."""

from __future__ import annotations

import pytest

from service.engine import Position, Result, Table, get_variant, summarize


def empty_value(tables: dict[str, Table], name: str) -> tuple[Result, int]:
    value = tables[name].value(Position.empty(get_variant(name)))
    return value.result, value.remoteness


@pytest.mark.slow
def test_4x4_four_in_a_row(tables: dict[str, Table]) -> None:
    assert tables["4x4k4"].positions == 9_722_011
    assert summarize(tables["4x4k4"], canonical=True).positions == 1_217_977
    assert empty_value(tables, "4x4k4") == (Result.DRAW, 16)  # a draw fills the board


@pytest.mark.slow
def test_4x4_three_in_a_row(tables: dict[str, Table]) -> None:
    assert tables["4x4k3"].positions == 6_036_001
    assert summarize(tables["4x4k3"], canonical=True).positions == 756_387
    assert empty_value(tables, "4x4k3") == (Result.WIN, 5)


def test_3x4_three_in_a_row_is_a_first_player_win_in_seven(tables: dict[str, Table]) -> None:
    assert empty_value(tables, "3x4k3") == (Result.WIN, 7)


def test_3x3_torus_is_won_in_seven_and_never_drawn(tables: dict[str, Table]) -> None:
    assert empty_value(tables, "3x3k3-torus") == (Result.WIN, 7)
    summary = summarize(tables["3x3k3-torus"])
    assert summary.by_result["draw"] == 0 and summary.by_status["draw"] == 0


def test_misere_4x4_four_in_a_row_is_a_draw(tables: dict[str, Table]) -> None:
    assert empty_value(tables, "4x4k4-misere")[0] is Result.DRAW


@pytest.mark.parametrize("first", ["X", "O"])
def test_the_classic_board_still_holds(tables: dict[str, Table], first: str) -> None:
    assert empty_value(tables, "normal") == (Result.DRAW, 9)
    assert summarize(tables["normal"], first).by_result == {"win": 2836, "draw": 1068, "loss": 1574}
    assert summarize(tables["misere"], first, canonical=True).by_result == {
        "win": 421,
        "draw": 140,
        "loss": 204,
    }
