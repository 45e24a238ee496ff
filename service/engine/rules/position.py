"""An immutable, validated position: each side's marks as a bitmask, the side to move and the variant."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from ..errors import IllegalMoveError, InvalidPositionError
from .geometry import LINES_APART, Geometry, geometry_of, iter_cells, lines_geometry_of
from .gravity import check_stacks
from .renju import WHY, forbidden_points, forbidden_shape, has_allowed_point
from .variants import NORMAL, Variant


class Mark(StrEnum):
    X = "X"
    O = "O"  # noqa: E741  (the mark is called O)

    @property
    def other(self) -> Mark:
        return Mark.O if self is Mark.X else Mark.X


MARKS = (Mark.X, Mark.O)
EMPTY = "."
ROW_SEPARATOR = "/"
_INPUT_CELLS = {"x": Mark.X, "X": Mark.X, "o": Mark.O, "O": Mark.O, ".": None, "-": None, "_": None}


class Status(StrEnum):
    IN_PROGRESS = "in_progress"
    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"


def other(mark: str) -> Mark:
    return Mark(mark).other


@dataclass(frozen=True)
class Position:
    variant: Variant
    x: int  # X's cells
    o: int  # O's cells
    to_move: Mark

    @classmethod
    def empty(cls, variant: Variant = NORMAL, first: str = "X") -> Position:
        return cls(variant, 0, 0, Mark(first.upper()))

    @classmethod
    def parse(cls, board: str, to_move: str | None = None, variant: Variant = NORMAL) -> Position:
        """Read user input; raise InvalidPositionError with a reason code unless it is reachable.

        Cells go row by row from the top; the rows may be separated by '/'.
        """
        x, o = _read_marks(_unseparated(board, variant), variant)
        position = cls(variant, x, o, _side_to_move(x.bit_count(), o.bit_count(), to_move))
        _check_lines(position)
        if variant.gravity:
            first = position.first
            check_stacks(
                position.geometry, position.mask(first), position.mask(first.other), (first, first.other)
            )
        return position

    @property
    def geometry(self) -> Geometry:
        return geometry_of(self.variant)

    def lines_geometry(self, mark: Mark) -> Geometry:
        """The geometry whose lines count for `mark`: under renju the first player's (black's) only
        with exactly five, the other's with five or more."""
        if self.variant.renju and mark is self.first:
            return lines_geometry_of(self.variant)
        return self.geometry

    def mask(self, mark: str) -> int:
        return self.x if mark == Mark.X else self.o

    @property
    def mine(self) -> int:
        return self.mask(self.to_move)

    @property
    def theirs(self) -> int:
        return self.mask(self.to_move.other)

    @property
    def marks(self) -> int:
        return (self.x | self.o).bit_count()

    @property
    def first(self) -> Mark:
        """Who opened the game: the side with more marks, or the side to move when they are level."""
        x, o = self.x.bit_count(), self.o.bit_count()
        return self.to_move if x == o else Mark.X if x > o else Mark.O

    @cached_property
    def cells(self) -> str:
        """The board as a string, row by row: X, O and '.'."""
        return "".join(
            Mark.X if self.x >> c & 1 else Mark.O if self.o >> c & 1 else EMPTY
            for c in range(self.variant.cells)
        )

    @property
    def line_holder(self) -> Mark | None:
        """Who holds a line; in a valid position only the side that moved last can."""
        last = self.to_move.other
        return last if self.lines_geometry(last).holds_line(self.mask(last)) else None

    @property
    def completed_lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of each line that ended the game (one move can complete several)."""
        holder = self.line_holder
        if holder is None:
            return ()
        lines = self.lines_geometry(holder).lines_of(self.mask(holder))
        return tuple(tuple(iter_cells(line)) for line in lines)

    @cached_property
    def status(self) -> Status:
        holder = self.line_holder
        if holder is not None:
            line_wins = not self.variant.misere
            return Status.X_WON if (holder is Mark.X) == line_wins else Status.O_WON
        if self.marks == self.variant.cells or self._black_stuck:
            return Status.DRAW  # under renju also when black may play none of the empty cells left
        return Status.IN_PROGRESS

    @property
    def _black_stuck(self) -> bool:
        """Under renju, black to move and every empty cell forbidden."""
        if not self.variant.renju or self.to_move is not self.first:
            return False
        if "_allowed" in self.__dict__:  # decided already: no cell asked twice
            return not self._allowed
        return not has_allowed_point(self)

    @property
    def is_over(self) -> bool:
        return self.status is not Status.IN_PROGRESS

    def legal_moves(self) -> list[int]:
        if self.is_over:
            return []
        return list(iter_cells(self._allowed))

    @cached_property
    def forbidden(self) -> frozenset[int]:
        """Under renju, the empty cells where black (the first player) may not play now, whoever is to
        move (renju.py); none on any other board."""
        return forbidden_points(self) if self.variant.renju else frozenset()

    @cached_property
    def _allowed(self) -> int:
        """The cells the side to move may play, the game over or not: the playable cells, less the
        forbidden points when black is to move under renju."""
        playable = self.geometry.playable(self.x | self.o)
        if self.variant.renju and self.to_move is self.first:
            playable &= ~sum(1 << cell for cell in self.forbidden)
        return playable

    def play(self, cell: int) -> Position:
        if self.is_over:
            raise IllegalMoveError("game_over", f"cell {cell}: the game is already over", "cell")
        if not 0 <= cell < self.variant.cells:
            last = self.variant.cells - 1
            raise IllegalMoveError("cell_out_of_range", f"cell {cell} is not between 0 and {last}", "cell")
        bit = 1 << cell
        if (self.x | self.o) & bit:
            raise IllegalMoveError("cell_taken", f"cell {cell} is already taken", "cell")
        if not self.geometry.playable(self.x | self.o) & bit:
            raise IllegalMoveError("not_lowest", self._not_lowest(cell), "cell")
        shape = forbidden_shape(self, cell) if self.variant.renju and self.to_move is self.first else None
        if shape is not None:  # one cell decided, not the whole board's forbidden points
            raise IllegalMoveError(
                "forbidden",
                f"cell {cell} is a forbidden point for black (the first player) under renju: {WHY[shape]}",
                "cell",
            )
        if self.to_move is Mark.X:
            return Position(self.variant, self.x | bit, self.o, Mark.O)
        return Position(self.variant, self.x, self.o | bit, Mark.X)

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.variant.cols)

    def place(self, move: int) -> tuple[int, ...] | None:
        return self.variant.shape.coordinates(move)

    def text_after(self, move: int) -> str:
        cells = self.cells  # without building the position after the move
        return cells[:move] + self.to_move + cells[move + 1 :]

    def text_rows(self) -> list[str]:
        cols = self.variant.cols
        return [self.cells[i : i + cols] for i in range(0, len(self.cells), cols)]

    def _not_lowest(self, cell: int) -> str:
        geometry = self.geometry
        column = cell % geometry.step_down
        lowest = next(c for c in self.legal_moves() if c % geometry.step_down == column)
        flat = len(geometry.sides) == 2
        row, col = geometry.shape.coordinates(cell)[-2:]
        where = f"column {column}" if flat else f"its place (row {row}, column {col})"
        level = f"{'row' if flat else 'layer'} {geometry.shape.coordinates(lowest)[0]}"
        return (
            f"cell {cell} ({geometry.place_words(cell)}) is not the lowest empty cell of its column; under "
            f"gravity a mark played in {where} falls to cell {lowest} ({level})"
        )


def _unseparated(board: str, variant: Variant) -> str:
    if ROW_SEPARATOR not in board:
        if len(board) != variant.cells:
            raise InvalidPositionError(
                "wrong_length",
                f"board has {len(board)} cells; the {variant.name} board has {variant.cells} "
                f"({_rows_of(variant)})",
                "board",
            )
        return board
    rows = board.split(ROW_SEPARATOR)
    if len(rows) != variant.layers * variant.rows or any(len(row) != variant.cols for row in rows):
        lengths = ", ".join(str(len(row)) for row in rows)
        raise InvalidPositionError(
            "wrong_shape",
            f"board has rows of {lengths} cells; the {variant.name} board has {_rows_of(variant)}",
            "board",
        )
    return "".join(rows)


def _rows_of(variant: Variant) -> str:
    rows = f"{variant.rows} rows of {variant.cols}"
    return rows if variant.layers == 1 else f"{variant.layers} layers of {rows}, the layers' rows in turn"


def _read_marks(board: str, variant: Variant) -> tuple[int, int]:
    x = o = 0
    for i, char in enumerate(board):
        if char not in _INPUT_CELLS:
            raise InvalidPositionError(
                "bad_character",
                f"cell {i} is {char!r}; use X, O and . (or - or _) for empty, and / between rows",
                "board",
            )
        mark = _INPUT_CELLS[char]
        if mark is Mark.X:
            x |= 1 << i
        elif mark is Mark.O:
            o |= 1 << i
    return x, o


def _marks(count: int) -> str:
    return f"{count} mark" if count == 1 else f"{count} marks"


def _side_to_move(x: int, o: int, to_move: str | None) -> Mark:
    if abs(x - o) > 1:
        raise InvalidPositionError(
            "impossible_counts", f"X has {_marks(x)} and O has {o}; they can differ by at most one", "board"
        )
    side = None if to_move is None else to_move.upper()
    if side is not None and side not in MARKS:
        raise InvalidPositionError("bad_side_to_move", f"to_move is {to_move!r}; use X or O", "to_move")
    required = Mark.O if x > o else Mark.X if o > x else None
    if required is None:
        return Mark(side or Mark.X)
    if side is not None and side != required:
        raise InvalidPositionError(
            "wrong_side_to_move",
            f"X has {_marks(x)} and O has {o}, so {required} is to move, not {side}",
            "to_move",
        )
    return required


def _check_lines(position: Position) -> None:
    mover, last = position.to_move, position.to_move.other
    mover_holds = position.lines_geometry(mover).holds_line(position.mask(mover))
    last_state = position.lines_geometry(last).line_state(position.mask(last))
    if mover_holds and last_state:
        raise InvalidPositionError("both_lines", "both X and O hold a line; play stops at the first", "board")
    if mover_holds:
        raise InvalidPositionError(
            "line_by_side_to_move",
            f"{mover} holds a line but is to move, so {last} moved after the game had ended",
            "board",
        )
    if last_state == LINES_APART:
        raise InvalidPositionError(
            "unreachable",
            f"{last}'s lines share no cell, so no single last move completed them; play stops at the first",
            "board",
        )
