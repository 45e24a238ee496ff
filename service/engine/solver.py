"""The retrograde solver: every position's value, tier by tier, from the full board back to the empty one.

A tier is the positions with the same number of marks; each one's children are in the next tier, solved
before it. The table is a flat array of one byte per index (see `layout` and `values`), for X moving
first. A tier is handled as blocks: the positions whose leading cells hold one count of each mark and
whose trailing cells hold the rest, a product of two small groups of part fillings. A move in the
leading part maps each row of a block to a row of a child block and leaves the columns alone (and the
other way round for the trailing part), so a tier is solved with whole-row and whole-column takes from
small arrays, never a search and never a Python object per position.

Which positions are legal needs no search either: a position with legal counts can arise by play exactly
when the side to move holds no line and the other side's lines, if any, share a cell (its last move).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .geometry import LINES_APART, NO_LINE, geometry_of
from .layout import FIRST_DIGIT, SECOND_DIGIT, IndexArray, Part, part
from .values import NOT_REACHABLE, SEEN_BY_MOVER, Value, encode
from .variants import Variant

SOLVER_VERSION = 1  # bump when a change could alter any byte of a table: older files are then rebuilt
ByteArray = npt.NDArray[np.uint8]
NO_CHILD = 255  # above every child's byte, so it never wins the minimum


@dataclass(frozen=True)
class Block:
    """The positions of one tier whose leading part is in `lead_group` and trailing part in `trail_group`."""

    tier: int
    lead_group: tuple[int, int]  # (first player's marks, second player's marks) in the leading part
    trail_group: tuple[int, int]
    rows: IndexArray  # leading-part indices
    cols: IndexArray  # trailing-part indices

    @property
    def first_to_move(self) -> bool:
        return self.tier % 2 == 0


def parts(cells: int) -> tuple[Part, Part]:
    lead = cells // 2
    return part(0, lead), part(lead, cells - lead)


def blocks(cells: int, tier: int) -> Iterator[Block]:
    """The blocks of a tier: every split of its marks between the two parts."""
    lead, trail = parts(cells)
    first, second = (tier + 1) // 2, tier // 2
    for (lead_first, lead_second), rows in lead.groups.items():
        trail_group = (first - lead_first, second - lead_second)
        cols = trail.groups.get(trail_group)
        if cols is not None:
            yield Block(tier, (lead_first, lead_second), trail_group, rows, cols)


def block_masks(cells: int, block: Block) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """The first and the second player's cells of every position of the block, shaped (rows, cols)."""
    lead, trail = parts(cells)
    first = lead.first[block.rows][:, None] | trail.first[block.cols][None, :]
    second = lead.second[block.rows][:, None] | trail.second[block.cols][None, :]
    return first, second


def solve(variant: Variant, progress: Callable[[int, int], None] | None = None) -> ByteArray:
    """The solved table of `variant`: 3**cells bytes, one per index. `progress(done, tiers)` is called
    after each tier."""
    cells = variant.cells
    table = np.zeros(3**cells, dtype=np.uint8)
    grid = table.reshape(3 ** (cells // 2), -1)  # grid[lead index, trail index]
    line_state = geometry_of(variant).line_state_table()
    # The side to move finds the other side's line on the board: it lost, or under misère it won.
    line_made = encode(Value(1, 0) if variant.misere else Value(-1, 0))
    for tier in range(cells, -1, -1):
        for block in blocks(cells, tier):
            first, second = block_masks(cells, block)
            mover, last = (first, second) if block.first_to_move else (second, first)
            mover_state, last_state = line_state[mover], line_state[last]
            if tier == cells:
                values = np.full(mover.shape, encode(Value(0, 0)), dtype=np.uint8)
            else:
                values = SEEN_BY_MOVER[_best_child(grid, cells, block)]
            values[last_state != NO_LINE] = line_made
            values[(mover_state != NO_LINE) | (last_state == LINES_APART)] = NOT_REACHABLE
            grid[np.ix_(block.rows, block.cols)] = values
        if progress is not None:
            progress(cells + 1 - tier, cells + 1)
    return table


def _best_child(grid: ByteArray, cells: int, block: Block) -> ByteArray:
    """The smallest byte among each position's children, NO_CHILD where it has none."""
    lead, trail = parts(cells)
    digit = FIRST_DIGIT if block.first_to_move else SECOND_DIGIT
    up = (1, 0) if block.first_to_move else (0, 1)
    best = np.full((len(block.rows), len(block.cols)), NO_CHILD, dtype=np.uint8)
    scratch = np.empty_like(best)
    lead_child = (block.lead_group[0] + up[0], block.lead_group[1] + up[1])
    if lead_child in lead.groups:
        child_rows = lead.groups[lead_child]
        children = _with_spare(grid[np.ix_(child_rows, block.cols)], axis=0)
        for cell in range(lead.start, lead.start + lead.length):
            slots = lead.child_slots(block.lead_group, cell, digit, len(child_rows))
            np.take(children, slots, axis=0, out=scratch)
            np.minimum(best, scratch, out=best)
    trail_child = (block.trail_group[0] + up[0], block.trail_group[1] + up[1])
    if trail_child in trail.groups:
        child_cols = trail.groups[trail_child]
        children = _with_spare(grid[np.ix_(block.rows, child_cols)], axis=1)
        for cell in range(trail.start, trail.start + trail.length):
            slots = trail.child_slots(block.trail_group, cell, digit, len(child_cols))
            np.take(children, slots, axis=1, out=scratch)
            np.minimum(best, scratch, out=best)
    return best


def _with_spare(values: ByteArray, axis: int) -> ByteArray:
    """`values` with one more row (axis 0) or column (axis 1) of NO_CHILD, for the taken cells."""
    shape = list(values.shape)
    shape[axis] += 1
    out = np.full(shape, NO_CHILD, dtype=np.uint8)
    out[: values.shape[0], : values.shape[1]] = values
    return out
