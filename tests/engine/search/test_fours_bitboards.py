"""The bit-parallel five_cells and four_moves of search/fours.py (whole boards shifted one direction at a
time) find exactly the cells a plain loop over every window of k cells finds, written here from the
rules: on random boards of several shapes, k of 5 and 4, every rule, for both sides."""

from __future__ import annotations

import random

import pytest

from service.engine.search.fours import Rule, five_cells, four_moves
from tests.engine.random_stones import random_stones

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
SHAPES = [(6, 6), (7, 9), (9, 7), (15, 15), (19, 19)]
RULES = {"five or more": (False, False), "exactly five": (True, False), "renju": (False, True)}


def windows(rows: int, cols: int, k: int) -> list[list[int]]:
    """Every window of k cells on the board, one direction at a time, as its cells."""
    found = []
    for row in range(rows):
        for col in range(cols):
            for d_row, d_col in DIRECTIONS:
                cells = [(row + d_row * i, col + d_col * i) for i in range(k)]
                if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                    found.append([r * cols + c for r, c in cells])
    return found


def run(stones: int, rows: int, cols: int, cell: int, d_row: int, d_col: int) -> int:
    """The length of the unbroken run of `stones` through `cell` along a direction."""
    row, col = divmod(cell, cols)
    length = 1
    for sign in (1, -1):
        r, c = row + sign * d_row, col + sign * d_col
        while 0 <= r < rows and 0 <= c < cols and stones >> (r * cols + c) & 1:
            length += 1
            r, c = r + sign * d_row, c + sign * d_col
    return length


def reference_five_cells(mine: int, theirs: int, rule: Rule, black: bool, near: int | None) -> set[int]:
    exactly = rule.exact or (rule.renju and black)
    found: set[int] = set()
    for cells in windows(rule.rows, rule.cols, rule.k):
        if near is not None and near not in cells:
            continue
        others = [cell for cell in cells if not mine >> cell & 1]
        if len(others) != 1 or theirs >> others[0] & 1:
            continue
        gap = others[0]
        lengths = [run(mine | 1 << gap, rule.rows, rule.cols, gap, *way) for way in DIRECTIONS]
        if any(length == rule.k or (length > rule.k and not exactly) for length in lengths):
            found.add(gap)
    return found


def reference_four_moves(mine: int, theirs: int, rule: Rule) -> set[int]:
    found: set[int] = set()
    for cells in windows(rule.rows, rule.cols, rule.k):
        if any(theirs >> cell & 1 for cell in cells):
            continue
        if sum(mine >> cell & 1 for cell in cells) == rule.k - 2:
            found.update(cell for cell in cells if not mine >> cell & 1)
    return found


def random_board(rng: random.Random, cells: int) -> tuple[int, int]:
    """Two sides' stones, disjoint, at a random density: dense boards give fives and overlines."""
    return random_stones(rng, cells, (0.1, 0.6), (0.0, 0.3))


@pytest.mark.parametrize("k", [5, 4])
@pytest.mark.parametrize("rule_name", RULES)
@pytest.mark.parametrize(("rows", "cols"), SHAPES)
def test_as_a_loop_over_every_window(rows: int, cols: int, rule_name: str, k: int) -> None:
    exact, renju = RULES[rule_name]
    rule = Rule(rows, cols, k, exact, renju)
    rng = random.Random(f"{rows}x{cols}k{k}-{rule_name}")
    fives = overlines_refused = fours = 0
    for _ in range(40):
        mine, theirs = random_board(rng, rows * cols)
        for black in (True, False):
            found = five_cells(mine, theirs, rule, black)
            expected = reference_five_cells(mine, theirs, rule, black, None)
            assert found == sorted(expected), (mine, theirs, black)
            near = rng.randrange(rows * cols)
            found_near = five_cells(mine, theirs, rule, black, near=near)
            assert len(found_near) == len(set(found_near))
            expected_near = reference_five_cells(mine, theirs, rule, black, near)
            assert set(found_near) == expected_near, (mine, theirs, near)
            fives += len(found)
            loose = Rule(rows, cols, k, False, False)
            overlines_refused += len(expected ^ reference_five_cells(mine, theirs, loose, black, None))
        moves = four_moves(mine, theirs, rule)
        assert moves == sorted(reference_four_moves(mine, theirs, rule)), (mine, theirs)
        fours += len(moves)
    # The boards reach what the rules tell apart: fives, fours and (under an exact rule) overlines.
    assert fives >= 40 and fours >= 40, (fives, fours)
    assert overlines_refused > 0 or rule_name == "five or more", overlines_refused
