"""The main line: how the game goes on from a position when both sides play perfectly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .position import EMPTY, Position, Status
from .search import Analysis, Solver, Value


@dataclass(frozen=True)
class MainLine:
    start: Position
    value: Value  # of `start`, from its side to move; len(cells) == value.remoteness
    cells: tuple[int, ...]
    final: Position

    @property
    def status(self) -> Status:
        return self.final.status


def main_line(solver: Solver, position: Position) -> MainLine:
    """Follow each position's best move (the lowest cell among equals) to the end of the game."""
    cells: list[int] = []
    current = position
    while not current.is_over:
        best = solver.analyze(current).best_move
        assert best is not None  # a game in progress always has a move
        cells.append(best)
        current = current.play(best)
    return MainLine(position, solver.value(position), tuple(cells), current)


def main_lines(analyses: Mapping[str, Analysis]) -> dict[str, MainLine]:
    """`main_line` of every position in a set closed under best moves (a solve table's entries).

    Positions with more marks come first, so each line is its best move plus the child's line.
    """
    lines: dict[str, MainLine] = {}
    for board in sorted(analyses, key=lambda b: -sum(c != EMPTY for c in b)):
        analysis = analyses[board]
        start, best = analysis.position, analysis.best_move
        if best is None:
            lines[board] = MainLine(start, analysis.value, (), start)
        else:
            rest = lines[start.play(best).cells]
            lines[board] = MainLine(start, analysis.value, (best, *rest.cells), rest.final)
    return lines
