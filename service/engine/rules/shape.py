"""Where a board's cells are: the length of each side, whether lines wrap around the edges (a torus),
and the side along which marks fall (gravity). Cells are numbered in the order of the sides, the last
side fastest (a grid's cells row by row from the top left); a cell's coordinates are its place along each
side. A grid's rows and cols are its two sides; they matter only where a grid is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
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

    def lines(self, k: int) -> tuple[int, ...]:
        """Every set of k cells in a row, as bit masks, in increasing order: along each direction (a step
        of -1, 0 or +1 along each side, the first step that is not 0 positive, so each line is found
        once) from every cell, wrapping around the edges on a torus. On a torus a line that comes back
        onto itself is no line. A grid's are its rows, columns and both diagonals; a cube's add the
        diagonals of its faces and its four space diagonals."""
        return _lines(self.sides, self.torus, k)

    def flanks(self, k: int) -> tuple[int, ...]:
        """Per line of `lines(k)`, in that order, the cells just before its first cell and just after its
        last along its direction, those on the board: a mark of the line's owner there makes the line
        part of a longer run. A torus has none to give (ValueError): its lines run round."""
        if self.torus:
            raise ValueError("a torus's lines have no ends")
        return _flanks(self.sides, k)


@cache
def _directions(dimensions: int) -> tuple[tuple[int, ...], ...]:
    steps = product((-1, 0, 1), repeat=dimensions)
    return tuple(s for s in steps if any(s) and next(x for x in s if x) > 0)


@cache
def _flanks(sides: tuple[int, ...], k: int) -> tuple[int, ...]:
    shape, flank_of = Shape(sides), dict[int, int]()
    for start in product(*(range(side) for side in sides)):
        for step in _directions(len(sides)):
            places = [tuple(p + d * i for p, d in zip(start, step, strict=True)) for i in range(-1, k + 1)]
            inside = [all(0 <= p < side for p, side in zip(place, sides, strict=True)) for place in places]
            if all(inside[1:-1]):
                line = sum(1 << shape.cell_at(place) for place in places[1:-1])
                ends = (
                    place
                    for place, on in zip((places[0], places[-1]), (inside[0], inside[-1]), strict=True)
                    if on
                )
                flank_of[line] = sum(1 << shape.cell_at(place) for place in ends)
    return tuple(flank_of[line] for line in _lines(sides, False, k))


@cache
def _lines(sides: tuple[int, ...], torus: bool, k: int) -> tuple[int, ...]:
    shape, found = Shape(sides, torus), set[int]()
    for start in product(*(range(side) for side in sides)):
        for step in _directions(len(sides)):
            places = [tuple(p + d * i for p, d in zip(start, step, strict=True)) for i in range(k)]
            if torus:
                places = [tuple(p % side for p, side in zip(place, sides, strict=True)) for place in places]
            elif not all(0 <= p < side for place in places for p, side in zip(place, sides, strict=True)):
                continue
            mask = sum(1 << shape.cell_at(place) for place in set(places))
            if mask.bit_count() == k:
                found.add(mask)
    return tuple(sorted(found))
