"""The retrograde solver: every position's value, tier by tier, from the full board back to the empty one.

A tier is the positions with the same number of marks; each one's children are in the next tier, solved
before it, so only two tiers are ever needed at once. Tiers are produced one at a time, in the ranked
layout of `layout` (one byte per position, see `values`), for X moving first: `solve` gathers them into
one array, a table file's writer writes each to its place as it comes.

A move in the leading part maps each row of a block to a row of one block of the next tier and leaves
the columns alone (and the other way round for the trailing part), so a block is solved with whole-row
and whole-column takes from two contiguous slices of the next tier, never a search and never a Python
object per position. The blocks of a tier are independent: large tiers are split into pieces of rows
and solved on several threads (numpy lets go of the interpreter inside its loops).

Which positions are legal needs no search either: a position with legal counts can arise by play exactly
when the side to move holds no line and the other side's lines, if any, share a cell (its last move).
Not under gravity, where the order of the marks in a column matters and nearly every entry is out of
reach: gravity tables, in the same layout, are solved over the reachable positions (`gravity_solver`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np
import numpy.typing as npt

from ..rules.geometry import LINES_APART, NO_LINE, geometry_of
from ..rules.values import NOT_REACHABLE, SEEN_BY_MOVER, Value, encode
from ..rules.variants import Variant
from .gravity_solver import solve_gravity_tiers
from .layout import FIRST_DIGIT, SECOND_DIGIT, Block, IndexArray, Layout, layout_of

SOLVER_VERSION = 1  # bump when a change could alter any value in a table: older files are then rebuilt
ByteArray = npt.NDArray[np.uint8]
NO_CHILD = 255  # above every child's byte, so it never wins the minimum
PIECE = 1 << 20  # positions solved at once: bounds the temporary arrays (about 16 bytes a position)
Progress = Callable[[int, int], None]
Tier = tuple[int, ByteArray]  # a tier's number of marks and its values in rank order


@dataclass(frozen=True)
class Piece:
    """Rows `start` to `stop` of one block: a unit of work."""

    block: Block
    start: int
    stop: int


class _TierSolver:
    """What every piece of a tier needs: the board's facts, the tier's output and the next tier's values."""

    def __init__(self, variant: Variant, layout: Layout, line_state: ByteArray) -> None:
        self.layout, self.line_state = layout, line_state
        # The side to move finds the other side's line on the board: it lost, or under misère it won.
        self.line_made = encode(Value(1, 0) if variant.misere else Value(-1, 0))
        self.full = encode(Value(0, 0))
        self.blocks = {(b.tier, b.lead_group): b for b in layout.blocks()}
        self._slots: dict[tuple[bool, tuple[int, int], int, int], IndexArray] = {}

    def slots(self, leading: bool, group: tuple[int, int], cell: int, digit: int) -> IndexArray:
        """`Part.child_slots` with -1 where the cell is taken, worked out once per block, not per piece."""
        key = (leading, group, cell, digit)
        found = self._slots.get(key)
        if found is None:
            part = self.layout.lead if leading else self.layout.trail
            found = self._slots[key] = part.child_slots(group, cell, digit, -1)
        return found

    def solve_piece(self, piece: Piece, out: ByteArray, children: ByteArray | None) -> None:
        """The values of the piece's positions, written to `out` (the tier being solved); `children` is
        the next tier, or None for the full board."""
        block, lead, trail = piece.block, self.layout.lead, self.layout.trail
        rows = lead.groups[block.lead_group][piece.start : piece.stop]
        cols = trail.groups[block.trail_group]
        first = lead.first[rows][:, None] | trail.first[cols][None, :]
        second = lead.second[rows][:, None] | trail.second[cols][None, :]
        mover, last = (first, second) if block.first_to_move else (second, first)
        del first, second
        mover_state, last_state = self.line_state[mover], self.line_state[last]
        del mover, last
        if children is None:
            values = np.full(mover_state.shape, self.full, dtype=np.uint8)
        else:
            values = SEEN_BY_MOVER[self._best_child(piece, children)]
        values[last_state != NO_LINE] = self.line_made
        values[(mover_state != NO_LINE) | (last_state == LINES_APART)] = NOT_REACHABLE
        begin = block.offset - self.layout.tier_offset[block.tier] + piece.start * block.cols
        out[begin : begin + values.size] = values.ravel()

    def _best_child(self, piece: Piece, children: ByteArray) -> ByteArray:
        """The smallest byte among each position's children, NO_CHILD where it has none."""
        block, layout = piece.block, self.layout
        digit = FIRST_DIGIT if block.first_to_move else SECOND_DIGIT
        up = (1, 0) if block.first_to_move else (0, 1)
        best = np.full((piece.stop - piece.start, block.cols), NO_CHILD, dtype=np.uint8)
        scratch = np.empty_like(best)
        base = layout.tier_offset[block.tier + 1]
        lead_child = self.blocks.get((block.tier + 1, _plus(block.lead_group, up)))
        if lead_child is not None:  # its trailing group is this block's
            child = _values_of(children, lead_child, base)
            for cell in range(layout.lead.start, layout.lead.start + layout.lead.length):
                slots = self.slots(True, block.lead_group, cell, digit)[piece.start : piece.stop]
                np.take(child, np.maximum(slots, 0), axis=0, out=scratch)
                scratch[slots < 0, :] = NO_CHILD
                np.minimum(best, scratch, out=best)
        trail_child = self.blocks.get((block.tier + 1, block.lead_group))
        if trail_child is not None:  # its trailing group is this block's, one mark up
            child = _values_of(children, trail_child, base)[piece.start : piece.stop]
            for cell in range(layout.trail.start, layout.trail.start + layout.trail.length):
                slots = self.slots(False, block.trail_group, cell, digit)
                np.take(child, np.maximum(slots, 0), axis=1, out=scratch)
                scratch[:, slots < 0] = NO_CHILD
                np.minimum(best, scratch, out=best)
        return best


