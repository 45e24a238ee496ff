"""Positions: parsing, canonical output, and validation with one reason code per cause."""

from __future__ import annotations

import contextlib
import itertools

import pytest

from service.engine import MISERE, NORMAL, InvalidPositionError, Position, Status, get_variant
from tests.reference import all_reachable, reachable, rules_of


@pytest.mark.parametrize(
    ("board", "canonical"),
    [("x...o....", "X...O...."), ("X-_-O----", "X...O...."), ("xo_______", "XO.......")],
)
def test_input_spellings_give_canonical_boards(board: str, canonical: str) -> None:
    assert Position.parse(board).cells == canonical


@pytest.mark.parametrize(
    ("board", "to_move", "expected"),
    [
        (".........", None, "X"),
        (".........", "O", "O"),
        (".........", "o", "O"),
        ("X........", None, "O"),
        ("O........", None, "X"),
        ("XO.......", None, "X"),
        ("XO.......", "O", "O"),
    ],
)
def test_side_to_move_is_inferred_or_checked(board: str, to_move: str | None, expected: str) -> None:
    assert Position.parse(board, to_move).to_move == expected


@pytest.mark.parametrize(
    ("board", "to_move", "code", "field"),
    [
        ("X.......", None, "wrong_length", "board"),
        ("X.........", None, "wrong_length", "board"),
        ("X...Z....", None, "bad_character", "board"),
        ("X...0....", None, "bad_character", "board"),
        ("XX.......", None, "impossible_counts", "board"),
        ("OOO.X....", None, "impossible_counts", "board"),
        (".........", "Z", "bad_side_to_move", "to_move"),
        ("X........", "X", "wrong_side_to_move", "to_move"),
        ("O........", "O", "wrong_side_to_move", "to_move"),
        ("XXXOOO...", "X", "both_lines", "board"),
        ("XXXOO....", "X", "wrong_side_to_move", "to_move"),
        ("XXXOO.O..", None, "line_by_side_to_move", "board"),
        ("XXX...OOO", "X", "both_lines", "board"),
        ("OOOXX.X..", "O", "line_by_side_to_move", "board"),
        ("XXXO.OXXX", None, "impossible_counts", "board"),
    ],
)
def test_invalid_positions_name_their_cause(board: str, to_move: str | None, code: str, field: str) -> None:
    with pytest.raises(InvalidPositionError) as caught:
        Position.parse(board, to_move)
    assert caught.value.code == code
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError)
    assert caught.value.message


@pytest.mark.slow
@pytest.mark.parametrize("name", ["2x4k3", "2x4k3-torus", "3x3k3-torus", "2x5k4-misere"])
def test_valid_means_reachable_on_other_boards(name: str) -> None:
    variant = get_variant(name)
    rules = rules_of(variant)
    expected = {(b, m) for first in "XO" for b, m in reachable(rules, first).items()}
    accepted = set()
    for cells in itertools.product("XO.", repeat=variant.cells):
        for side in "XO":
            with contextlib.suppress(InvalidPositionError):
                accepted.add((Position.parse("".join(cells), side, variant).cells, side))
    assert accepted == expected


@pytest.mark.parametrize(
    ("board", "name", "cells"),
    [
        ("X.../.O../..../....", "4x4k4", "X....O.........."),
        ("x-o/.../...", "normal", "X.O......"),
        ("XO../..../....", "3x4k3", "XO.........."),
    ],
)
def test_rows_may_be_separated_by_slashes(board: str, name: str, cells: str) -> None:
    assert Position.parse(board, None, get_variant(name)).cells == cells


@pytest.mark.parametrize(
    ("board", "name"), [("X.../.O../....", "4x4k4"), ("X../.O./...", "3x4k3"), ("XO./...", "normal")]
)
def test_separated_rows_must_have_the_boards_shape(board: str, name: str) -> None:
    with pytest.raises(InvalidPositionError) as caught:
        Position.parse(board, None, get_variant(name))
    assert caught.value.code == "wrong_shape" and caught.value.field == "board"


@pytest.mark.slow
def test_valid_means_reachable_for_every_board_and_side() -> None:
    """All 3^9 boards with each side to move: accepted exactly when some legal game reaches them."""
    reachable = {(b, m) for first in "XO" for b, m in all_reachable(first).items()}
    accepted = set()
    for cells in itertools.product("XO.", repeat=9):
        board = "".join(cells)
        for side in "XO":
            with contextlib.suppress(InvalidPositionError):
                accepted.add((Position.parse(board, side).cells, side))
    assert accepted == reachable
    assert len(reachable) == 2 * 5478  # the two first players never share a (board, side) pair


@pytest.mark.parametrize(
    ("board", "status"),
    [
        (".........", Status.IN_PROGRESS),
        ("XXXOO....", Status.X_WON),
        ("OOOXX.X..", Status.O_WON),
        ("XOXXOOOXX", Status.DRAW),
    ],
)
def test_status_normal(board: str, status: Status) -> None:
    assert Position.parse(board, variant=NORMAL).status is status


def test_status_misere_line_maker_loses() -> None:
    assert Position.parse("XXXOO....", variant=MISERE).status is Status.O_WON


def test_finished_positions_have_no_moves() -> None:
    assert Position.parse("XXXOO....").legal_moves() == []
    assert Position.parse("XOXXOOOXX").legal_moves() == []


def test_lines_no_single_move_completed_are_unreachable() -> None:
    """On 3x3 two such lines need too many marks; a wider board shows the cause on its own."""
    wide = get_variant("3x5k3")
    board = "XXX.OOO.O.XXXO."
    with pytest.raises(InvalidPositionError) as caught:
        Position.parse(board, variant=wide)
    assert caught.value.code == "unreachable"
    assert Position.parse("XXX..OO.O.XX.O.", variant=wide).status is Status.X_WON
