"""Board geometry as bitmasks: lines, symmetries and the canonical key of a position."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from .variants import Variant

Symmetry = tuple[int, ...]  # image[i] is the cell that cell i moves to


def _lines(rows: int, cols: int, k: int) -> tuple[int, ...]:
    masks = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    masks.append(sum(1 << ((r + dr * i) * cols + c + dc * i) for i in range(k)))
    return tuple(masks)


def _symmetries(rows: int, cols: int) -> tuple[Symmetry, ...]:
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
    ]
    if rows == cols:
        maps += [
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    return tuple(
        tuple(nr * cols + nc for nr, nc in (f(i // cols, i % cols) for i in range(rows * cols))) for f in maps
    )


def _mask_table(image: Symmetry) -> list[int]:
    """Image of every mask under one symmetry, built from the mask without its lowest bit."""
    table = [0] * (1 << len(image))
    for mask in range(1, len(table)):
        low = mask & -mask
        table[mask] = table[mask ^ low] | (1 << image[low.bit_length() - 1])
    return table


class Geometry:
    """Everything about a board's shape that the search needs, precomputed once."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.size = rows * cols
        self.full = (1 << self.size) - 1
        self.lines = _lines(rows, cols, k)
        self.symmetries = _symmetries(rows, cols)
        self._tables = [_mask_table(s) for s in self.symmetries]
        self._holds = [any(m & line == line for line in self.lines) for m in range(1 << self.size)]

    def holds_line(self, mask: int) -> bool:
        return self._holds[mask]

    def lines_of(self, mask: int) -> list[int]:
        return [line for line in self.lines if mask & line == line]

    def key(self, mine: int, theirs: int) -> int:
        """The same number for all symmetric images of (side to move, other side)."""
        shift = self.size
        return min((t[mine] << shift) | t[theirs] for t in self._tables)

    def transform(self, cells: str, symmetry: Symmetry) -> str:
        out = [""] * len(cells)
        for i, target in enumerate(symmetry):
            out[target] = cells[i]
        return "".join(out)


@cache
def geometry_of(variant: Variant) -> Geometry:
    return _geometry(variant.rows, variant.cols, variant.k)


@cache
def _geometry(rows: int, cols: int, k: int) -> Geometry:
    return Geometry(rows, cols, k)
