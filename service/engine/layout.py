"""Where a position lives in a solved table: a dense base-3 index.

The table of a board of n cells has 3**n bytes. A position's index is its board read as a base-3 number,
cell 0 first: an empty cell is the digit 0, a mark of the second player 1, a mark of the first player 2.
With X first this is the board string read in ASCII order (. < O < X), so the table's order is the
strings' order and a symmetry class's smallest index is its smallest board string. Playing a mark adds
its digit times the cell's place value: a child's index is one addition away from its parent's.

Tables are for X moving first. A game that O opened is the same game with the colours swapped, so its
positions are looked up with O's marks as the first player's digits (see `Layout.index`).

A dense index wastes the 3**n - (positions with legal counts) entries, which stay 0 (four times the
bytes of a ranking of the X and O sets on 4x4), and buys this: no ranking to compute, forward or back,
in the solver's inner loop or in a lookup.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from .geometry import iter_cells

FIRST_DIGIT, SECOND_DIGIT = 2, 1
IndexArray = npt.NDArray[np.int64]
MaskArray = npt.NDArray[np.uint32]


class Layout:
    """Index arithmetic for a board of `cells` cells; the same for every variant of that size."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.size = 3**cells
        self.place = tuple(3 ** (cells - 1 - c) for c in range(cells))
        # Place-value sums of every mask of the low and of the high half of the cells: an index is
        # then four list lookups, whatever the board.
        self._low_bits = cells // 2
        self._low = _place_sums(self.place[: self._low_bits])
        self._high = _place_sums(self.place[self._low_bits :])

    def place_sum(self, mask: int) -> int:
        return self._low[mask & ((1 << self._low_bits) - 1)] + self._high[mask >> self._low_bits]

    def index(self, first: int, second: int) -> int:
        """The index of the position where the first player holds `first` and the other `second`."""
        return FIRST_DIGIT * self.place_sum(first) + SECOND_DIGIT * self.place_sum(second)

    def digit_of(self, first_to_move: bool) -> int:
        return FIRST_DIGIT if first_to_move else SECOND_DIGIT

    def masks(self, index: int) -> tuple[int, int]:
        """The first and the second player's cells at `index` (the inverse of `index`)."""
        first = second = 0
        for cell in range(self.cells - 1, -1, -1):
            index, digit = divmod(index, 3)
            if digit == FIRST_DIGIT:
                first |= 1 << cell
            elif digit == SECOND_DIGIT:
                second |= 1 << cell
        return first, second


def _place_sums(places: tuple[int, ...]) -> list[int]:
    sums = [0] * (1 << len(places))
    for mask in range(1, len(sums)):
        sums[mask] = sum(places[c] for c in iter_cells(mask))
    return sums


@dataclass(frozen=True)
class Part:
    """A run of consecutive cells and every way to fill them (3**len), as arrays by part index.

    A board is split into a leading and a trailing part; a position's index is then
    ``lead_index * 3**len(trail) + trail_index``, and a tier's positions are the products of the two
    parts' groups of fillings whose mark counts add up to the tier's.
    """

    start: int  # first cell
    length: int
    first: MaskArray  # the first player's cells, as bits of the whole board
    second: MaskArray
    groups: dict[tuple[int, int], IndexArray]  # (first's marks, second's marks) -> part indices, sorted
    slot: IndexArray  # part index -> its position inside its group

    def place(self, cell: int) -> int:
        """The place value of `cell` (a cell of this part) within the part's index."""
        return int(3 ** (self.start + self.length - 1 - cell))

    def child_slots(self, group: tuple[int, int], cell: int, digit: int, missing: int) -> IndexArray:
        """For each filling of `group`: the slot, in the group one mark up, of the filling with `digit`
        played at `cell`; `missing` where the cell is taken."""
        indices = self.groups[group]
        place = self.place(cell)
        empty = (indices // place) % 3 == 0
        return np.where(empty, self.slot[indices + digit * place * empty], missing)


@cache
def part(start: int, length: int) -> Part:
    indices = np.arange(3**length, dtype=np.int64)
    first = np.zeros(indices.shape, dtype=np.uint32)
    second = np.zeros(indices.shape, dtype=np.uint32)
    rest = indices.copy()
    for cell in range(start + length - 1, start - 1, -1):
        digit = rest % 3
        rest //= 3
        first |= (digit == FIRST_DIGIT).astype(np.uint32) << cell
        second |= (digit == SECOND_DIGIT).astype(np.uint32) << cell
    first_count = np.bitwise_count(first)
    second_count = np.bitwise_count(second)
    key = first_count.astype(np.int64) * (length + 1) + second_count
    order = np.argsort(key, kind="stable")
    slot = np.empty(indices.shape, dtype=np.int64)
    groups: dict[tuple[int, int], IndexArray] = {}
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    for members in np.split(order, bounds):
        groups[(int(first_count[members[0]]), int(second_count[members[0]]))] = members
        slot[members] = np.arange(len(members))
    return Part(start, length, first, second, groups, slot)


@cache
def layout_of(cells: int) -> Layout:
    return Layout(cells)
