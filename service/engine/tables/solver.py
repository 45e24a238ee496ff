"""The retrograde solver: every entry's value, tier by tier, from the full board back to the empty one.

A tier is the positions with the same number of marks; each one's children are in the next tier, solved
before it, so only two tiers are ever needed at once. Tiers are produced one at a time, in a layout of
`classes` (one byte per class of symmetric positions, or with the identity alone one per position, see
`values`), for X moving first: `solve` gathers them into one array, a build writes each to its place in
the file as it comes (`building`).

A move in the leading part maps each row of a panel to a row of one panel of the next tier and its
columns by one map (the symmetry that brings the new leading filling to its representative), and a move
in the trailing part keeps the row and maps the columns; so a panel is solved with whole-row and
whole-column takes from the next tier, never a search and never a Python object per position. The
panels of a tier are independent: they are cut into pieces of rows, solved on several threads (numpy
lets go of the interpreter inside its loops) or as Ray tasks (`cluster`).

Which positions are legal needs no search either: a position with legal counts can arise by play exactly
when the side to move holds no line and the other side's lines, if any, share a cell (its last move).
Not under gravity, where the order of the marks in a column matters and nearly every entry is out of
reach: gravity tables are solved over the reachable positions in the ranked layout (`gravity_solver`)
and folded into the classes afterwards.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..rules.geometry import LINES_APART, NO_LINE, geometry_of
from ..rules.values import NO_CHILD, NOT_REACHABLE, SEEN_BY_MOVER, Value, encode
from ..rules.variants import Variant
from .classes import ClassLayout, Panel, class_layout_of
from .gravity_solver import fold_reachable, solve_gravity_tiers
from .panel_maps import PanelMaps
from .parts import FIRST_DIGIT, SECOND_DIGIT, distinct
from .small_solver import SMALL_CELLS, small_tiers

SOLVER_VERSION = 1  # bump when a change could alter any value in a table: older files are then rebuilt
ByteArray = npt.NDArray[np.uint8]
PIECE = 1 << 20  # positions solved at once: bounds the temporary arrays (about 16 bytes a position)
FOLD_CELLS = 16  # boards this small are solved in the ranked layout and folded (see `solve_tiers`)
MAPS_KEPT = 6  # panels whose maps are kept (threads work on pieces of one or two panels at a time)
Progress = Callable[[int, int], None]
Tier = tuple[int, ByteArray]  # a tier's number of marks and its values in rank order


@dataclass(frozen=True)
class Piece:
    """Rows `start` to `stop` of one panel: a unit of work."""

    panel: Panel
    start: int
    stop: int

    @property
    def size(self) -> int:
        return (self.stop - self.start) * len(self.panel.cols)


class TierSolver:
    """What every piece of a tier needs: the board's facts and the maps of the panels being solved."""

    def __init__(self, variant: Variant, layout: ClassLayout, line_state: ByteArray) -> None:
        self.layout, self.line_state = layout, line_state
        # The side to move finds the other side's line on the board: it lost, or under misère it won.
        self.line_made = encode(Value(1, 0) if variant.misere else Value(-1, 0))
        self.full = encode(Value(0, 0))
        self._maps: OrderedDict[tuple[int, int], PanelMaps] = OrderedDict()
        self._lock = threading.Lock()

    def maps(self, panel: Panel) -> PanelMaps:
        """The panel's maps, kept for the last few panels only (5x5: tens of megabytes a panel)."""
        key = (panel.tier, panel.offset)
        with self._lock:
            found = self._maps.get(key)
            if found is None:
                found = self._maps[key] = PanelMaps(self.layout, panel)
                while len(self._maps) > MAPS_KEPT:
                    self._maps.popitem(last=False)
            self._maps.move_to_end(key)
        return found

    def solve_piece(self, piece: Piece, children: ByteArray | None) -> ByteArray:
        """The values of the piece's positions, row by row; `children` is the next tier (None for the
        full board)."""
        panel = piece.panel
        first, second = self.layout.entries(panel, piece.start, piece.stop)
        mover, last = (first, second) if panel.first_to_move else (second, first)
        del first, second
        mover_state, last_state = self.line_state[mover], self.line_state[last]
        del mover, last
        if children is None:
            values = np.full(mover_state.shape, self.full, dtype=np.uint8)
        else:
            values = SEEN_BY_MOVER[self._best_child(piece, children).ravel()]
        values[last_state != NO_LINE] = self.line_made
        values[(mover_state != NO_LINE) | (last_state == LINES_APART)] = NOT_REACHABLE
        return values

    def _best_child(self, piece: Piece, children: ByteArray) -> ByteArray:
        """The smallest byte among each position's children, NO_CHILD where it has none."""
        panel, layout, maps = piece.panel, self.layout, self.maps(piece.panel)
        digit = FIRST_DIGIT if panel.first_to_move else SECOND_DIGIT
        up = (1, 0) if panel.first_to_move else (0, 1)
        best = np.full((piece.stop - piece.start, len(panel.cols)), NO_CHILD, dtype=np.uint8)
        scratch = np.empty_like(best)
        base = layout.tier_offset[panel.tier + 1]
        child_lead = _plus(panel.lead_group, up)
        for cell in layout.lead.cells:
            moves = maps.lead(cell, digit)
            child_rows, keys = moves.rows[piece.start : piece.stop], moves.keys[piece.start : piece.stop]
            scratch.fill(NO_CHILD)
            for key in distinct(keys[keys >= 0]):
                chosen = np.flatnonzero(keys == key)
                g, h = divmod(key, 256)
                child = _values_of(children, layout.panel_at[(panel.tier + 1, child_lead, h)], base)
                taken = np.take(child, child_rows[chosen], axis=0)
                columns = maps.columns(g, h)
                scratch[chosen] = taken if columns is None else np.take(taken, columns, axis=1)
            np.minimum(best, scratch, out=best)
        trail_child = layout.panel_at.get((panel.tier + 1, panel.lead_group, panel.stabilizer))
        if trail_child is not None:  # the same rows, the trailing group one mark up
            child = _values_of(children, trail_child, base)[piece.start : piece.stop]
            for cell in layout.trail.cells:
                slots = maps.trail(cell, digit)
                np.take(child, np.maximum(slots, 0), axis=1, out=scratch)
                scratch[:, slots < 0] = NO_CHILD
                np.minimum(best, scratch, out=best)
        return best


