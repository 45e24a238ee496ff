"""Cell names as players write them (column a at the left, row 1 at the bottom) and game records: move
lists and Piskvork's .psq files, each read back to the same game."""

from __future__ import annotations

import random

import pytest

from service.engine import EngineError, IllegalSequenceError, Position, get_variant
from service.engine.rules.notation import cell_name, cell_of
from service.engine.rules.records import (
    RecordError,
    cells_of,
    moves_text,
    psq_size,
    psq_text,
    read_moves_text,
    read_psq,
    replayed,
)

GOMOKU = get_variant("gomoku")


def test_h8_is_the_centre_and_row_1_the_bottom() -> None:
    """The renju federation's diagrams: columns a to o from the left, rows 1 to 15 from the bottom, h8
    the centre (cell 112, row 7 from the top). a1 is the bottom left corner, o15 the top right."""
    assert cell_of(GOMOKU, "h8") == 112 == 7 * 15 + 7 and cell_name(GOMOKU, 112) == "h8"
    assert cell_of(GOMOKU, "a1") == 14 * 15 and cell_of(GOMOKU, "O15") == 14 and cell_of(GOMOKU, "a15") == 0
    wide = get_variant("20x20k5")
    assert cell_name(wide, 19) == "t20" and cell_of(wide, "t1") == 399


def test_gravity_boards_count_rows_from_the_bottom_too() -> None:
    """Connect Four's first mark in the leftmost column lands on a1 (cell 35, the bottom row)."""
    connect4 = get_variant("connect4")
    landed = Position.empty(connect4).legal_moves()[0]
    assert cell_name(connect4, landed) == "a1" and landed == 35


def test_boards_under_13_a_side_count_rows_from_the_top_as_the_page_does() -> None:
    """The page names a small board's cells from the top left (service/static/game.js: `a1` top left),
    a go board's (13 a side or more, shape.js) and a rack's from the bottom: the API names them alike."""
    assert cell_name(get_variant("3x4k3"), 0) == "a1" and cell_name(get_variant("12x12k5"), 143) == "l12"
    assert (
        cell_name(get_variant("13x13k5"), 0) == "a13" and cell_name(get_variant("13x13k5-renju"), 168) == "m1"
    )
    assert cell_name(get_variant("13x13k5-torus"), 0) == "a1"  # a torus is drawn as a grid, not a go board


@pytest.mark.parametrize("name", ["p1", "h16", "h0", "hh", "8h", "", "h 8"])
def test_a_name_off_the_board_or_out_of_form_is_refused(name: str) -> None:
    with pytest.raises(EngineError) as refused:
        cell_of(GOMOKU, name)
    assert refused.value.code == "bad_cell_name"


def test_every_cell_s_name_reads_back_on_every_size() -> None:
    for rows, cols in [(15, 15), (20, 20), (6, 7), (19, 19), (3, 20)]:
        variant = get_variant(f"{rows}x{cols}k3")
        assert [cell_of(variant, cell_name(variant, c)) for c in range(variant.cells)] == list(
            range(variant.cells)
        )


def a_game(seed: int, plies: int) -> list[int]:
    """The moves of a random game under renju (forbidden points never played)."""
    rng = random.Random(seed)
    position, cells = Position.empty(get_variant("renju")), list[int]()
    while len(cells) < plies and not position.is_over:
        cell = rng.choice(position.legal_moves())
        position, cells = position.play(cell), [*cells, cell]
    return cells


@pytest.mark.parametrize("seed", range(3))
def test_a_move_list_and_a_psq_record_read_back_to_the_same_game(seed: int) -> None:
    renju = get_variant("renju")
    cells = a_game(seed, 60)
    assert read_moves_text(renju, moves_text(renju, cells)) == cells
    record = psq_text(renju, cells)
    assert record.splitlines()[0] == "Piskvork 15x15, 11:11, 0" and record.splitlines()[-1] == "-1"
    assert read_psq(renju, record + "pbrain-one.exe\npbrain-two.exe\n") == cells
    assert replayed(renju, cells).cells == replayed(renju, read_psq(renju, record)).cells


def test_a_psq_record_s_coordinates_are_one_based_from_the_top_left() -> None:
    """Piskvork writes x (the column) then y (the row), from 1 at the top left: 8,8 is the centre, 1,1
    cell 0, 15,1 the top right corner, and 1,2 the first cell of the second row."""
    record = "Piskvork 15x15, 11:11, 0\n8,8,1000\n1,1,0\n15,1,0\n1,2,0\n-1\n"
    assert read_psq(GOMOKU, record) == [112, 0, 14, 15]
    assert psq_size("Piskvork 20x20, 11:11, 0\n") == (20, 20)


@pytest.mark.parametrize(
    ("record", "code"),
    [
        ("8,8,0\n", "bad_record"),
        ("Piskvork 20x20, 11:11, 0\n10,10,0\n", "record_size"),
        ("Piskvork 15x15, 11:11, 0\n16,1,0\n", "bad_record"),
    ],
)
def test_a_bad_psq_record_is_refused_with_its_reason(record: str, code: str) -> None:
    with pytest.raises(RecordError) as refused:
        read_psq(GOMOKU, record)
    assert refused.value.code == code


def test_a_record_that_plays_a_forbidden_point_names_its_ply() -> None:
    """Black's sixth stone joins X X X . X X: an overline, refused at ply 11."""
    moves = "a15 a1 b15 b1 c15 c1 e15 d1 f15 e2 d15"
    with pytest.raises(IllegalSequenceError) as refused:
        replayed(get_variant("renju"), read_moves_text(get_variant("renju"), moves))
    assert (refused.value.code, refused.value.ply) == (
        "forbidden",
        11,
    ) and "overline" in refused.value.message
    assert replayed(GOMOKU, read_moves_text(GOMOKU, moves)).status == "x_won"  # freestyle: six win
    with pytest.raises(IllegalSequenceError) as named:
        cells_of(GOMOKU, ["h8", 3, "z1"])
    assert (named.value.code, named.value.ply) == ("bad_cell_name", 3)
