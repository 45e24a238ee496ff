"""Operations on sets of cells as integer masks (bit c is cell c, cells row by row from the top) that
depend on the board only through a few numbers: the bottom row and the cells gravity lets a move take,
lines found by shifting a mask, and a symmetry applied a byte at a time. Geometry and the search's
boards share them.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

Symmetry = tuple[int, ...]
Runs = tuple[tuple[int, int], ...]  # per direction: (step between cells, cells a line starts from)
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # along a row, a column, and the two diagonals


def line_runs(rows: int, cols: int, k: int, torus: bool) -> Runs | None:
    """A flat board's lines by direction: the step from a line's cell to the next, and the cells a line
    in that direction starts from; None on a torus, whose lines wrap."""
    if torus:
        return None
    runs = []
    for dr, dc in DIRECTIONS:
        starts = 0
        for row, col in itertools.product(range(rows), range(cols)):
            if 0 <= row + dr * (k - 1) < rows and 0 <= col + dc * (k - 1) < cols:
                starts |= 1 << (row * cols + col)
        if starts:
            runs.append((dr * cols + dc, starts))
    return tuple(runs)


def holds_line(mask: int, k: int, lines: tuple[int, ...], runs: Runs | None) -> bool:
    """Whether `mask` holds one of the `lines` of length k; on a flat board (`runs`) by shifting the mask
    along each direction: a dozen operations on integers, where trying every line of 6x7 takes 69."""
    if runs is None:
        return any(mask & line == line for line in lines)
    for step, starts in runs:
        found = mask & starts
        for i in range(1, k):
            if not found:
                break
            found &= mask >> (i * step)
        if found:
            return True
    return False


def bottom_row(rows: int, cols: int) -> int:
    return ((1 << cols) - 1) << (rows - 1) * cols


def playable(occupied: int, full: int, bottom: int, step_down: int, gravity: bool) -> int:
    """`Geometry.playable` from the board's masks (the search's boards share it): under gravity an
    empty cell is playable on the bottom (row or layer) or above an occupied cell, `step_down` cells
    before it."""
    empty = full & ~occupied
    return empty & ((occupied >> step_down) | bottom) if gravity else empty


def floating(occupied: int, bottom: int, step_down: int) -> int:
    """`Geometry.floating` from the board's masks."""
    return occupied & ~(occupied >> step_down) & ~bottom


class Permuter:
    """A symmetry applied to a mask a byte at a time: eight table reads, not a loop over the cells."""

    @staticmethod
    @lru_cache(maxsize=1024)  # a board's reflections and turns, asked for by its geometry and its keys
    def of(symmetry: Symmetry) -> Permuter:
        return Permuter(symmetry)

    def __init__(self, symmetry: Symmetry) -> None:
        self.tables = [_byte_table(symmetry[base : base + 8]) for base in range(0, len(symmetry), 8)]

    def __call__(self, mask: int) -> int:
        out = 0
        for table in self.tables:
            out |= table[mask & 255]
            mask >>= 8
        return out


def _byte_table(images: Symmetry) -> list[int]:
    """The image of every byte value, given where each of its (up to 8) bits goes: each value from a
    smaller one and its lowest bit (256 steps, not 256 x 8)."""
    bits = [1 << image for image in images] + [0] * (8 - len(images))
    table = [0] * 256
    for value in range(1, 256):
        low = value & -value
        table[value] = table[value ^ low] | bits[low.bit_length() - 1]
    return table