def _plus(group: tuple[int, int], up: tuple[int, int]) -> tuple[int, int]:
    return group[0] + up[0], group[1] + up[1]


def _values_of(tier: ByteArray, panel: Panel, tier_offset: int) -> ByteArray:
    begin = panel.offset - tier_offset
    return tier[begin : begin + panel.size].reshape(len(panel.rows), len(panel.cols))


def pieces(layout: ClassLayout, tier: int, most: int | None = None) -> list[Piece]:
    """The tier's panels cut into runs of rows of about `most` (PIECE) positions, in rank order."""
    most = most or PIECE
    out = []
    for panel in layout.tiers[tier]:
        step = max(1, most // len(panel.cols))
        out += [
            Piece(panel, start, min(start + step, len(panel.rows)))
            for start in range(0, len(panel.rows), step)
        ]
    return out


def piece_offset(layout: ClassLayout, piece: Piece) -> int:
    """Where the piece's values start within its tier."""
    panel = piece.panel
    return panel.offset - layout.tier_offset[panel.tier] + piece.start * len(panel.cols)


PieceDone = Callable[[int], None]  # told the number of positions of each piece solved


def solve_tier(
    solver: TierSolver,
    tier: int,
    children: ByteArray | None,
    pool: ThreadPoolExecutor | None = None,
    piece_done: PieceDone | None = None,
) -> ByteArray:
    """One tier's values from the next one's, its pieces on the pool's threads if there is one."""
    layout = solver.layout
    values = np.empty(layout.tier_size(tier), dtype=np.uint8)

    def run(piece: Piece) -> None:
        begin = piece_offset(layout, piece)
        values[begin : begin + piece.size] = solver.solve_piece(piece, children)
        if piece_done is not None:
            piece_done(piece.size)

    work = pieces(layout, tier)  # in rank order: the threads work on neighbouring pieces of one panel
    if pool is not None and len(work) > 1:
        list(pool.map(run, work))
    else:
        for piece in work:
            run(piece)
    return values


def solve_tiers(
    variant: Variant,
    layout: ClassLayout,
    threads: int = 1,
    top: int | None = None,
    children: ByteArray | None = None,
    piece_done: PieceDone | None = None,
    fold_small: bool = True,
) -> Iterator[Tier]:
    """Each tier's values in `layout`, from tier `top` (default: the full board, whose `children` are
    None) down to the empty board, as (tier, values in rank order). With `fold_small`, a board of at most
    SMALL_CELLS cells is solved over all its arrangements at once (`small_solver`), one of at most
    FOLD_CELLS in the ranked layout and folded: their panels are tiny, hundreds of numpy calls a tier."""
    if variant.gravity:  # solved whole in the ranked layout, then folded (small: seconds)
        yield from fold_reachable(layout, solve_gravity_tiers(variant))
        return
    from_the_top = top is None or top == variant.cells
    if fold_small and from_the_top and variant.cells <= SMALL_CELLS:  # a few thousand entries: at once
        yield from small_tiers(variant, layout)
        return
    small = fold_small and variant.cells <= FOLD_CELLS and from_the_top
    if small and layout is not (ranked := class_layout_of(variant, reduce=False)):
        yield from fold_tiers(layout, solve_tiers(variant, ranked, threads))
        return
    solver = TierSolver(variant, layout, geometry_of(variant).line_state_table())
    top = variant.cells if top is None else top
    with ThreadPoolExecutor(max(1, threads)) as pool:
        for tier in range(top, -1, -1):
            children = solve_tier(solver, tier, children, pool if threads > 1 else None, piece_done)
            yield tier, children


def fold_tiers(layout: ClassLayout, ranked: Iterator[Tier]) -> Iterator[Tier]:
    """Tiers of the ranked layout as tiers of `layout`: each class's entry is its representative's."""
    full = class_layout_of(layout.variant, reduce=False)
    for tier, values in ranked:
        if full is layout:
            yield tier, values
            continue
        out = np.empty(layout.tier_size(tier), dtype=np.uint8)
        for piece in pieces(layout, tier):
            first, second = layout.entries(piece.panel, piece.start, piece.stop)
            begin = piece_offset(layout, piece)
            out[begin : begin + piece.size] = values[full.ranks(first, second) - full.tier_offset[tier]]
        yield tier, out


def solve(
    variant: Variant, layout: ClassLayout | None = None, threads: int = 1, fold_small: bool = True
) -> ByteArray:
    """The solved table of `variant` in `layout` (default: the ranked layout of format 2): one byte per
    entry, in rank order."""
    layout = layout or class_layout_of(variant, reduce=False)
    table = np.empty(layout.size, dtype=np.uint8)
    for tier, values in solve_tiers(variant, layout, threads, fold_small=fold_small):
        table[layout.tier_offset[tier] : layout.tier_offset[tier + 1]] = values
    return table
