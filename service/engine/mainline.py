"""The main line: how the game goes on from a position when both sides play perfectly."""

from __future__ import annotations

from dataclasses import dataclass

from .position import Position, Status
from .table import Table
from .values import Value


@dataclass(frozen=True)
class MainLine:
    start: Position
    value: Value  # of `start`, from its side to move; len(cells) == value.remoteness
    cells: tuple[int, ...]
    final: Position

    @property
    def status(self) -> Status:
        return self.final.status


def main_line(table: Table, position: Position) -> MainLine:
    """Follow each position's best move (the lowest cell among equals) to the end of the game."""
    cells: list[int] = []
    current = position
    while not current.is_over:
        best = table.analyze(current).best_move
        assert best is not None  # a game in progress always has a move
        cells.append(best)
        current = current.play(best)
    return MainLine(position, table.value(position), tuple(cells), current)
