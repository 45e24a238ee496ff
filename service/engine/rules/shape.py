"""Where a board's cells are: the length of each side, whether lines wrap around the edges (a torus),
and the side along which marks fall (gravity). Cells are numbered in the order of the sides, the last
side fastest (a grid's cells row by row from the top left); a cell's coordinates are its place along each
side. A grid's rows and cols are its two sides; they matter only where a grid is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

DOWN = 0  # the gravity axis of a grid: marks fall down its columns, toward its last row


@dataclass(frozen=True)
class Shape:
    sides: tuple[int, ...]  # the length of each side, the slowest first: (rows, cols) for a grid
    torus: bool = False  # lines wrap around the edges
    gravity_axis: int | None = None  # marks fall along this side toward its last cell; None: they stay

    @property
    def cells(self) -> int:
        return prod(self.sides)

    def coordinates(self, cell: int) -> tuple[int, ...]:
        """The cell's place along each side."""
        places = []
        for side in reversed(self.sides):
            cell, place = divmod(cell, side)
            places.append(place)
        return tuple(reversed(places))

    def cell_at(self, coordinates: tuple[int, ...]) -> int:
        cell = 0
        for side, place in zip(self.sides, coordinates, strict=True):
            cell = cell * side + place
        return cell
