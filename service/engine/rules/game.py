"""What every game is, board or not: what a game says of itself (`GameRules`) and what a position of it
answers (`GamePosition`). The m,n,k boards (`variants`, `position`) and Eight (`eight`) are games; the
answers, the main line and the game tree read positions through this interface only, so a game that is
not a board needs no case of its own there.

Moves are numbers: a board's cell, Eight's pick. Two sides, X (who opens by default) and O; `status`
says who won once the game is over.
"""

from __future__ import annotations

from typing import Protocol

from .position import Mark, Status


class GameRules(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def rules(self) -> str:
        """The rules in one sentence."""
        ...


class GamePosition(Protocol):
    @property
    def variant(self) -> GameRules: ...

    @property
    def to_move(self) -> Mark: ...

    @property
    def cells(self) -> str:
        """The position as text, as answers write it (a board's cells, Eight's total and last pick)."""
        ...

    @property
    def status(self) -> Status: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def completed_lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of each line that ended the game; empty in a game without lines."""
        ...

    def legal_moves(self) -> list[int]: ...

    def play(self, move: int) -> GamePosition: ...

    def place(self, move: int) -> tuple[int, ...] | None:
        """Where the move goes: its cell's coordinates along the board's sides; None in a game whose
        moves are not cells (Eight's picks)."""
        ...

    def text_after(self, move: int) -> str:
        """The position's text after the move (as `cells` would write it)."""
        ...

    def text_rows(self) -> list[str]:
        """The position's text as the lines a drawing of it shows (a grid's rows)."""
        ...


def final_score(position: GamePosition) -> int:
    """The value of a finished game for the side to move: +1 won, 0 drawn, -1 lost."""
    if position.status is Status.DRAW:
        return 0
    winner = Mark.X if position.status is Status.X_WON else Mark.O
    return 1 if winner is position.to_move else -1
