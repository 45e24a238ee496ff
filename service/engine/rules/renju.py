"""Renju's forbidden points: the cells where black (the first player) may not play.

As the Renju International Federation states them: black may not make an overline (six or more in an
unbroken row), a double-four (two fours at once, two in one line included) or a double-three (two
threes at once). A five takes precedence: a move that makes exactly five wins, whatever else it makes.

A four is a row of four stones that one more stone makes exactly five; a straight four is an unbroken
four that two different cells make five. A three is a row of three that one more stone makes a
straight four, where that stone is itself allowed: so whether a three counts depends on whether
another cell is forbidden, with the move in place, and deciding a forbidden point is recursive (each
step adds a stone, so it ends). Only the rows through the move count: a shape the move does not join
was there before.

Cells are numbered row by row from the top, on a flat board without a torus. The functions read a
position's marks only: the first player's (`Position.first`) are black's, whoever is to move.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .position import Position

FIVE = 5
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # along a row, a column, and the two diagonals
# Where black defends and both a reply of its own and a white stone come before its next move, the cells
# far from its stones (Stones.far_cells) it needs so that one is sure to be left it to play.
FAR_CELLS_FOR_ANY_REPLY = 3
# How far from a move another stone can take part in a shape through it: an overline's far end (the
# move at one end of six) is 5 away, a five's or a four's 4.
REACH = FIVE


class Forbidden(StrEnum):
    OVERLINE = "overline"
    DOUBLE_FOUR = "double-four"
    DOUBLE_THREE = "double-three"


WHY = {
    Forbidden.OVERLINE: "it makes six or more in a row (an overline)",
    Forbidden.DOUBLE_FOUR: "it makes two fours at once (a double-four)",
    Forbidden.DOUBLE_THREE: "it makes two threes at once (a double-three)",
}


class Stones:
    """Black's and white's stones on a board of `rows` x `cols`, asked about one cell at a time."""

    def __init__(self, rows: int, cols: int, black: int, white: int) -> None:
        self.rows, self.cols, self.black, self.white = rows, cols, black, white
        self._known: dict[tuple[int, int], Forbidden | None] = {}  # (black, cell) -> its shape
        # The cells whose emptiness an answer so far has read: the only reads a white stone can change.
        self._empties_read = 0

    def _inside(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def _cell(self, row: int, col: int) -> int:
        return row * self.cols + col

    def _empty(self, black: int, row: int, col: int) -> bool:
        if not self._inside(row, col):
            return False
        bit = 1 << self._cell(row, col)
        self._empties_read |= bit
        return not (black | self.white) & bit

    def _is_black(self, black: int, row: int, col: int) -> bool:
        return self._inside(row, col) and bool(black >> self._cell(row, col) & 1)

    def _run(self, black: int, row: int, col: int, dr: int, dc: int) -> tuple[int, int]:
        """How many of black's stones run on from (row, col) backwards and forwards along (dr, dc)."""
        back = 0
        while self._is_black(black, row - (back + 1) * dr, col - (back + 1) * dc):
            back += 1
        ahead = 0
        while self._is_black(black, row + (ahead + 1) * dr, col + (ahead + 1) * dc):
            ahead += 1
        return back, ahead

    def _length(self, black: int, row: int, col: int, dr: int, dc: int) -> int:
        back, ahead = self._run(black, row, col, dr, dc)
        return back + 1 + ahead

    def _five_points(self, black: int, row: int, col: int, dr: int, dc: int) -> list[int]:
        """The steps along (dr, dc) from (row, col), itself black, of the empty cells where one more black
        stone makes exactly five in that row with it."""
        points = []
        for step in range(-(FIVE - 1), FIVE):
            r, c = row + step * dr, col + step * dc
            if step == 0 or not self._empty(black, r, c):
                continue
            back, ahead = self._run(black | 1 << self._cell(r, c), r, c, dr, dc)
            if back + 1 + ahead == FIVE and step - back <= 0 <= step + ahead:
                points.append(step)
        return points

    def _fours(self, black: int, row: int, col: int, dr: int, dc: int) -> int:
        """The fours through (row, col) along (dr, dc): its five points, a straight four's two counted
        once (they are five apart, its four stones between them)."""
        points = self._five_points(black, row, col, dr, dc)
        straight = sum(1 for step in points if step + FIVE in points)
        return len(points) - straight

    def _three(self, black: int, row: int, col: int, dr: int, dc: int) -> bool:
        """Whether a three runs through (row, col) along (dr, dc): one more stone, itself allowed, makes
        an unbroken four with it whose both ends make exactly five (a straight four)."""
        for step in range(-(FIVE - 2), FIVE - 1):
            r, c = row + step * dr, col + step * dc
            if step == 0 or not self._empty(black, r, c):
                continue
            after = black | 1 << self._cell(r, c)
            back, ahead = self._run(after, r, c, dr, dc)
            if back + 1 + ahead != FIVE - 1 or not step - back <= 0 <= step + ahead:
                continue
            start, end = step - back - 1, step + ahead + 1  # the four's two ends, in steps from the move
            ends_free = all(
                self._empty(after, row + at * dr, col + at * dc)
                and not self._is_black(after, row + beyond * dr, col + beyond * dc)
                for at, beyond in ((start, start - 1), (end, end + 1))
            )
            if ends_free and self._shape(black, self._cell(r, c)) is None:
                return True
        return False

    def shape(self, cell: int) -> Forbidden | None:
        """The forbidden shape black's stone on the empty `cell` would make, or None if it is allowed."""
        return self._shape(self.black, cell)

    def crowded_lines(self, cell: int) -> int:
        """How many of the four lines through the cell hold two black stones or more within reach: a
        three through the cell needs one, so a cell of fewer than two can never be a double-three."""
        return sum((self.black & reach).bit_count() >= 2 for reach in _reach(self.rows, self.cols)[cell])

    def stays_allowed(self, cell: int) -> bool:
        """Whether black may play the empty `cell` now and after one or more white stones anywhere else:
        white's stones cannot make a four, a five or an overline of black's, only a three (by making its
        straight four's cell allowed), so an allowed cell stays allowed unless it could be a double-three
        besides a four: unless three lines through it or more are crowded."""
        return self.shape(cell) is None and self.crowded_lines(cell) <= 2

    def white_could_change(self) -> int:
        """The cells where a white stone could change an answer given so far (a mask): those whose
        emptiness it read. Each answer is a function of the cells it read; a white stone anywhere else
        leaves what it reads, and so the answer, the same (black's stones it reads stay as they are)."""
        return self._empties_read

    def far_cells(self, least: int) -> bool:
        """Whether `least` empty cells or more have at most one black stone within reach along each line:
        each stays allowed after one more black stone anywhere and any white ones (a forbidden shape
        needs four black stones along one line through the cell or two along each of two, `_near`)."""
        empty = ~(self.black | self.white) & ((1 << self.rows * self.cols) - 1)
        found = 0
        for cell, reaches in enumerate(_reach(self.rows, self.cols)):
            if empty >> cell & 1 and all((self.black & reach).bit_count() <= 1 for reach in reaches):
                found += 1
                if found >= least:
                    return True
        return False

    def _shape(self, black: int, cell: int) -> Forbidden | None:
        key = (black, cell)
        if key not in self._known:
            self._known[key] = self._decide(black, cell)
        return self._known[key]

    def _decide(self, black: int, cell: int) -> Forbidden | None:
        row, col = divmod(cell, self.cols)
        if not self._near(black, row, col):
            return None
        black |= 1 << cell
        lengths = [self._length(black, row, col, dr, dc) for dr, dc in DIRECTIONS]
        if FIVE in lengths:
            return None  # a five wins, whatever else the move makes
        if max(lengths) > FIVE:
            return Forbidden.OVERLINE
        fours = [self._fours(black, row, col, dr, dc) for dr, dc in DIRECTIONS]
        if sum(fours) >= 2:
            return Forbidden.DOUBLE_FOUR
        threes = 0
        for (dr, dc), four in zip(DIRECTIONS, fours, strict=True):
            if not four and self._three(black, row, col, dr, dc):
                threes += 1
                if threes == 2:
                    return Forbidden.DOUBLE_THREE
        return None

    def _near(self, black: int, row: int, col: int) -> bool:
        """Whether enough black stones lie near the cell for any forbidden shape: an overline or a double
        four in one line needs four others along one direction, two threes or fours two others along
        each of two directions (a cheap test that lets most cells of a board through at once). Counted
        over masks made once per board size: 20 boards of 60 stones took 0.06 s of processor time,
        against 0.10 s counted cell by cell."""
        counts = [
            (black & reach).bit_count() for reach in _reach(self.rows, self.cols)[row * self.cols + col]
        ]
        return max(counts) >= 4 or sum(count >= 2 for count in counts) >= 2


