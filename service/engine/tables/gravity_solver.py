"""The tables of gravity variants: solved over the positions play reaches, and only those.

A gravity table has the ranked layout of every table (`layout`), one byte per position with legal
counts, NOT_REACHABLE for the positions play cannot reach; but under gravity those are most of them
(4x5k4: 3,945,711 reachable of 741,365,049 entries, one in 188), since most boards hold a mark over an
empty cell, and the closed-form rule of `solver` does not tell the others apart: the order of the marks
in a column matters (see `gravity`). So the passes go over the reachable positions alone:

- forward, tier by tier from the empty board: a position is reachable when a reachable parent that is
  not finished (the side that moved into it made no line; a full board has no move) reaches it by a
  legal move, the lowest empty cell of a column. Each tier is kept as one bit per entry;
- backward, from the full board down: each position's value from its children's, looked up by rank in
  the tier above, through the playable cells only.

Each pass takes a tier's reachable positions a piece at a time (their ranks from the bits, their
marks from the ranks), vectorised over the piece with numpy, a column at a time: the work is the
reachable positions times the columns, and the memory two tiers' bytes (as the other tables) and an
eighth of the table's for the bits, whatever the share of positions play reaches (2x11 boards, whose
upper row is the only one that must rest on another, reach far more than 4x5). One thread: the passes
take seconds where the closed-form rule's whole-layout passes take minutes (4x5k4: 3.6 s, 22 s).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from ..rules.geometry import NO_LINE, geometry_of
from ..rules.values import NO_CHILD, NOT_REACHABLE, SEEN_BY_MOVER, Value, encode
from ..rules.variants import Variant
from .classes import ClassLayout, class_layout_of
from .layout import Layout, layout_of
from .parts import Group, IndexArray, MaskArray, Part

ByteArray = npt.NDArray[np.uint8]
BoolArray = npt.NDArray[np.bool_]
Packed = npt.NDArray[np.uint8]  # one bit per entry of a tier, by rank
Tiers = Iterator[tuple[int, ByteArray]]  # (tier, its values by rank), from the full board down
PIECE = 1 << 20


class _Columns:
    """The board's columns as masks, and each column's lowest empty cell for arrays of boards."""

    def __init__(self, variant: Variant) -> None:
        self.rows, self.cols = variant.rows, variant.cols
        self.masks = [
            np.uint32(sum(1 << (row * variant.cols + col) for row in range(variant.rows)))
            for col in range(variant.cols)
        ]

    def moves(self, occupied: MaskArray) -> Iterator[tuple[BoolArray, MaskArray]]:
        """For each column: which boards can play in it, and the bit of the cell they play there. A
        board that gravity filled holds h marks in a column at its h lowest cells."""
        for col, mask in enumerate(self.masks):
            height = np.bitwise_count(occupied & mask).astype(np.int64)
            open_ = height < self.rows
            cell = (self.rows - 1 - height[open_]) * self.cols + col
            yield open_, np.uint32(1) << cell.astype(np.uint32)


class _Ranks:
    """A tier's positions from their ranks within the tier: the inverse of `Layout.ranks`."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.lead_members, self.lead_start = _members(layout.lead)
        self.trail_members, self.trail_start = _members(layout.trail)

    def positions(self, tier: int, ranks: IndexArray) -> tuple[MaskArray, MaskArray]:
        """The first and the second player's cells of the positions at `ranks` (ascending) of `tier`."""
        blocks = self.layout.tiers[tier]
        base = self.layout.tier_offset[tier]
        offsets = np.array([block.offset - base for block in blocks], dtype=np.int64)
        which = np.searchsorted(offsets, ranks, side="right") - 1
        width = np.array([block.cols for block in blocks], dtype=np.int64)[which]
        row, col = np.divmod(ranks - offsets[which], width)
        lead_at = np.array([self.lead_start[b.lead_group] for b in blocks], dtype=np.int64)[which]
        trail_at = np.array([self.trail_start[b.trail_group] for b in blocks], dtype=np.int64)[which]
        lead, trail = self.layout.lead, self.layout.trail
        leading, trailing = self.lead_members[lead_at + row], self.trail_members[trail_at + col]
        return lead.first[leading] | trail.first[trailing], lead.second[leading] | trail.second[trailing]


def _members(part: Part) -> tuple[IndexArray, dict[Group, int]]:
    """The part's fillings group after group, and where each group starts among them."""
    members = np.concatenate([part.groups[key] for key in part.keys])
    sizes = [len(part.groups[key]) for key in part.keys]
    return members, dict(zip(part.keys, np.cumsum([0, *sizes[:-1]]).tolist(), strict=True))


