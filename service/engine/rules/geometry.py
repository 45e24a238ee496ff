"""Every fact about a board that follows from its shape, derived once per variant: the one place for them.

Cells are numbered row by row from 0 (a box's layer by layer); a set of cells is a bitmask (bit c is cell
c). A line is the set of k cells it covers; a symmetry is a permutation of the cells (``image[c]`` is
where cell c goes) that maps the set of lines onto itself and, under gravity, keeps every cell in its row
(only those keep the bottom row at the bottom: see `_point_symmetries`).

Under gravity rows are numbered from the top, so the bottom row is the last, and a column is filled from
the bottom up: the cell below cell c is c + cols. A box's marks fall through its layers the same way:
the last layer is the bottom, and the cell below c is c + rows * cols (a column is then a place of the
layers, a peg of Score Four).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache, cached_property
from itertools import permutations, product
from math import perm

import numpy as np
import numpy.typing as npt

from .masks import Permuter, Runs, bottom_row, floating, holds_line, line_runs, playable
from .masks import Symmetry as Symmetry  # defined with the masks; proven positions import it from here
from .shape import Shape
from .variants import NORMAL, Variant

CellMap = Callable[[int, int], tuple[int, int]]

# The `depth` policy may read as many move sequences as a full search of the classic board (every ply
# but the last): deeper on a larger board would leave a request waiting on a search.
SEQUENCE_BUDGET = perm(NORMAL.cells, NORMAL.cells - 1)
MIN_DEPTH = 1

# What a set of one side's marks holds: no line, lines sharing a cell (one move can have made them
# all), or lines sharing none (no single last move made them: the position cannot arise).
NO_LINE, LINES_WITH_COMMON_CELL, LINES_APART = 0, 1, 2
# Up to this many cells the line state of every set of cells is kept in a list (one lookup per check,
# 65,536 entries); a larger board's would take tens of megabytes per variant, so it is worked out.
LOOKUP_CELLS = 16
# The longest side of a cube whose renumberings are among its symmetries (`_renumberings`): four each on
# 4x4x4 and 5x5x5 (192 symmetries in all); 6x6x6 has 24 (1,152 in all, 1.9 s to find).
RENUMBERED_SIDE = 5


class Geometry:
    def __init__(
        self, sides: tuple[int, ...], k: int, torus: bool, gravity: bool = False, exact: bool = False
    ) -> None:
        self.sides, self.k, self.torus, self.gravity, self.exact = sides, k, torus, gravity, exact
        self.rows, self.cols = sides[-2:]  # a layer's: a box is drawn as its layers side by side
        self.shape = Shape(sides, torus)
        self.cells = self.shape.cells
        self.full = (1 << self.cells) - 1
        # Under gravity, the cells from one to the one below it (a row's on a grid, a layer's on a box),
        # and the bottom: the last row, or the last layer.
        self.step_down = self.cells // sides[0]
        self.bottom = bottom_row(sides[0], self.step_down)
        self.lines = self.shape.lines(k)
        # Under "exactly k", per line the cells beside its ends: a line counts only without its owner's
        # mark on them. None: k or more, every line held counts.
        self.flanks = self.shape.flanks(k) if exact else None
        # The rectangle's (or box's) own symmetries, without a torus's translations: at most eight on a
        # rectangle, 48 on a cube (192 on Qubic's), few enough to try them all on every position (the
        # proven positions' keys).
        if len(sides) == 2:
            self.point_symmetries = _point_symmetries(self.rows, self.cols, self.lines, gravity)
        else:
            self.point_symmetries = _box_symmetries(self.shape, self.lines, k, gravity)
        self.symmetries = (
            _translated(self.point_symmetries, self.rows, self.cols, gravity)
            if torus
            else self.point_symmetries
        )

    @property
    def max_plies(self) -> int:
        """The longest game fills the board."""
        return self.cells

    @property
    def centre(self) -> int | None:
        """The cell every symmetry fixes: a board without a torus whose every side is odd."""
        if self.torus or any(side % 2 == 0 for side in self.sides):
            return None
        return self.shape.cell_at(tuple(side // 2 for side in self.sides))

    @property
    def corners(self) -> tuple[int, ...]:
        """The corners of a board without a torus (four on a grid, eight on a box), in the order of their
        cells; a torus has none."""
        if self.torus:
            return ()
        ends = product(*((0, side - 1) for side in self.sides))
        return tuple(self.shape.cell_at(corner) for corner in ends)

    @cached_property
    def lines_through(self) -> tuple[int, ...]:
        """How many lines pass through each cell."""
        return tuple(sum(line >> c & 1 for line in self.lines) for c in range(self.cells))

    @property
    def max_depth(self) -> int:
        """The deepest look-ahead of the `depth` policy: within SEQUENCE_BUDGET move sequences."""
        depth = MIN_DEPTH
        while depth < self.cells - 1 and perm(self.cells, depth + 1) <= SEQUENCE_BUDGET:
            depth += 1
        return depth

    @cached_property
    def _line_states(self) -> list[int]:
        states: list[int] = self.line_state_table().tolist()
        return states

    def holds_line(self, mask: int) -> bool:
        if self.cells <= LOOKUP_CELLS:
            return self._line_states[mask] != NO_LINE
        if self.flanks is not None:
            return any(True for _ in self._held(mask))
        return holds_line(mask, self.k, self.lines, self._runs)

    @cached_property
    def _runs(self) -> Runs | None:
        """A flat grid's lines by direction; None on a box (its lines are tried in turn)."""
        return line_runs(self.rows, self.cols, self.k, self.torus) if len(self.sides) == 2 else None

    def _held(self, mask: int) -> Iterator[int]:
        """The lines `mask` holds, as they count: under "exactly k" only those with no mark of `mask`
        beside their ends."""
        if self.flanks is None:
            yield from (line for line in self.lines if mask & line == line)
            return
        for line, flank in zip(self.lines, self.flanks, strict=True):
            if mask & line == line and not mask & flank:
                yield line

    def line_state(self, mask: int) -> int:
        """NO_LINE, LINES_WITH_COMMON_CELL or LINES_APART for one set of cells."""
        if self.cells <= LOOKUP_CELLS:
            return self._line_states[mask]
        if not self.holds_line(mask):
            return NO_LINE
        common, held = self.full, False
        for line in self._held(mask):
            common, held = common & line, True
        return NO_LINE if not held else LINES_WITH_COMMON_CELL if common else LINES_APART

    def lines_of(self, mask: int) -> list[int]:
        """The lines `mask` holds (under "exactly k", those that count)."""
        return list(self._held(mask))

    def line_state_table(self) -> npt.NDArray[np.uint8]:
        """NO_LINE, LINES_WITH_COMMON_CELL or LINES_APART for every mask of the board."""
        masks = np.arange(1 << self.cells, dtype=np.uint32)
        held = np.zeros(masks.shape, dtype=np.uint8)
        common = np.full(masks.shape, self.full, dtype=np.uint32)
        flanks = self.flanks or (0,) * len(self.lines)
        for line, flank in zip(self.lines, flanks, strict=True):
            has = ((masks & line) == line) & ((masks & flank) == 0)
            held += has
            common[has] &= line
        state = np.where(common != 0, LINES_WITH_COMMON_CELL, LINES_APART).astype(np.uint8)
        state[held == 0] = NO_LINE
        return state

    def playable(self, occupied: int) -> int:
        """The cells a move may take: every empty cell, or under gravity the lowest empty cell of each
        column that has one."""
        return playable(occupied, self.full, self.bottom, self.step_down, self.gravity)

    def floating(self, occupied: int) -> int:
        """The occupied cells with an empty cell below them (none on a board that gravity fills)."""
        return floating(occupied, self.bottom, self.step_down)

    def tops(self, occupied: int) -> int:
        """The occupied cells with nothing above them: under gravity, the only marks that can have been
        played last."""
        return occupied & ~(occupied << self.step_down)

    def place_words(self, cell: int) -> str:
        """Where a cell is, in words: "row 1, column 2", on a box "layer 0, row 1, column 2"."""
        names = ("layer", "row", "column")[-len(self.sides) :]
        return ", ".join(f"{name} {at}" for name, at in zip(names, self.shape.coordinates(cell), strict=True))

    @cached_property
    def waits(self) -> tuple[int | None, ...]:
        """The cell each cell waits for (a move there needs it taken first): under gravity the cell
        below, c + step_down, and None on the bottom; None everywhere without gravity."""
        below = [
            cell + self.step_down if self.gravity and cell + self.step_down < self.cells else None
            for cell in range(self.cells)
        ]
        return tuple(below)

    def permute(self, mask: int, symmetry: Symmetry) -> int:
        return _permute(mask, symmetry)

    def transform(self, cells: str, symmetry: Symmetry) -> str:
        out = [""] * len(cells)
        for i, target in enumerate(symmetry):
            out[target] = cells[i]
        return "".join(out)


