"""The tables of gravity variants: solved over the positions play reaches, and only those.

A gravity table has the ranked layout of every table (`layout`), one byte per position with legal
counts, NOT_REACHABLE for the positions play cannot reach; but under gravity those are nearly all of
them (4x5k4: 3,945,711 reachable of 741,365,049 entries, one in 188), since most boards hold a mark
over an empty cell, and the closed-form rule of `solver` does not tell the others apart: the order of
the marks in a column matters (see `gravity`). So the reachable positions are listed instead:

- forward, tier by tier from the empty board: a position is reachable when a reachable parent that is
  not finished (the side that moved into it made no line; a full board has no move) reaches it by a
  legal move, the lowest empty cell of a column. A tier is the children of the tier below, by rank
  (the rank is one-to-one, so equal ranks are equal positions);
- backward, from the full board down: each position's value from its children's, looked up by rank in
  the tier above, through the playable cells only.

Each pass is vectorised over a tier's positions (numpy), a column at a time, in pieces of about PIECE
positions, which bounds the temporary arrays; the work is the reachable positions times the columns,
not the layout's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .geometry import NO_LINE, geometry_of
from .layout import IndexArray, Layout, MaskArray, layout_of
from .values import NOT_REACHABLE, SEEN_BY_MOVER, Value, encode
from .variants import Variant

ByteArray = npt.NDArray[np.uint8]
NO_CHILD = 255  # above every child's byte, so it never wins the minimum
PIECE = 1 << 20


@dataclass(frozen=True)
class Frontier:
    """The reachable positions of one tier, by rank within the tier (X first): ranks ascending."""

    ranks: IndexArray
    first: MaskArray  # the first player's cells
    second: MaskArray

    def __len__(self) -> int:
        return len(self.ranks)

    def piece(self, start: int, stop: int) -> Frontier:
        return Frontier(self.ranks[start:stop], self.first[start:stop], self.second[start:stop])


class _Columns:
    """The board's columns as masks, and each column's lowest empty cell for arrays of boards."""

    def __init__(self, variant: Variant) -> None:
        self.rows, self.cols = variant.rows, variant.cols
        self.masks = [
            np.uint32(sum(1 << (row * variant.cols + col) for row in range(variant.rows)))
            for col in range(variant.cols)
        ]

    def moves(self, occupied: MaskArray) -> Iterator[tuple[npt.NDArray[np.bool_], MaskArray]]:
        """For each column: which boards can play in it, and the bit of the cell they play (0 where none).
        A board that gravity filled holds h marks in a column at its h lowest cells."""
        for col, mask in enumerate(self.masks):
            height = np.bitwise_count(occupied & mask).astype(np.int64)
            open_ = height < self.rows
            cell = np.where(open_, (self.rows - 1 - height) * self.cols + col, 0)
            yield open_, np.where(open_, np.uint32(1) << cell.astype(np.uint32), np.uint32(0))


def _pieces(size: int) -> list[tuple[int, int]]:
    return [(start, min(start + PIECE, size)) for start in range(0, size, PIECE)]


def reachable(variant: Variant, layout: Layout, line_state: ByteArray) -> list[Frontier]:
    """Every tier's reachable positions, from the empty board up."""
    columns = _Columns(variant)
    empty = np.zeros(1, dtype=np.uint32)
    tiers = [Frontier(np.zeros(1, dtype=np.int64), empty, empty.copy())]
    for tier in range(variant.cells):
        below, first_moves = tiers[-1], tier % 2 == 0
        found: list[tuple[IndexArray, MaskArray, MaskArray]] = []
        for start, stop in _pieces(len(below)):
            part = below.piece(start, stop)
            last = part.second if first_moves else part.first  # the side that moved into this tier
            live = line_state[last] == NO_LINE
            first, second = part.first[live], part.second[live]
            for open_, bit in columns.moves(first | second):
                child_first = first[open_] | bit[open_] if first_moves else first[open_]
                child_second = second[open_] if first_moves else second[open_] | bit[open_]
                ranks = layout.ranks(child_first, child_second) - layout.tier_offset[tier + 1]
                found.append((ranks, child_first, child_second))
        ranks = np.concatenate([f[0] for f in found])
        ranks, where = np.unique(ranks, return_index=True)
        first = np.concatenate([f[1] for f in found])[where]
        second = np.concatenate([f[2] for f in found])[where]
        tiers.append(Frontier(ranks, first, second))
    return tiers


def solve_gravity_tiers(variant: Variant) -> Iterator[tuple[int, ByteArray]]:
    """Each tier's values, from the full board down to the empty one, in rank order (as `solver`)."""
    layout = layout_of(variant.cells)
    line_state = geometry_of(variant).line_state_table()
    tiers = reachable(variant, layout, line_state)
    columns = _Columns(variant)
    # The side to move finds the other side's line on the board: it lost, or under misère it won.
    line_made = encode(Value(1, 0) if variant.misere else Value(-1, 0))
    full = encode(Value(0, 0))
    above: ByteArray | None = None
    for tier in range(variant.cells, -1, -1):
        frontier = tiers.pop()
        values = np.full(len(frontier), full, dtype=np.uint8)
        first_moves = tier % 2 == 0
        for start, stop in _pieces(len(frontier)):
            part = frontier.piece(start, stop)
            if above is not None:
                best = np.full(len(part), NO_CHILD, dtype=np.uint8)
                for open_, bit in columns.moves(part.first | part.second):
                    first = part.first[open_] | bit[open_] if first_moves else part.first[open_]
                    second = part.second[open_] if first_moves else part.second[open_] | bit[open_]
                    children = layout.ranks(first, second) - layout.tier_offset[tier + 1]
                    best[open_] = np.minimum(best[open_], above[children])
                values[start:stop] = SEEN_BY_MOVER[best]
            last = part.second if first_moves else part.first
            values[start:stop][line_state[last] != NO_LINE] = line_made
        out = np.full(layout.tier_size(tier), NOT_REACHABLE, dtype=np.uint8)
        out[frontier.ranks] = values
        yield tier, out
        above = out
