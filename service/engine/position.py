"""An immutable, validated position: the board, the side to move and the variant."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from .errors import IllegalMoveError, InvalidPositionError
from .geometry import Geometry, geometry_of
from .variants import NORMAL, Variant

MARKS = ("X", "O")
EMPTY = "."
_INPUT_CELLS = {"x": "X", "X": "X", "o": "O", "O": "O", ".": EMPTY, "-": EMPTY, "_": EMPTY}


class Status(StrEnum):
    IN_PROGRESS = "in_progress"
    X_WON = "x_won"
    O_WON = "o_won"
    DRAW = "draw"


def other(mark: str) -> str:
    return "O" if mark == "X" else "X"


@dataclass(frozen=True)
class Position:
    cells: str
    to_move: str
    variant: Variant = NORMAL

    @classmethod
    def empty(cls, variant: Variant = NORMAL, first: str = "X") -> Position:
        return cls.parse(EMPTY * variant.cells, first, variant)

    @classmethod
    def parse(cls, board: str, to_move: str | None = None, variant: Variant = NORMAL) -> Position:
        """Read user input; raise InvalidPositionError with a reason code unless it is reachable."""
        cells = _canonical_cells(board, variant)
        side = _side_to_move(cells, to_move)
        position = cls(cells, side, variant)
        _check_lines(position)
        return position

    @cached_property
    def geometry(self) -> Geometry:
        return geometry_of(self.variant)

    @cached_property
    def _masks(self) -> dict[str, int]:
        masks = dict.fromkeys((*MARKS, EMPTY), 0)
        for i, c in enumerate(self.cells):
            masks[c] |= 1 << i
        return masks

    def mask(self, mark: str) -> int:
        return self._masks[mark]

    @property
    def mine(self) -> int:
        return self._masks[self.to_move]

    @property
    def theirs(self) -> int:
        return self._masks[other(self.to_move)]

    @property
    def line_holder(self) -> str | None:
        """Who holds a line; in a valid position only the side that moved last can."""
        return other(self.to_move) if self.geometry.holds_line(self.theirs) else None

    @cached_property
    def status(self) -> Status:
        holder = self.line_holder
        if holder is not None:
            line_wins = not self.variant.misere
            return Status.X_WON if (holder == "X") == line_wins else Status.O_WON
        return Status.IN_PROGRESS if EMPTY in self.cells else Status.DRAW

    @property
    def is_over(self) -> bool:
        return self.status is not Status.IN_PROGRESS

    def legal_moves(self) -> list[int]:
        if self.is_over:
            return []
        return [i for i, c in enumerate(self.cells) if c == EMPTY]

    def play(self, cell: int) -> Position:
        if self.is_over:
            raise IllegalMoveError("game_over", f"cell {cell}: the game is already over", "cell")
        if not 0 <= cell < len(self.cells):
            raise IllegalMoveError(
                "cell_out_of_range", f"cell {cell} is not between 0 and {len(self.cells) - 1}", "cell"
            )
        if self.cells[cell] != EMPTY:
            raise IllegalMoveError("cell_taken", f"cell {cell} is already taken", "cell")
        cells = self.cells[:cell] + self.to_move + self.cells[cell + 1 :]
        return Position(cells, other(self.to_move), self.variant)

    def row_col(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.variant.cols)


def _canonical_cells(board: str, variant: Variant) -> str:
    if len(board) != variant.cells:
        raise InvalidPositionError(
            "wrong_length",
            f"board has {len(board)} cells; the {variant.name} board has {variant.cells}",
            "board",
        )
    out = []
    for i, char in enumerate(board):
        if char not in _INPUT_CELLS:
            raise InvalidPositionError(
                "bad_character",
                f"cell {i} is {char!r}; use X, O and . (or - or _) for empty",
                "board",
            )
        out.append(_INPUT_CELLS[char])
    return "".join(out)


def _side_to_move(cells: str, to_move: str | None) -> str:
    x, o = cells.count("X"), cells.count("O")
    if abs(x - o) > 1:
        raise InvalidPositionError(
            "impossible_counts", f"X has {x} marks and O has {o}; they can differ by at most one", "board"
        )
    side = None if to_move is None else to_move.upper()
    if side is not None and side not in MARKS:
        raise InvalidPositionError("bad_side_to_move", f"to_move is {to_move!r}; use X or O", "to_move")
    required = "O" if x > o else "X" if o > x else None
    if required is None:
        return side or "X"
    if side is not None and side != required:
        raise InvalidPositionError(
            "wrong_side_to_move",
            f"X has {x} marks and O has {o}, so {required} is to move, not {side}",
            "to_move",
        )
    return required


def _check_lines(position: Position) -> None:
    geometry = position.geometry
    mover, last = position.to_move, other(position.to_move)
    mover_lines = geometry.lines_of(position.mask(mover))
    last_lines = geometry.lines_of(position.mask(last))
    if mover_lines and last_lines:
        raise InvalidPositionError("both_lines", "both X and O hold a line; play stops at the first", "board")
    if mover_lines:
        raise InvalidPositionError(
            "line_by_side_to_move",
            f"{mover} holds a line but is to move, so {last} moved after the game had ended",
            "board",
        )
    common = geometry.full
    for line in last_lines:
        common &= line
    if last_lines and not common:
        raise InvalidPositionError(
            "unreachable",
            f"{last}'s lines share no cell, so no single last move completed them; play stops at the first",
            "board",
        )
