"""The whole-game solve table, read from a solved table as a stream: every reachable position, or one per
symmetry class, with its values, and the summaries. Nothing here holds more than one chunk at a time.

Entries come by number of marks, then by board (with X first, the board string's order: `.` < `O` <
`X`, cell 0 first), whatever the order of the table's bytes. A symmetry class is represented by its
image with the smallest board (with X first, the smallest string).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from ..rules.geometry import geometry_of
from ..rules.position import Mark, Position, Status
from ..rules.values import DRAW_BASE, LOSS_BASE, MAX_REMOTENESS, NOT_REACHABLE, WIN_TOP
from .layout import layout_of
from .parts import FIRST_DIGIT, SECOND_DIGIT, IndexArray, MaskArray
from .solver import ByteArray
from .table import Lookup, Table

CHUNK = 1 << 16


@dataclass(frozen=True)
class Chunk:
    """Consecutive reachable positions of one tier, as arrays."""

    table: Table
    first: Mark  # who opened the game
    tier: int  # marks on the board
    ranks: IndexArray  # each position's place in the table
    first_cells: MaskArray  # the opener's cells
    second_cells: MaskArray
    values: ByteArray  # each position's byte (see `values`)

    def __len__(self) -> int:
        return len(self.ranks)

    @property
    def to_move(self) -> Mark:
        return self.first if self.tier % 2 == 0 else self.first.other

    @property
    def x_cells(self) -> MaskArray:
        return self.first_cells if self.first is Mark.X else self.second_cells

    @property
    def o_cells(self) -> MaskArray:
        return self.second_cells if self.first is Mark.X else self.first_cells

    @property
    def finished(self) -> npt.NDArray[np.bool_]:
        finished: npt.NDArray[np.bool_] = remoteness_of(self.values) == 0
        return finished

    @cached_property
    def move_bytes(self) -> ByteArray:
        """(positions, cells): the byte of the child each legal move leads to; NOT_REACHABLE where the
        cell is no legal move (taken, or the game is over)."""
        cells = self.table.variant.cells
        first_moves = self.tier % 2 == 0
        taken = self.first_cells | self.second_cells
        out = np.zeros((len(self), cells), dtype=np.uint8)
        live = ~self.finished
        for cell in range(cells):
            playable = live & ((taken >> cell) & 1 == 0)
            first, second = self.first_cells[playable], self.second_cells[playable]
            bit = np.uint32(1 << cell)
            children = (
                self.table.layout.ranks(first | bit, second)
                if first_moves
                else self.table.layout.ranks(first, second | bit)
            )
            out[playable, cell] = self.table.values[children]
        return out


def remoteness_of(values: ByteArray) -> npt.NDArray[np.int64]:
    wide = values.astype(np.int64)
    win = wide > DRAW_BASE + MAX_REMOTENESS
    return np.where(win, WIN_TOP - wide, np.where(wide >= DRAW_BASE, wide - DRAW_BASE, wide - LOSS_BASE))


def tier_positions(cells: int, tier: int, most: int = CHUNK) -> Iterator[tuple[MaskArray, MaskArray]]:
    """Every position of a tier with legal counts (X first), in board order, as each side's cells, in
    slices of about `most` positions (whole leading-part rows: a row never exceeds a few hundred).
    Board order is the order of `board_keys`: the leading part's index, then the trailing part's."""
    layout = layout_of(cells)
    lead, trail = layout.lead, layout.trail
    found = layout.tiers[tier]
    if not found:
        return
    rows = np.concatenate([lead.groups[b.lead_group] for b in found])
    owner = np.concatenate([np.full(b.rows, i) for i, b in enumerate(found)])
    order = np.argsort(rows, kind="stable")  # board order: by leading part, then trailing part
    rows, owner = rows[order], owner[order]
    counts = np.array([found[i].cols for i in owner])
    ends = np.cumsum(counts)
    start = 0
    while start < len(rows):
        stop = max(start + 1, int(np.searchsorted(ends, ends[start] - counts[start] + most, side="right")))
        lead_part = np.repeat(rows[start:stop], counts[start:stop])
        trail_part = np.concatenate([trail.groups[found[i].trail_group] for i in owner[start:stop]])
        first = lead.first[lead_part] | trail.first[trail_part]
        second = lead.second[lead_part] | trail.second[trail_part]
        yield first, second
        start = stop


def chunks(table: Table, first: str = "X", canonical: bool = False, size: int = CHUNK) -> Iterator[Chunk]:
    """The reachable positions of the game that `first` opens, chunk by chunk (at most `size`)."""
    opener = Mark(first)
    cells = table.variant.cells
    for tier in range(cells + 1):
        for first_cells, second_cells in tier_positions(cells, tier, size):
            ranks = table.ranks(first_cells, second_cells)  # the table's own layout (format 2 or 3)
            keep = table.values[ranks] != NOT_REACHABLE
            if canonical:
                keep[keep] = _smallest_image(table, first_cells[keep], second_cells[keep])
            if keep.any():
                values = table.values[ranks[keep]]  # a copy, checked to be the bytes that were verified
                table.check_unchanged()
                yield Chunk(
                    table,
                    opener,
                    tier,
                    ranks[keep],
                    first_cells[keep],
                    second_cells[keep],
                    values,
                )


def _smallest_image(table: Table, first: MaskArray, second: MaskArray) -> npt.NDArray[np.bool_]:
    """Which positions have the smallest board among their symmetric images."""
    place_sums = _place_sum_table(table.variant.cells)
    keys = board_keys(place_sums, first, second)
    keep = np.ones(len(keys), dtype=bool)
    alive = np.arange(len(keys))
    for symmetry in geometry_of(table.variant).symmetries[1:]:
        if not len(alive):
            break
        image = board_keys(place_sums, _permuted(first[alive], symmetry), _permuted(second[alive], symmetry))
        smaller = image < keys[alive]
        keep[alive[smaller]] = False
        alive = alive[~smaller]
    return keep


def board_keys(place_sums: IndexArray, first: MaskArray, second: MaskArray) -> IndexArray:
    """A number per position that orders boards as their strings with X first (the board read in base 3,
    cell 0 first: empty 0, second player 1, first player 2)."""
    keys: IndexArray = FIRST_DIGIT * place_sums[first] + SECOND_DIGIT * place_sums[second]
    return keys


@cache
def _place_sum_table(cells: int) -> IndexArray:
    """For every set of cells: the sum of their place values, cell 0 the most significant digit."""
    masks = np.arange(1 << cells, dtype=np.uint32)
    sums = np.zeros(len(masks), dtype=np.int64)
    for cell in range(cells):
        sums += ((masks >> cell) & 1).astype(np.int64) * 3 ** (cells - 1 - cell)
    return sums


def _permuted(masks: MaskArray, symmetry: tuple[int, ...]) -> MaskArray:
    out = np.zeros_like(masks)
    for cell, target in enumerate(symmetry):
        out |= ((masks >> cell) & 1) << target
    return out


def positions(table: Table, first: str = "X", canonical: bool = False) -> Iterator[Position]:
    """Every reachable position (or one per class) as a Position, in chunk order."""
    for chunk in chunks(table, first, canonical):
        for x, o in zip(chunk.x_cells.tolist(), chunk.o_cells.tolist(), strict=True):
            yield Position(table.variant, x, o, chunk.to_move)


def lookups(table: Table, first: str = "X", canonical: bool = False) -> Iterator[Lookup]:
    for position in positions(table, first, canonical):
        yield table.lookup(position)


@dataclass(frozen=True)
class Summary:
    positions: int
    by_result: dict[str, int]  # for the side to move: win, draw, loss
    by_status: dict[str, int]  # the game as it stands: in_progress, x_won, o_won, draw
    by_marks: tuple[int, ...]  # index = number of marks on the board


def summarize(table: Table, first: str = "X", canonical: bool = False) -> Summary:
    results: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    marks = [0] * (table.variant.cells + 1)
    for chunk in chunks(table, first, canonical):
        values = chunk.values
        wins = int(np.count_nonzero(values > DRAW_BASE + MAX_REMOTENESS))
        draws = int(np.count_nonzero(values >= DRAW_BASE)) - wins
        results.update({"win": wins, "draw": draws, "loss": len(chunk) - wins - draws})
        finished = chunk.finished
        full_draws = int(np.count_nonzero(finished & (values == DRAW_BASE)))
        lines = int(np.count_nonzero(finished)) - full_draws
        # A line ends the game: its maker (the side not to move) won, or under misère lost.
        winner = chunk.to_move if table.variant.misere else chunk.to_move.other
        statuses.update({Status.DRAW.value: full_draws, _won(winner): lines})
        statuses[Status.IN_PROGRESS.value] += len(chunk) - full_draws - lines
        marks[chunk.tier] += len(chunk)
    return Summary(
        positions=sum(marks),
        by_result={r: results[r] for r in ("win", "draw", "loss")},
        by_status={s.value: statuses[s.value] for s in Status},
        by_marks=tuple(marks),
    )


def _won(mark: Mark) -> str:
    return Status.X_WON.value if mark is Mark.X else Status.O_WON.value
