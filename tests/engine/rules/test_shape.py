"""A board's shape: its cells numbered in the order of its sides, the last side fastest."""

from __future__ import annotations

import itertools

from service.engine import LISTED, Shape


def test_coordinates_and_cells_are_each_others_inverse() -> None:
    for sides in [(3, 3), (6, 7), (2, 11), (4, 4, 4), (3, 3, 3)]:
        shape = Shape(sides)
        places = list(itertools.product(*(range(side) for side in sides)))  # row by row: the last fastest
        assert shape.cells == len(places)
        for cell, place in enumerate(places):
            assert shape.coordinates(cell) == place and shape.cell_at(place) == cell


def test_a_grid_is_its_rows_and_cols() -> None:
    for variant in LISTED:
        shape = variant.shape
        assert shape.sides == (variant.rows, variant.cols) and shape.cells == variant.cells
        assert shape.torus == variant.torus and (shape.gravity_axis == 0) == variant.gravity
        # cell r * cols + c is at row r, column c, as the rest of the engine numbers them
        assert all(shape.coordinates(c) == divmod(c, variant.cols) for c in range(variant.cells))
