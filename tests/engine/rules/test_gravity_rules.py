"""Gravity's rules (a mark played in a column falls to its lowest empty cell): names, symmetries, moves,
and which boards `Position.parse` accepts, against a brute-force walk of play written here with the
string reference (tests/reference.py), not with the engine's code."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator

import pytest

from service.engine import (
    PRESETS,
    IllegalMoveError,
    IllegalSequenceError,
    InvalidPositionError,
    Position,
    UnknownVariantError,
    Variant,
    geometry_of,
    get_variant,
    moves_from_boards,
    review_game,
    supported_variants,
)
from service.engine.play.heuristic import WIN, depth_limited_move, search_value
from service.engine.rules import gravity as gravity_module
from tests.engine.tables.boards import solved_table
from tests.reference import rules_of, states


def test_connect4_names_6x7k4_gravity() -> None:
    connect4 = get_variant("connect4")
    assert (connect4.rows, connect4.cols, connect4.k, connect4.gravity) == (6, 7, 4, True)
    assert not connect4.misere and not connect4.torus
    assert connect4.name == "connect4" and connect4.long_name == "6x7k4-gravity"
    assert get_variant("6x7k4-gravity") == connect4 and get_variant("6x7k4-gravity").name == "connect4"
    assert connect4 not in PRESETS and not connect4.has_table


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("4x5k4-gravity", (4, 5, 4, False, False, True)),
        ("4x5k4-gravity-misere", (4, 5, 4, True, False, True)),
        ("3x4k3-torus-gravity", (3, 4, 3, False, True, True)),
        ("3x4k3-torus-gravity-misere", (3, 4, 3, True, True, True)),
        ("6x7k4", (6, 7, 4, False, False, False)),
    ],
)
def test_gravity_names(name: str, fields: tuple[int, int, int, bool, bool, bool]) -> None:
    variant = get_variant(name)
    assert (variant.rows, variant.cols, variant.k, variant.misere, variant.torus, variant.gravity) == fields
    assert variant.long_name == name == variant.name


@pytest.mark.parametrize("name", ["4x5k4-misere-gravity", "4x5k4-gravity-torus", "4x5k4-gravity-gravity"])
def test_one_spelling_per_variant(name: str) -> None:
    with pytest.raises(UnknownVariantError):
        get_variant(name)


def test_gravity_variants_are_supported_and_have_tables_up_to_22_cells() -> None:
    every = supported_variants(64)
    gravity = [v for v in every if v.gravity]
    assert len(gravity) == len(every) // 2
    assert all(v.has_table is (v.cells <= 22) for v in gravity)
    assert get_variant("connect4") in every


def test_the_rules_sentence_says_that_marks_fall() -> None:
    sentence = get_variant("connect4").rules
    assert "falls to its lowest empty cell" in sentence
    assert sentence.endswith("a full board without a line is a draw.")
    assert "falls" not in get_variant("6x7k4").rules


@pytest.mark.parametrize(
    ("name", "symmetries"),
    [("4x4k4-gravity", 2), ("3x3k3-gravity", 2), ("4x5k4-gravity", 2), ("3x4k3-torus-gravity", 8)],
)
def test_under_gravity_only_the_maps_that_keep_rows_are_symmetries(name: str, symmetries: int) -> None:
    variant = get_variant(name)
    found = geometry_of(variant).symmetries
    assert len(found) == symmetries
    for symmetry in found:
        assert all(target // variant.cols == cell // variant.cols for cell, target in enumerate(symmetry))
    mirror = tuple(
        r * variant.cols + variant.cols - 1 - c for r in range(variant.rows) for c in range(variant.cols)
    )
    assert mirror in found
    assert geometry_of(variant).symmetries == found
    assert set(geometry_of(variant).point_symmetries) <= set(found)


def test_legal_moves_are_the_lowest_empty_cells() -> None:
    variant = get_variant("4x4k3-gravity")
    empty = Position.empty(variant)
    assert empty.legal_moves() == [12, 13, 14, 15]
    position = empty.play(13).play(9)
    assert position.legal_moves() == [5, 12, 14, 15]


def test_playing_above_an_empty_cell_is_not_lowest() -> None:
    position = Position.empty(get_variant("connect4"))
    with pytest.raises(IllegalMoveError) as caught:
        position.play(3)
    assert caught.value.code == "not_lowest" and caught.value.field == "cell"
    assert "cell 3 " in caught.value.message and "falls to cell 38" in caught.value.message
    with pytest.raises(IllegalMoveError) as taken:
        position.play(38).play(38)
    assert taken.value.code == "cell_taken"


@pytest.mark.parametrize(
    ("name", "board", "code", "cell"),
    [
        ("4x4k4-gravity", "X.../..../..../....", "floating_mark", "cell 0 "),
        ("4x4k4-gravity", "..../..X./..../..O.", "floating_mark", "cell 6 "),
        # X first: the left column holds X, X, O from the bottom; the one O must come between the X's
        ("4x4k4-gravity", "..../O.../X.../X...", "unreachable", "no order of moves"),
        ("4x4k4-gravity", "..../O.../X.../X.O.", None, ""),
        # X's two lines meet at cells 13 and 14, under O's marks: neither was played last
        ("4x4k3-gravity", "..../.O../.OO./XXXX", "unreachable", "cannot have been completed last"),
        ("4x4k4-gravity", "..../.O../.OO./XXXX", None, ""),  # cell 12 or 15 was
    ],
)
def test_impossible_gravity_boards(name: str, board: str, code: str | None, cell: str) -> None:
    variant = get_variant(name)
    if code is None:
        Position.parse(board, None, variant)
        return
    with pytest.raises(InvalidPositionError) as caught:
        Position.parse(board, None, variant)
    assert caught.value.code == code and cell in caught.value.message


def stacked_boards(rows: int, cols: int) -> Iterator[str]:
    """Every board without a floating mark: each column some marks from the bottom up."""
    stacks = [tuple(s) for height in range(rows + 1) for s in itertools.product("XO", repeat=height)]
    for columns in itertools.product(stacks, repeat=cols):
        grid = [["."] * cols for _ in range(rows)]
        for col, stack in enumerate(columns):
            for height, mark in enumerate(stack):
                grid[rows - 1 - height][col] = mark
        yield "".join("".join(row) for row in grid)


def accepted(variant: Variant) -> set[tuple[str, str]]:
    found = set()
    for board in stacked_boards(variant.rows, variant.cols):
        if abs(board.count("X") - board.count("O")) > 1:
            continue
        for to_move in "XO":
            with contextlib.suppress(InvalidPositionError):
                found.add((Position.parse(board, to_move, variant).cells, to_move))
    return found


EXACT = ["3x4k3-gravity", "4x3k3-gravity-misere", "2x5k3-gravity", "3x3k3-torus-gravity", "2x4k4-gravity"]


@pytest.mark.slow
@pytest.mark.parametrize("name", EXACT)
def test_parse_accepts_exactly_the_boards_play_reaches(name: str) -> None:
    variant = get_variant(name)
    walked = states(rules_of(variant), "X") | states(rules_of(variant), "O")
    assert accepted(variant) == walked
    assert len(walked) > 1000


def test_both_ways_of_deciding_the_order_of_play_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    variant = get_variant("3x3k3-gravity")
    by_depth = accepted(variant)
    monkeypatch.setattr(gravity_module, "STATES_FIRST", 0)  # every board by the layer walk
    assert accepted(variant) == by_depth


def test_a_board_the_depth_first_walk_gives_up_on() -> None:
    # Full 6x7 columns from the bottom up, F the first player's marks: found by a hill climb, the
    # depth-first walk tries 300,000 states (half a second) to refute it.
    columns = ["SFSSSF", "FSSFSF", "FSSFSF", "FSFSSF", "FFFSSF", "FSSFSF", "FSSFSF"]
    stacks = [tuple(mark == "F" for mark in column) for column in columns]
    assert gravity_module.depth_first(stacks, 2000) is None
    assert gravity_module.layer_by_layer(stacks) is False
    assert gravity_module.buildable(stacks) is False
    assert gravity_module.buildable([(True, False, True), (False,)]) is True


def test_a_game_that_plays_above_an_empty_cell_names_its_ply() -> None:
    variant = get_variant("3x3k3-gravity")
    with pytest.raises(IllegalSequenceError) as from_boards:
        moves_from_boards(["......X..", "O.....X.."], "X", variant)
    assert (from_boards.value.code, from_boards.value.ply, from_boards.value.field) == (
        "not_lowest",
        2,
        "boards",
    )
    table = solved_table(variant)
    with pytest.raises(IllegalSequenceError) as from_moves:
        review_game(table, [6, 0])
    assert (from_moves.value.code, from_moves.value.ply, from_moves.value.field) == ("not_lowest", 2, "moves")
    assert [p.cell for p in review_game(table, [6, 3, 7]).plies] == [6, 3, 7]


def test_the_depth_policy_looks_ahead_through_playable_cells_only() -> None:
    # X's diagonal 14-9-4 and O's row 5-6 both need cell 4, over the empty cell 8: nobody can take it
    # next; O's column (cells 10 and 6) needs cell 2, which X must block.
    position = Position.parse("..../.OO./.XO./XOXX", None, get_variant("4x4k3-gravity"))
    assert depth_limited_move(position, 2) == 2
    assert -WIN + 10 < search_value(position, 2) < WIN - 10  # nothing forced within two plies
