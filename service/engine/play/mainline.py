"""The main line: how the game goes on from a position when both sides play perfectly."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..answer import Answer
from ..rules.game import GamePosition
from ..rules.position import Position, Status
from ..rules.values import Value
from ..tables.table import Table


@dataclass(frozen=True)
class MainLine:
    start: GamePosition
    value: Value  # of `start`, from its side to move; len(cells) == value.remoteness
    cells: tuple[int, ...]  # the moves (a board's cells, Eight's picks)
    final: GamePosition

    @property
    def status(self) -> Status:
        return self.final.status


def main_line(table: Table, position: Position) -> MainLine:
    """Follow each position's best move (the lowest cell among equals) to the end of the game."""
    cells: list[int] = []
    current = position
    while not current.is_over:
        best = table.lookup(current).best_move
        assert best is not None  # a game in progress always has a move
        cells.append(best)
        current = current.play(best)
    return MainLine(position, table.value(position), tuple(cells), current)


def proven_line(
    analyze: Callable[[GamePosition], Answer], position: GamePosition, first: Answer
) -> MainLine | None:
    """`main_line` for any source of answers (`first` is `analyze(position)`): the lowest proven best
    move of each position to the end of the game, or None as soon as one position is not proven."""
    if first.value is None:
        return None
    cells: list[int] = []
    current: GamePosition = position
    answer = first
    while not current.is_over:
        if not answer.best_moves:
            return None
        cells.append(answer.best_moves[0])
        current = current.play(cells[-1])
        if not current.is_over:
            answer = analyze(current)
    return MainLine(position, first.value, tuple(cells), current)