def _plus(group: tuple[int, int], up: tuple[int, int]) -> tuple[int, int]:
    return group[0] + up[0], group[1] + up[1]


def _values_of(tier: ByteArray, block: Block, tier_offset: int) -> ByteArray:
    begin = block.offset - tier_offset
    return tier[begin : begin + block.size].reshape(block.rows, block.cols)


def pieces(layout: Layout, tier: int) -> list[Piece]:
    """The tier's blocks cut into runs of rows of about PIECE positions, largest first."""
    out = []
    for block in layout.tiers[tier]:
        step = max(1, PIECE // block.cols)
        out += [Piece(block, start, min(start + step, block.rows)) for start in range(0, block.rows, step)]
    return sorted(out, key=lambda p: -(p.stop - p.start) * p.block.cols)


def solve_tiers(variant: Variant, threads: int = 1) -> Iterator[Tier]:
    """Each tier's values, from the full board down to the empty one, as (tier, values in rank order)."""
    if variant.gravity:
        yield from solve_gravity_tiers(variant)
        return
    layout = layout_of(variant.cells)
    solver = _TierSolver(variant, layout, geometry_of(variant).line_state_table())
    children: ByteArray | None = None
    with ThreadPoolExecutor(max(1, threads)) as pool:
        for tier in range(variant.cells, -1, -1):
            values = np.empty(layout.tier_size(tier), dtype=np.uint8)
            work = pieces(layout, tier)
            solve_piece = partial(solver.solve_piece, out=values, children=children)
            if threads > 1 and len(work) > 1:
                list(pool.map(solve_piece, work))
            else:
                for piece in work:
                    solve_piece(piece)
            yield tier, values
            children = values


def solve(variant: Variant, progress: Progress | None = None, threads: int = 1) -> ByteArray:
    """The solved table of `variant`: one byte per position with legal counts, in rank order.
    `progress(done, tiers)` is called after each tier."""
    layout = layout_of(variant.cells)
    table = np.empty(layout.size, dtype=np.uint8)
    for done, (tier, values) in enumerate(solve_tiers(variant, threads), 1):
        table[layout.tier_offset[tier] : layout.tier_offset[tier + 1]] = values
        if progress is not None:
            progress(done, variant.cells + 1)
    return table
