"""Renju's forbidden points (service/engine/rules/renju.py) on the shapes the federation's rules and the
renju primers show, written as positions, and against a brute-force reading of the same definitions
(renju_reference.py) on random small boards. Black is the first player: X here. `A` marks the cell
asked about; the white stones that even the counts stand in the bottom rows, apart."""

from __future__ import annotations

import random

import pytest

from service.engine import Position, get_variant
from service.engine.rules.renju import (
    Forbidden,
    ShapesAsked,
    Stones,
    forbidden_points,
    forbidden_shape,
    is_forbidden,
)
from tests.engine.random_stones import random_stones
from tests.engine.rules.renju_reference import reference_points

SIZE = 15


def board(*rows: str) -> tuple[Position, int]:
    """The position drawn by `rows` (from the top, spaces ignored) with white stones added apart in the
    bottom rows until the counts are even (black to move), and the cell marked A."""
    grid = [list(row.replace(" ", "").ljust(SIZE, ".")) for row in rows]
    grid += [["."] * SIZE for _ in range(SIZE - len(grid))]
    text = "".join("".join(row) for row in grid)
    move = text.index("A")
    text = text.replace("A", ".")
    spare = [r * SIZE + c for r in (14, 12) for c in range(0, SIZE, 2)]
    cells = list(text)
    while cells.count("X") > cells.count("O"):
        cells[spare.pop()] = "O"
    return Position.parse("".join(cells), "X", get_variant("15x15k5")), move


def test_an_open_three_in_two_lines_is_a_double_three() -> None:
    position, move = board(
        "",
        "",
        "",
        "....X",
        "....X",
        "..XXA",
    )
    assert forbidden_shape(position, move) is Forbidden.DOUBLE_THREE
    assert move in forbidden_points(position) and is_forbidden(position, move)


def test_a_split_three_counts_as_a_three() -> None:
    """X X . A: one more stone in the gap makes an unbroken four open at both ends."""
    position, move = board(
        "",
        "",
        "",
        "",
        ".....X",
        ".....X",
        "..XX.A.",
    )
    assert forbidden_shape(position, move) is Forbidden.DOUBLE_THREE


def test_a_three_blocked_at_one_end_is_no_three() -> None:
    position, move = board(
        "",
        "",
        "",
        "....X",
        "....X",
        ".OXXA",
    )
    assert forbidden_shape(position, move) is None


def test_a_three_whose_straight_four_would_need_an_overline_is_false() -> None:
    """The row O . A X X . . X X: from A the only four open at both ends would be A X X + the cell
    after, whose right end then makes six in a row (the cs.stackexchange question's false three):
    one three only, with the column. Without the two far stones the row is a three, and A a
    double-three."""
    rows = ["", "", "", "", ".....X", ".....X", "OA.XX..XX"]
    rows[6] = "O.AXX..XX"
    rows[4], rows[5] = "..X", "..X"
    position, move = board(*rows)
    assert forbidden_shape(position, move) is None
    rows[6] = "O.AXX...."
    open_row, move = board(*rows)
    assert forbidden_shape(open_row, move) is Forbidden.DOUBLE_THREE


def test_a_three_whose_only_straight_four_is_a_forbidden_point_does_not_count() -> None:
    """The recursive rule. A's row three (O . A X X . .) becomes a straight four only at the cell after
    the X's, and with A there that cell makes two fours at once (the row's straight four and the
    column's four below the three X's above it): forbidden, so the row is no three, and A, a three in
    its column too, is allowed. Without the three X's above that cell, A is a double-three."""
    rows = [
        "",
        "",
        "",
        "",
        "..........X",
        "..........X",
        "..........X",
        ".....O.AXX.",
        ".......X",
        ".......X",
    ]
    position, move = board(*rows)
    assert forbidden_shape(position, move) is None
    completion = move + 3
    with_a = Stones(SIZE, SIZE, position.x | 1 << move, position.o)
    assert with_a.shape(completion) is Forbidden.DOUBLE_FOUR
    assert Stones(SIZE, SIZE, position.x, position.o).shape(completion) is None  # before A: one four
    bare = [row if i not in (4, 5, 6) else "" for i, row in enumerate(rows)]
    without, move = board(*bare)
    assert forbidden_shape(without, move) is Forbidden.DOUBLE_THREE


def test_two_fours_in_one_line_are_a_double_four() -> None:
    """X . X A X . X: either gap makes five, each with other stones: two fours in one line."""
    position, move = board("", "", "", "", "", "", "", "..X.XAX.X")
    assert forbidden_shape(position, move) is Forbidden.DOUBLE_FOUR
    three_and_three, move = board("", "", "", "", "", "", "", "XXX.A.XXX")
    assert forbidden_shape(three_and_three, move) is Forbidden.DOUBLE_FOUR


