"""Positions of one board as numpy arrays of masks (bit c is cell c, as everywhere): the moves, lines,
symmetries and keys that a book's build applies to millions of positions at once, and its lookups to
the few children of one position.

A key names a position up to the board's symmetries in one unsigned 64-bit integer: the smallest of
its images' codes. A flat board's code is the side to move's mask above the other side's (at most 32
cells); under gravity the occupied cells follow from the columns' heights, so the code is the side to
move's mask under the heights (Connect Four: 42 bits and seven 3-bit heights, 63 bits).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ..rules.geometry import geometry_of
from ..rules.masks import bottom_row, line_runs
from ..rules.variants import Variant

Masks = npt.NDArray[np.uint64]
Bools = npt.NDArray[np.bool_]
# A symmetry as shifts: the cells that move by the same distance move together (a mirror: one shift
# per column), far fewer operations per array than one per cell.
Shifts = tuple[tuple[int, int], ...]  # (cells that move, by how many places: + up, - down)


class BookBoardError(ValueError):
    """A board whose positions do not fit a book's keys (a torus, or too many cells)."""


@dataclass(frozen=True)
class Move:
    """One move of the arrays: a column under gravity (where its mark lands depends on the position),
    else one cell."""

    cells: int  # the cells the move may take
    column: bool


class ArrayBoard:
    def __init__(self, variant: Variant) -> None:
        if variant.torus or variant.misere:
            # A torus's lines wrap past a mask's shifts; under misère a line made now is no win in 1.
            raise BookBoardError(f"{variant.name}: books hold boards that are neither tori nor misère")
        rows, cols = variant.rows, variant.cols
        self.variant, self.cells = variant, variant.cells
        self.full = (1 << self.cells) - 1
        self.bottom = bottom_row(rows, cols)
        self.runs = line_runs(rows, cols, variant.k, False) or ()
        self.height_bits = rows.bit_length()
        code_bits = self.cells + cols * self.height_bits if variant.gravity else 2 * self.cells
        if code_bits > 64:
            raise BookBoardError(f"{variant.name}: a key of {code_bits} bits does not fit 64")
        column_masks = [sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols)]
        self.column_masks = tuple(np.uint64(m) for m in column_masks)
        if variant.gravity:
            self.moves = tuple(Move(m, True) for m in column_masks)
        else:
            self.moves = tuple(Move(1 << c, False) for c in range(self.cells))
        geometry = geometry_of(variant)
        self.symmetries = tuple(_shifts(s) for s in geometry.point_symmetries[1:])

    def played(self, occupied: Masks, move: Move) -> Masks:
        """The bit each position's move takes, 0 where it cannot be played."""
        empty = ~occupied & np.uint64(self.full)
        if move.column:
            empty &= (occupied >> np.uint64(self.variant.cols)) | np.uint64(self.bottom)
        return empty & np.uint64(move.cells)

    def holds_line(self, masks: Masks) -> Bools:
        """Which masks hold k in a row: each direction's line starts, shifted along it k - 1 times."""
        held = np.zeros(masks.shape, dtype=np.bool_)
        for step, starts in self.runs:
            found = masks & np.uint64(starts)
            for i in range(1, self.variant.k):
                found &= masks >> np.uint64(i * step)
            held |= found != 0
        return held

    def wins_now(self, mover: Masks, other: Masks) -> Bools:
        """Which positions the side to move can end at once by making a line."""
        occupied = mover | other
        found = np.zeros(mover.shape, dtype=np.bool_)
        for move in self.moves:
            bit = self.played(occupied, move)
            found |= (bit != 0) & self.holds_line(mover | bit)
        return found

    def code(self, mover: Masks, other: Masks) -> Masks:
        """The code of these positions as they stand (not up to symmetry)."""
        if not self.variant.gravity:
            return (mover << np.uint64(self.cells)) | other
        code = mover.copy()
        occupied = mover | other
        for col, column in enumerate(self.column_masks):
            height = np.bitwise_count(occupied & column).astype(np.uint64)
            code |= height << np.uint64(self.cells + col * self.height_bits)
        return code

    def position(self, code: int) -> tuple[int, int]:
        """The masks (side to move, other side) of the position with this code: a key's position, as
        the key's image."""
        full = self.full
        if not self.variant.gravity:
            return code >> self.cells, code & full
        occupied, cols, rows = 0, self.variant.cols, self.variant.rows
        for col in range(cols):
            height = code >> (self.cells + col * self.height_bits) & ((1 << self.height_bits) - 1)
            occupied |= sum(1 << ((rows - 1 - up) * cols + col) for up in range(height))
        mover = code & full
        return mover, occupied & ~mover

    def key(self, mover: Masks, other: Masks) -> Masks:
        """The smallest code among the images of each position under the board's symmetries."""
        best = self.code(mover, other)
        for shifts in self.symmetries:
            np.minimum(best, self.code(permute(mover, shifts), permute(other, shifts)), out=best)
        return best


def permute(masks: Masks, shifts: Shifts) -> Masks:
    out = np.zeros_like(masks)
    for cells, by in shifts:
        moved = masks & np.uint64(cells)
        out |= moved << np.uint64(by) if by >= 0 else moved >> np.uint64(-by)
    return out


def _shifts(symmetry: tuple[int, ...]) -> Shifts:
    groups: dict[int, int] = {}
    for cell, image in enumerate(symmetry):
        groups[image - cell] = groups.get(image - cell, 0) | 1 << cell
    return tuple((cells, by) for by, cells in sorted(groups.items()))


@cache
def array_board(variant: Variant) -> ArrayBoard:
    return ArrayBoard(variant)


def masks(values: list[int]) -> Masks:
    return np.array(values, dtype=np.uint64)
