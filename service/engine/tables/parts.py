"""A part of a board and every way to fill it: its fillings as arrays by *part index* (the cells read as
a base-3 number, the part's first cell first: an empty cell 0, a mark of the second player 1, of the
first player 2), grouped by how many marks of each side they hold. The tables' layouts (`layout`,
`classes`) split a board into two parts and rank positions part by part.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

FIRST_DIGIT, SECOND_DIGIT = 2, 1
IndexArray = npt.NDArray[np.int64]
MaskArray = npt.NDArray[np.uint32]
Group = tuple[int, int]  # (the first player's marks, the second player's marks) in one part


@dataclass(frozen=True)
class Part:
    """A set of cells and every way to fill them (3**length), as arrays by part index. The ranked layout's
    parts are runs of consecutive cells; the class layout's (`classes`) are unions of the cells' orbits."""

    cells: tuple[int, ...]  # ascending: the first is the most significant digit of a part index
    first: MaskArray  # the first player's cells, as bits of the whole board
    second: MaskArray
    groups: dict[Group, IndexArray]  # group -> its part indices, in order: a filling's slot is its place
    group_id: IndexArray  # part index -> the number of its group in `keys`
    slot: IndexArray  # part index -> its position inside its group
    keys: tuple[Group, ...]  # the groups by mark counts

    @property
    def start(self) -> int:
        return self.cells[0]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def bits(self) -> int:
        return (1 << self.length) - 1

    def place(self, cell: int) -> int:
        """The place value of `cell` (a cell of this part) within a part index."""
        return int(3 ** (self.length - 1 - self.cells.index(cell)))

    def place_sums(self) -> IndexArray:
        """For every set of this part's cells (as bits from the part's first cell): its place values' sum."""
        masks = np.arange(1 << self.length, dtype=np.int64)
        sums = np.zeros(len(masks), dtype=np.int64)
        for offset, cell in enumerate(self.cells):
            sums += ((masks >> offset) & 1) * self.place(cell)
        return sums

    def child_slots(self, group: Group, cell: int, digit: int, missing: int) -> IndexArray:
        """For each filling of `group`: the slot, in the group one mark up, of the filling with `digit`
        played at `cell`; `missing` where the cell is taken."""
        indices = self.groups[group]
        place = self.place(cell)
        empty = (indices // place) % 3 == 0
        return np.where(empty, self.slot[indices + digit * place * empty], missing)


def part(start: int, length: int) -> Part:
    return part_of(tuple(range(start, start + length)))


@cache
def part_of(cells: tuple[int, ...]) -> Part:
    first, second, groups, group_id, slot, keys = _fillings(len(cells))
    return Part(cells, deposit(first, cells), deposit(second, cells), groups, group_id, slot, keys)


def deposit(compact: MaskArray, cells: tuple[int, ...]) -> MaskArray:
    """Masks whose bit i stands for cells[i], as masks of the whole board."""
    if cells == tuple(range(cells[0], cells[0] + len(cells))):
        return compact << np.uint32(cells[0])
    out = np.zeros_like(compact)
    for offset, cell in enumerate(cells):
        out |= ((compact >> np.uint32(offset)) & np.uint32(1)) << np.uint32(cell)
    return out


@cache
def _fillings(
    length: int,
) -> tuple[MaskArray, MaskArray, dict[Group, IndexArray], IndexArray, IndexArray, tuple[Group, ...]]:
    """Every filling of `length` cells starting at cell 0: each side's cells and the grouping by counts
    (the same for every part of that length, whatever its first cell)."""
    first = second = np.zeros(1, dtype=np.uint32)
    for cell in range(length - 1, -1, -1):  # the part's first cell is its most significant digit
        bit = np.uint32(1 << cell)
        first, second = (
            np.concatenate([first, first, first | bit]),
            np.concatenate([second, second | bit, second]),
        )
    first_count = np.bitwise_count(first)
    second_count = np.bitwise_count(second)
    key = first_count * np.uint8(length + 1) + second_count  # small: numpy sorts it by radix
    order = np.argsort(key, kind="stable")
    slot = np.empty(len(key), dtype=np.int64)
    group_id = np.empty(len(key), dtype=np.int64)
    groups: dict[Group, IndexArray] = {}
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    for number, members in enumerate(np.split(order, bounds)):
        groups[(int(first_count[members[0]]), int(second_count[members[0]]))] = members
        slot[members] = np.arange(len(members))
        group_id[members] = number
    return first, second, groups, group_id, slot, tuple(groups)


def distinct(values: npt.NDArray[np.integer]) -> list[int]:
    """The distinct values, ascending, of an array of small non-negative integers (symmetry masks, move
    keys). Not np.unique: its first call imports numpy.ma, 22 ms on the way to a server's first answer."""
    return np.flatnonzero(np.bincount(values.ravel())).tolist() if values.size else []