def test_a_four_and_a_three_are_allowed() -> None:
    position, move = board("", "", "", "....X", "....X", "....X", "", "..XXA")
    assert forbidden_shape(position, move) is None


def test_a_straight_four_is_one_four() -> None:
    position, move = board("", "", "", "", "", "", "", "..XXXA..")
    assert forbidden_shape(position, move) is None


def test_six_in_a_row_is_an_overline() -> None:
    position, move = board("", "", "", "", "", "", "", "..XXX.AXX")
    assert forbidden_shape(position, move) is None  # the gap, not A, joins them
    position, move = board("", "", "", "", "", "", "", "..XXXAXX")
    assert forbidden_shape(position, move) is Forbidden.OVERLINE


def test_a_five_takes_precedence_over_a_double_four() -> None:
    """A makes five in its row, and in its column and diagonal two fours: black wins, it is allowed."""
    position, move = board(
        "",
        "",
        ".......X",
        ".......X.X",
        ".......XX",
        "...XXXXA",
    )
    assert forbidden_shape(position, move) is None
    no_five, move = board(
        "",
        "",
        ".......X",
        ".......X.X",
        ".......XX",
        "...XX.XA",
    )
    assert forbidden_shape(no_five, move) is Forbidden.DOUBLE_FOUR


@pytest.mark.parametrize("seed", range(4))
def test_forbidden_points_agree_with_a_brute_force_reading_of_the_rules(seed: int) -> None:
    """Random 9x9 boards, dense enough for every shape and for threes that depend on other forbidden
    points (in 20,000 such boards a reading without the recursion differed on 5,793 cells)."""
    rng = random.Random(seed)
    for _ in range(30):
        black, white = random_board(rng)
        stones = Stones(9, 9, black, white)
        found = frozenset(c for c in range(81) if not (black | white) >> c & 1 and stones.shape(c))
        assert found == reference_points(9, 9, black, white)


def random_board(rng: random.Random) -> tuple[int, int]:
    """Black's and white's stones on a random 9x9 board, dense enough for every shape and for threes
    that depend on other forbidden points."""
    return random_stones(rng, 81, (0.15, 0.45), (0.0, 0.2))


def test_a_white_stone_off_the_cells_an_answer_read_leaves_it_the_same() -> None:
    """Every white stone added on a cell the answer did not read gives the same shape, asked afresh; on
    the cells it read, some change it (so the cells read are not merely the whole board). Kept answers
    (ShapesAsked) give what a fresh reading gives, in the order a certificate check asks them."""
    rng = random.Random(7)
    changed = unread_total = read_total = 0
    asked = ShapesAsked(9, 9)
    for _ in range(6):
        black, white = random_board(rng)
        empty = [c for c in range(81) if not (black | white) >> c & 1]
        for cell in empty:
            stones = Stones(9, 9, black, white)
            shape = stones.shape(cell)
            read = stones.white_could_change()
            assert asked.shape(black, white, cell) == shape
            for reply in empty:
                if reply == cell:
                    continue
                again = Stones(9, 9, black, white | 1 << reply).shape(cell)
                assert asked.shape(black, white | 1 << reply, cell) == again
                if read >> reply & 1:
                    read_total += 1
                    changed += again != shape
                else:
                    unread_total += 1
                    assert again == shape, (black, white, cell, reply)
    assert changed > 0 and unread_total > read_total


def test_the_first_player_is_black_whoever_opened() -> None:
    """With O first, O's stones are black's."""
    position, move = board("", "", "", "....X", "....X", "..XXA")
    swapped = Position.parse(
        position.cells.replace("X", "x").replace("O", "X").replace("x", "O"), "O", position.variant
    )
    assert forbidden_shape(swapped, move) is Forbidden.DOUBLE_THREE


def test_remi_coulom_s_false_three() -> None:
    """Rémi Coulom's example (Ludii forum, 2020): on the row O . X X X . . X the three is no three. After
    O X X X X . . X white blocks the one end left; after O . X X X X . X the gap is an overline, so white
    blocks at the left end. With a column three through the same stone, it is one three: allowed."""
    position, move = board("", "", "", "", "....X", "....X", "O.XXA..X")
    assert forbidden_shape(position, move) is None
    open_row, move = board("", "", "", "", "....X", "....X", "..XXA...")
    assert forbidden_shape(open_row, move) is Forbidden.DOUBLE_THREE