class ShapesAsked:
    """Black's forbidden shapes on one board size, each answer kept with the cells it read
    (Stones.white_could_change): a position with the same black stones and white ones that differ only on
    cells the answer did not read has the same answer. A check that asks the same black moves after many
    different white replies (renju_certificate.py) asks the rules once for most of them."""

    KEPT = 16  # answers kept per black stones and cell: the oldest go first

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self._answers: dict[tuple[int, int], list[tuple[int, int, Forbidden | None]]] = {}

    def shape(self, black: int, white: int, cell: int) -> Forbidden | None:
        """The forbidden shape black's stone on the empty `cell` would make, or None if it is allowed."""
        answers = self._answers.setdefault((black, cell), [])
        for white_then, read, shape in answers:
            if not (white ^ white_then) & read:
                return shape
        stones = Stones(self.rows, self.cols, black, white)
        shape = stones.shape(cell)
        answers.append((white, stones.white_could_change(), shape))
        if len(answers) > self.KEPT:
            del answers[0]
        return shape


@cache
def _reach(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, per direction, the cells within REACH of it along that direction (itself left out)."""
    out = []
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        masks = []
        for dr, dc in DIRECTIONS:
            mask = 0
            for step in range(-REACH, REACH + 1):
                r, c = row + step * dr, col + step * dc
                if step and 0 <= r < rows and 0 <= c < cols:
                    mask |= 1 << (r * cols + c)
            masks.append(mask)
        out.append(tuple(masks))
    return tuple(out)


def stones_of(position: Position) -> Stones:
    """The position's stones: the first player's are black's."""
    variant = position.variant
    if variant.layers != 1 or variant.torus:
        raise ValueError(f"forbidden points are defined on a flat board without a torus, not {variant.name}")
    black = position.first
    return Stones(variant.rows, variant.cols, position.mask(black), position.mask(black.other))


def forbidden_shape(position: Position, cell: int) -> Forbidden | None:
    """The forbidden shape black's stone on `cell` (empty) would make, or None when black may play it."""
    return stones_of(position).shape(cell)


def is_forbidden(position: Position, cell: int) -> bool:
    return forbidden_shape(position, cell) is not None


def has_allowed_point(position: Position) -> bool:
    """Whether black may play some empty cell now: asked cell by cell, so most boards answer at their
    first empty cell, far from black's stones (deciding every cell takes tens of milliseconds)."""
    stones = stones_of(position)
    empty = ~(stones.black | stones.white) & ((1 << position.variant.cells) - 1)
    return any(empty >> cell & 1 and stones.shape(cell) is None for cell in range(position.variant.cells))


def forbidden_points(position: Position) -> frozenset[int]:
    """Every empty cell where black may not play now (whoever is to move)."""
    stones = stones_of(position)
    empty = ~(stones.black | stones.white) & ((1 << position.variant.cells) - 1)
    cells = range(position.variant.cells)
    return frozenset(cell for cell in cells if empty >> cell & 1 and stones.shape(cell) is not None)
