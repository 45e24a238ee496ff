"""The rules the search plays by, for boards of up to 64 cells: a board's shape, line length, misère,
torus and gravity, with the lines and symmetries derived from them.

A Board derives its lines, symmetries (under gravity only those that keep every cell in its row) and
playable cells with geometry's module-level functions, the one place for them; `Board.of(variant)`
adapts a variant.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..errors import InvalidPositionError
from ..rules.geometry import _lines, _permute, _symmetries
from ..rules.masks import Permuter, Runs, Symmetry, bottom_row, floating, holds_line, line_runs, playable
from ..rules.variants import MAX_CELLS, MIN_K, MIN_SIDE, Variant


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int
    k: int
    misere: bool = False
    torus: bool = False
    gravity: bool = False  # a move is the lowest empty cell of a column (rows are numbered from the top)

    def __post_init__(self) -> None:
        if min(self.rows, self.cols) < MIN_SIDE or self.cells > MAX_CELLS:
            shape = f"{self.rows}x{self.cols}"
            raise ValueError(f"a {shape} board: sides from {MIN_SIDE}, at most {MAX_CELLS} cells")
        if not MIN_K <= self.k <= max(self.rows, self.cols):
            raise ValueError(f"k={self.k} is not between {MIN_K} and {max(self.rows, self.cols)}")

    @classmethod
    def of(cls, variant: Variant) -> Board:
        return cls(variant.rows, variant.cols, variant.k, variant.misere, variant.torus, variant.gravity)

    @property
    def name(self) -> str:
        """The variant's long name (the suffixes in the variants' order)."""
        suffixes = "-torus" * self.torus + "-gravity" * self.gravity + "-misere" * self.misere
        return f"{self.rows}x{self.cols}k{self.k}{suffixes}"

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @cached_property
    def full(self) -> int:
        return (1 << self.cells) - 1

    @cached_property
    def lines(self) -> tuple[int, ...]:
        return _lines(self.rows, self.cols, self.k, self.torus)

    @cached_property
    def symmetries(self) -> tuple[Symmetry, ...]:
        """Geometry's symmetries of the game, identity first."""
        return _symmetries(self.rows, self.cols, self.torus, self.lines, self.gravity)

    def playable(self, occupied: int) -> int:
        return playable(occupied, self.full, self.bottom_row, self.cols, self.gravity)

    @property
    def bottom_row(self) -> int:
        return bottom_row(self.rows, self.cols)

    @cached_property
    def runs(self) -> Runs | None:
        return line_runs(self.rows, self.cols, self.k, self.torus)

    def holds_line(self, mask: int) -> bool:
        return holds_line(mask, self.k, self.lines, self.runs)

    def check(self, mine: int, theirs: int) -> None:
        """Raise InvalidPositionError unless the marks can stand on this board with `mine` to move."""
        if (mine | theirs) & ~self.full or mine & theirs:
            raise InvalidPositionError("bad_marks", f"marks outside the {self.name} board or on one cell")
        if theirs.bit_count() - mine.bit_count() not in (0, 1):
            raise InvalidPositionError(
                "impossible_counts",
                f"the side to move has {mine.bit_count()} marks and the other {theirs.bit_count()}",
            )
        if self.holds_line(mine):
            raise InvalidPositionError("line_by_side_to_move", "the side to move holds a line")
        if self.gravity and floating(mine | theirs, self.bottom_row, self.cols):
            raise InvalidPositionError("floating_mark", "under gravity a mark rests on the one below it")

    def is_over(self, mine: int, theirs: int) -> bool:
        """The game ended: the side that just moved holds a line, or the board is full."""
        return self.holds_line(theirs) or (mine | theirs) == self.full

    def permute(self, mask: int, symmetry: Symmetry) -> int:
        return _permute(mask, symmetry)

    @cached_property
    def permuters(self) -> tuple[tuple[Symmetry, Permuter], ...]:
        """Each symmetry but the identity, with its permutation of masks a byte at a time."""
        return tuple((symmetry, Permuter(symmetry)) for symmetry in self.symmetries[1:])
