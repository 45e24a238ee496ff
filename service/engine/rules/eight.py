"""Eight, the first game tree of the articles Sanmoku grew from: two players pick a number from 1 to 3
in turn, never the number the other just picked (the first pick is free); whoever brings the running
total to exactly 8 wins, and whoever passes 8 loses.

A position is the total, the last pick and the side to move, written ``{total}:{last}`` (``0:0`` before
the first pick, ``5:2`` after picks that add up to 5, the last of them a 2). The value of a position
depends on the total and the last pick only; the side to move says who is who.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from ..errors import IllegalMoveError, InvalidPositionError
from .position import Mark, Status

TARGET = 8
PICKS = (1, 2, 3)
_TEXT = re.compile(r"(?P<total>\d{1,2}):(?P<last>\d)")
FORM = "write an Eight position as total:last pick, such as 0:0 before the first pick or 5:2"


@dataclass(frozen=True)
class Eight:
    """The game's facts: the total to reach and the numbers a player may pick."""

    target: int = TARGET
    picks: tuple[int, ...] = PICKS

    @property
    def name(self) -> str:
        return "eight"

    @property
    def rules(self) -> str:
        return (
            f"Two players pick a number from {self.picks[0]} to {self.picks[-1]} in turn, never the number "
            f"the other just picked (the first pick is free); the pick that brings the total to exactly "
            f"{self.target} wins, and a pick that passes {self.target} loses."
        )

    def moves(self, total: int, last: int) -> list[int]:
        """The picks allowed after `last` at `total`; none once the game is over."""
        return [] if total >= self.target else [p for p in self.picks if p != last]

    @cached_property
    def reachable(self) -> frozenset[tuple[int, int]]:
        """Every (total, last pick) that legal play reaches from the start."""
        seen, frontier = {(0, 0)}, [(0, 0)]
        while frontier:
            total, last = frontier.pop()
            for pick in self.moves(total, last):
                if (total + pick, pick) not in seen:
                    seen.add((total + pick, pick))
                    frontier.append((total + pick, pick))
        return frozenset(seen)


EIGHT = Eight()


@dataclass(frozen=True)
class EightPosition:
    total: int
    last: int  # the number the side that moved last picked; 0 before the first pick
    to_move: Mark

    @property
    def variant(self) -> Eight:
        return EIGHT

    @classmethod
    def start(cls, first: str = "X") -> EightPosition:
        return cls(0, 0, Mark(first.upper()))

    @classmethod
    def parse(cls, text: str, to_move: str | None = None) -> EightPosition:
        """Read user input; raise InvalidPositionError with a reason code unless legal play reaches it."""
        match = _TEXT.fullmatch(text)
        if match is None:
            raise InvalidPositionError("wrong_shape", f"{text!r} is not an Eight position: {FORM}", "board")
        total, last = int(match["total"]), int(match["last"])
        if (total, last) not in EIGHT.reachable:
            raise InvalidPositionError(
                "unreachable",
                f"no game of Eight reaches a total of {total} with a last pick of {last}",
                "board",
            )
        side = (to_move or Mark.X).upper()
        if side not in (Mark.X, Mark.O):
            raise InvalidPositionError("bad_side_to_move", f"to_move is {to_move!r}; use X or O", "to_move")
        return cls(total, last, Mark(side))

    @property
    def cells(self) -> str:
        return f"{self.total}:{self.last}"

    @property
    def status(self) -> Status:
        if self.total < EIGHT.target:
            return Status.IN_PROGRESS
        # exactly the target: the side that moved last won; past it: that side lost
        winner = self.to_move.other if self.total == EIGHT.target else self.to_move
        return Status.X_WON if winner is Mark.X else Status.O_WON

    @property
    def is_over(self) -> bool:
        return self.total >= EIGHT.target

    @property
    def completed_lines(self) -> tuple[tuple[int, ...], ...]:
        return ()

    def legal_moves(self) -> list[int]:
        return EIGHT.moves(self.total, self.last)

    def place(self, move: int) -> tuple[int, ...] | None:
        return None  # a pick, not a cell

    def text_after(self, move: int) -> str:
        return self.play(move).cells

    def text_rows(self) -> list[str]:
        return [self.cells]

    def play(self, move: int) -> EightPosition:
        if move not in self.legal_moves():
            why = (
                "the game is already over" if self.is_over else f"the allowed picks are {self.legal_moves()}"
            )
            raise IllegalMoveError("illegal_pick", f"pick {move}: {why}", "move")
        return EightPosition(self.total + move, move, self.to_move.other)