def iter_cells(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _point_maps(rows: int, cols: int) -> list[CellMap]:
    maps: list[CellMap] = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
    ]
    if rows == cols:  # quarter turns and the diagonal reflections keep only a square a square
        maps += [
            lambda r, c: (c, rows - 1 - r),
            lambda r, c: (cols - 1 - c, r),
            lambda r, c: (c, r),
            lambda r, c: (cols - 1 - c, rows - 1 - r),
        ]
    return maps


def _point_symmetries(rows: int, cols: int, lines: tuple[int, ...], gravity: bool) -> tuple[Symmetry, ...]:
    """The reflections and rotations of the rectangle that keep the set of lines (all of them, as it
    turns out; on a torus too, whose lines they map as they map a flat board's), identity first. Under
    gravity only the maps that keep every cell in its row are symmetries of the game (the mirror): any
    other sends the bottom row, where play starts, or the order in which a column fills, elsewhere."""
    line_set = set(lines)
    found: dict[Symmetry, None] = {}
    for point_map in _point_maps(rows, cols):
        symmetry = tuple(
            r * cols + c for r, c in (point_map(*divmod(cell, cols)) for cell in range(rows * cols))
        )
        if gravity and any(target // cols != cell // cols for cell, target in enumerate(symmetry)):
            continue
        permute = Permuter.of(symmetry)
        if all(permute(line) in line_set for line in lines):  # a permutation: into the set is onto it
            found.setdefault(symmetry)
    return tuple(found)


def _box_symmetries(shape: Shape, lines: tuple[int, ...], k: int, gravity: bool) -> tuple[Symmetry, ...]:
    """A box's symmetries, identity first: each of its renumberings (`_renumberings`), then each order of
    its sides that puts every side on one as long (all six on a cube), with each side reflected or not;
    those that keep the set of lines. A cube has 48 reflections and turns; 4x4x4 with lines of four
    (Qubic) has 192 symmetries in all, as Silver (1967) counted. Under gravity only those that keep
    every cell in its layer (the bottom stays the bottom): 8 on Score Four."""
    dimensions, line_set = len(shape.sides), set(lines)
    found: dict[Symmetry, None] = {}
    for renumbered in _renumberings(shape.sides, k, gravity):
        places = [tuple(renumbered[at] for at in shape.coordinates(cell)) for cell in range(shape.cells)]
        for order in permutations(range(dimensions)):
            if any(shape.sides[axis] != shape.sides[i] for i, axis in enumerate(order)):
                continue
            if gravity and order[0] != 0:
                continue
            for flips in product((False, True), repeat=dimensions):
                if gravity and flips[0]:
                    continue
                symmetry = tuple(
                    shape.cell_at(_box_image(shape.sides, place, order, flips)) for place in places
                )
                if all(_permute(line, symmetry) in line_set for line in lines):
                    found.setdefault(symmetry)
    return tuple(found)


def _renumberings(sides: tuple[int, ...], k: int, gravity: bool) -> Iterator[tuple[int, ...]]:
    """The places along a side, renumbered the same way on every side: the identity (as long as the
    longest side), and on a cube without gravity (a renumbering moves layers) whose lines run its whole
    side every renumbering that commutes with
    reflection (place i and its mirror n-1-i go to a place and its mirror). A line of the whole side,
    straight or diagonal, covers each place once along every side that varies, each with its mirror
    where two sides run opposite ways: so it stays one set of cells (swapping the two middle places of
    4x4x4 keeps every line). Only up to RENUMBERED_SIDE: 6x6x6 would have 1,152 symmetries, too many
    to try on every position."""
    n = max(sides)
    yield tuple(range(n))
    if gravity or k != n or n > RENUMBERED_SIDE or any(side != n for side in sides):
        return
    for renumbered in permutations(range(n)):
        mirrored = all(renumbered[n - 1 - i] == n - 1 - at for i, at in enumerate(renumbered))
        if mirrored and renumbered != tuple(range(n)):
            yield renumbered


def _box_image(
    sides: tuple[int, ...], place: tuple[int, ...], order: tuple[int, ...], flips: tuple[bool, ...]
) -> tuple[int, ...]:
    """Where a cell at `place` goes: its place along side `order[i]` becomes its place along side i,
    reflected where `flips` says."""
    return tuple(
        sides[i] - 1 - place[axis] if flip else place[axis]
        for i, (axis, flip) in enumerate(zip(order, flips, strict=True))
    )


def _translated(
    point_symmetries: tuple[Symmetry, ...], rows: int, cols: int, gravity: bool
) -> tuple[Symmetry, ...]:
    """A torus's symmetries: each of the rectangle's after each translation, which maps the torus's
    lines onto themselves (they start from every cell), so none needs checking again (checking each of
    an 8x8 torus's 512 maps took 0.7 s per variant). Under gravity only the shifts along the rows."""
    found: dict[Symmetry, None] = {}
    for dr in range(1 if gravity else rows):
        for dc in range(cols):
            shifted = [
                (cell // cols + dr) % rows * cols + (cell % cols + dc) % cols for cell in range(rows * cols)
            ]
            for symmetry in point_symmetries:
                found.setdefault(tuple(shifted[target] for target in symmetry))
    return tuple(found)


def _permute(mask: int, symmetry: Symmetry) -> int:
    return sum(1 << symmetry[c] for c in iter_cells(mask))


@cache
def geometry_of(variant: Variant) -> Geometry:
    return _geometry(variant.sides, variant.k, variant.torus, variant.gravity, variant.exact)


def lines_geometry_of(variant: Variant) -> Geometry:
    """The geometry of the lines that count for the first player under renju: exactly five."""
    return _geometry(variant.sides, variant.k, variant.torus, variant.gravity, True)


@cache
def _geometry(sides: tuple[int, ...], k: int, torus: bool, gravity: bool, exact: bool) -> Geometry:
    return Geometry(sides, k, torus, gravity, exact)
