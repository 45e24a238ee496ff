"""Where a position lives in a solved table: a ranking by mark counts, tier by tier, block by block.

A board is split into a leading part (the first cells // 2 cells) and a trailing part (the rest). Each
part's fillings are grouped by how many marks of each side they hold; a *block* is the positions whose
leading part is one group and whose trailing part another, and a *tier* is every block with the same
number of marks. The table stores tiers one after the other from the empty board up, a tier's blocks in
the order of their leading groups, and a block row by row (a row is one leading filling, a column one
trailing filling):

    rank = block offset + lead slot * trail group size + trail slot

Only positions with legal mark counts (the first player has as many marks as the second, or one more)
have an entry: about a fifth to a quarter of the 3**cells boards of a dense index. A move changes one
part, so a block's children are two whole blocks of the next tier: one for the moves in the leading
part (rows map to rows, columns stay), one for the moves in the trailing part (the other way round).

Within a part, a filling's *part index* is its cells read as a base-3 number, the part's first cell
first: an empty cell is the digit 0, a mark of the second player 1, a mark of the first player 2 (so
playing a mark adds its digit times the cell's place value). Tables are for X moving first; a game O
opened is the same game with the colours swapped, looked up with O's marks as the first player's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .parts import FIRST_DIGIT, SECOND_DIGIT, Group, IndexArray, MaskArray, part


@dataclass(frozen=True)
class Block:
    """The positions of one tier whose leading part is in `lead_group` and trailing part in `trail_group`."""

    tier: int
    lead_group: Group
    trail_group: Group
    offset: int  # rank of its first position
    rows: int  # fillings of the leading group
    cols: int  # fillings of the trailing group

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def first_to_move(self) -> bool:
        return self.tier % 2 == 0


class Layout:
    """The ranking of the positions of a board of `cells` cells; the same for every variant of that size."""

    def __init__(self, cells: int) -> None:
        self.cells = cells
        self.lead = part(0, cells // 2)
        self.trail = part(cells // 2, cells - cells // 2)
        tiers, tier_offset = [], [0]
        for tier in range(cells + 1):
            tiers.append(self._tier(tier, tier_offset[-1]))
            tier_offset.append(tier_offset[-1] + sum(block.size for block in tiers[-1]))
        self.tiers: tuple[tuple[Block, ...], ...] = tuple(tiers)
        self.tier_offset = tuple(tier_offset)  # one more than the tiers: the last is the table's size
        self.size = tier_offset[-1]
        # offsets[lead group id, trail group id]: a block's rank; -1 where the counts are not legal.
        lead_id = {key: i for i, key in enumerate(self.lead.keys)}
        trail_id = {key: i for i, key in enumerate(self.trail.keys)}
        offsets = np.full((len(lead_id), len(trail_id)), -1, dtype=np.int64)
        for block in self.blocks():
            offsets[lead_id[block.lead_group], trail_id[block.trail_group]] = block.offset
        self.offsets = offsets
        # Python lists: indexing one gives an int at once, the fastest scalar path for lookups.
        self._offsets: list[list[int]] = offsets.tolist()
        self._lead_group: list[int] = self.lead.group_id.tolist()
        self._lead_slot: list[int] = self.lead.slot.tolist()
        self._trail_group: list[int] = self.trail.group_id.tolist()
        self._trail_slot: list[int] = self.trail.slot.tolist()
        self._trail_size = [len(self.trail.groups[key]) for key in self.trail.keys]
        self._offsets_by_trail: list[list[int]] = offsets.T.tolist()
        self._lead_sums: list[int] = self.lead.place_sums().tolist()
        self._trail_sums: list[int] = self.trail.place_sums().tolist()
        # What playing each cell adds to its part's index, for each digit (cells of both parts in one tuple).
        places = [self.lead.place(c) for c in range(self.lead.length)]
        places += [self.trail.place(c) for c in range(self.trail.start, cells)]
        self._steps = {
            digit: tuple(digit * place for place in places) for digit in (FIRST_DIGIT, SECOND_DIGIT)
        }

    def _tier(self, tier: int, offset: int) -> tuple[Block, ...]:
        """The blocks of a tier (every split of its marks between the two parts), ranks from `offset` on."""
        first, second = (tier + 1) // 2, tier // 2
        found = []
        for lead_group in self.lead.keys:
            trail_group = (first - lead_group[0], second - lead_group[1])
            if trail_group in self.trail.groups:
                rows, cols = len(self.lead.groups[lead_group]), len(self.trail.groups[trail_group])
                found.append(Block(tier, lead_group, trail_group, offset, rows, cols))
                offset += rows * cols
        return tuple(found)

    def blocks(self) -> list[Block]:
        return [block for blocks in self.tiers for block in blocks]

    def tier_size(self, tier: int) -> int:
        return self.tier_offset[tier + 1] - self.tier_offset[tier]

    def part_indices(self, first: int, second: int) -> tuple[int, int]:
        """The leading and the trailing part index of the position (first player's and other's cells)."""
        bits, shift = self.lead.bits, self.lead.length
        lead = FIRST_DIGIT * self._lead_sums[first & bits] + SECOND_DIGIT * self._lead_sums[second & bits]
        trail = (
            FIRST_DIGIT * self._trail_sums[first >> shift] + SECOND_DIGIT * self._trail_sums[second >> shift]
        )
        return lead, trail

    def rank_of_parts(self, lead: int, trail: int) -> int:
        group = self._trail_group[trail]
        return (
            self._offsets[self._lead_group[lead]][group]
            + self._lead_slot[lead] * self._trail_size[group]
            + self._trail_slot[trail]
        )

    def rank(self, first: int, second: int) -> int:
        """The rank of the position where the first player holds `first` and the other `second`."""
        return self.rank_of_parts(*self.part_indices(first, second))

    def with_children(self, first: int, second: int, cells: list[int], digit: int) -> tuple[int, list[int]]:
        """The position's rank, and the rank of each child where the side with `digit` plays one of
        `cells` (all empty), in the order of `cells`. The hot path of every lookup: written for speed,
        with the lists bound to locals and the block offsets of the unchanged part picked once."""
        lead, trail = self.part_indices(first, second)
        lead_group, lead_slot = self._lead_group, self._lead_slot
        trail_group, trail_slot, trail_size = self._trail_group, self._trail_slot, self._trail_size
        group, slot = trail_group[trail], trail_slot[trail]
        width = trail_size[group]
        by_lead = self._offsets[lead_group[lead]]  # block offsets of this leading group, by trailing group
        by_trail = self._offsets_by_trail[group]  # and of this trailing group, by leading group
        own_slot = lead_slot[lead]
        split, steps = self.lead.length, self._steps[digit]
        children = []
        for cell in cells:
            if cell < split:
                child = lead + steps[cell]
                children.append(by_trail[lead_group[child]] + lead_slot[child] * width + slot)
            else:
                child = trail + steps[cell]
                g = trail_group[child]
                children.append(by_lead[g] + own_slot * trail_size[g] + trail_slot[child])
        return by_lead[group] + own_slot * width + slot, children

    def ranks(self, first: MaskArray, second: MaskArray) -> IndexArray:
        """`rank` for arrays of positions with legal counts."""
        lead_sums, trail_sums = self.lead.place_sums(), self.trail.place_sums()
        bits, shift = self.lead.bits, self.lead.length
        lead = FIRST_DIGIT * lead_sums[first & bits] + SECOND_DIGIT * lead_sums[second & bits]
        trail = FIRST_DIGIT * trail_sums[first >> shift] + SECOND_DIGIT * trail_sums[second >> shift]
        trail_group = self.trail.group_id[trail]
        row_width = np.array(self._trail_size, dtype=np.int64)[trail_group]
        ranks: IndexArray = (
            self.offsets[self.lead.group_id[lead], trail_group]
            + self.lead.slot[lead] * row_width
            + self.trail.slot[trail]
        )
        return ranks


@cache
def layout_of(cells: int) -> Layout:
    return Layout(cells)