def _pieces(bits: Packed) -> Iterator[IndexArray]:
    """The ranks of a tier's set bits, ascending, about PIECE at a time (from its nonzero bytes only:
    most are zero)."""
    nonzero = np.flatnonzero(bits)
    step = PIECE // 8
    for start in range(0, len(nonzero), step):
        at = nonzero[start : start + step]
        held = np.unpackbits(bits[at]).reshape(-1, 8).astype(bool)
        yield ((at[:, None] * 8) + np.arange(8))[held]


def _children(
    columns: _Columns, first: MaskArray, second: MaskArray, first_moves: bool
) -> Iterator[tuple[BoolArray, MaskArray, MaskArray]]:
    """For each column: which positions can play there, and the two sides' cells after they do."""
    for open_, bit in columns.moves(first | second):
        if first_moves:
            yield open_, first[open_] | bit, second[open_]
        else:
            yield open_, first[open_], second[open_] | bit


def reachable(variant: Variant, layout: Layout, line_state: ByteArray) -> list[Packed]:
    """Every tier's reachable positions, from the empty board up, as packed bits by rank in the tier."""
    columns, ranks = _Columns(variant), _Ranks(layout)
    tiers = [np.packbits(np.ones(1, dtype=bool))]
    for tier in range(variant.cells):
        found = np.zeros(layout.tier_size(tier + 1), dtype=bool)
        first_moves = tier % 2 == 0
        for piece in _pieces(tiers[-1]):
            first, second = ranks.positions(tier, piece)
            live = line_state[second if first_moves else first] == NO_LINE  # no line by the last mover
            for _, child_first, child_second in _children(columns, first[live], second[live], first_moves):
                found[layout.ranks(child_first, child_second) - layout.tier_offset[tier + 1]] = True
        tiers.append(np.packbits(found))
    return tiers


def solve_gravity_tiers(variant: Variant) -> Tiers:
    """Each tier's values, from the full board down to the empty one, in rank order (as `solver`)."""
    layout = layout_of(variant.cells)
    line_state = geometry_of(variant).line_state_table()
    tiers = reachable(variant, layout, line_state)
    columns, ranks = _Columns(variant), _Ranks(layout)
    # The side to move finds the other side's line on the board: it lost, or under misère it won.
    line_made = encode(Value(1, 0) if variant.misere else Value(-1, 0))
    full = encode(Value(0, 0))
    above: ByteArray | None = None
    for tier in range(variant.cells, -1, -1):
        out = np.full(layout.tier_size(tier), NOT_REACHABLE, dtype=np.uint8)
        first_moves = tier % 2 == 0
        for piece in _pieces(tiers.pop()):
            first, second = ranks.positions(tier, piece)
            values = np.full(len(piece), full, dtype=np.uint8)
            if above is not None:
                best = np.full(len(piece), NO_CHILD, dtype=np.uint8)
                for open_, child_first, child_second in _children(columns, first, second, first_moves):
                    children = layout.ranks(child_first, child_second) - layout.tier_offset[tier + 1]
                    best[open_] = np.minimum(best[open_], above[children])
                values = SEEN_BY_MOVER[best]
            values[line_state[second if first_moves else first] != NO_LINE] = line_made
            out[piece] = values
        yield tier, out
        above = out


def fold_reachable(layout: ClassLayout, ranked: Tiers) -> Tiers:
    """The ranked tiers of `solve_gravity_tiers` in a class layout: each reachable position's value at its
    class's entry, NOT_REACHABLE elsewhere. A class holds a position and its mirror images, reachable
    together (gravity looks the same in a mirror). Folding entry by entry read every entry of the layout
    (4x5: 371 million, 21 s) for the 3.9 million play reaches."""
    if layout is class_layout_of(layout.variant, reduce=False):  # the ranked layout itself
        yield from ranked
        return
    ranks = _Ranks(layout_of(layout.variant.cells))
    for tier, values in ranked:
        out = np.full(layout.tier_size(tier), NOT_REACHABLE, dtype=np.uint8)
        reached = np.flatnonzero(values != NOT_REACHABLE)
        for start in range(0, len(reached), PIECE):
            piece = reached[start : start + PIECE]
            first, second = ranks.positions(tier, piece)
            out[layout.ranks(first, second) - layout.tier_offset[tier]] = values[piece]
        yield tier, out
