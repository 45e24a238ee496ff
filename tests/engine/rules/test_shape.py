"""A board's shape: its cells numbered in the order of its sides, the last side fastest."""

from __future__ import annotations

import itertools

import pytest

from service.engine import LISTED, Shape
from tests.reference import Rules


def test_coordinates_and_cells_are_each_others_inverse() -> None:
    for sides in [(3, 3), (6, 7), (2, 11), (4, 4, 4), (3, 3, 3)]:
        shape = Shape(sides)
        places = list(itertools.product(*(range(side) for side in sides)))  # row by row: the last fastest
        assert shape.cells == len(places)
        for cell, place in enumerate(places):
            assert shape.coordinates(cell) == place and shape.cell_at(place) == cell


FLAT = [variant for variant in LISTED if variant.layers == 1]
BOXES = [variant for variant in LISTED if variant.layers > 1]


def test_a_grid_is_its_rows_and_cols() -> None:
    for variant in FLAT:
        shape = variant.shape
        assert shape.sides == (variant.rows, variant.cols) and shape.cells == variant.cells
        assert shape.torus == variant.torus and (shape.gravity_axis == 0) == variant.gravity
        # cell r * cols + c is at row r, column c, as the rest of the engine numbers them
        assert all(shape.coordinates(c) == divmod(c, variant.cols) for c in range(variant.cells))


def test_a_listed_box_is_its_layers_of_rows_and_cols() -> None:
    assert BOXES, "no box is listed"
    for variant in BOXES:
        shape = variant.shape
        assert shape.sides == (variant.layers, variant.rows, variant.cols) and shape.cells == variant.cells
        assert not shape.torus and shape.gravity_axis == (0 if variant.gravity else None)  # the layers
        # cell l * rows * cols + r * cols + c is at layer l, row r, column c (the page draws it so)
        per_layer = variant.rows * variant.cols
        for cell in range(variant.cells):
            layer, rest = divmod(cell, per_layer)
            assert shape.coordinates(cell) == (layer, *divmod(rest, variant.cols))


def test_a_grids_lines_are_the_references() -> None:
    """On every board we list and on tori of every size up to 6x6: the same lines as tests/reference.py,
    which walks rows, columns and diagonals on a grid of its own."""
    boards = [(v.rows, v.cols, v.k, v.torus) for v in FLAT]
    boards += [(r, c, k, True) for r in range(2, 7) for c in range(2, 7) for k in range(3, max(r, c) + 1)]
    for rows, cols, k, torus in boards:
        reference = Rules(rows, cols, k, torus=torus)
        want = sorted({sum(1 << c for c in line) for line in reference.lines})
        assert list(Shape((rows, cols), torus).lines(k)) == want, (rows, cols, k, torus)


@pytest.mark.parametrize(("side", "dimensions"), [(3, 2), (4, 2), (3, 3), (4, 3), (5, 3), (3, 4), (4, 4)])
def test_a_cube_of_side_n_has_the_known_count_of_lines_of_n(side: int, dimensions: int) -> None:
    """A line of n on the n^d board leaves each side at a cell, runs along it, or runs back: each of the
    (n+2)^d - n^d ways to step off the board, counted from both ends, is one line (Golomb and Hales'
    count, so 49 on 3x3x3 and Qubic's 76 on 4x4x4)."""
    lines = Shape((side,) * dimensions).lines(side)
    assert len(lines) == ((side + 2) ** dimensions - side**dimensions) // 2
    assert all(line.bit_count() == side for line in lines)
    if (side, dimensions) == (3, 3):
        assert len(lines) == 49
    if (side, dimensions) == (4, 3):
        assert len(lines) == 76
