"""A position's value for the side to move, and its one-byte form in the solved tables.

A value is a result (win, draw, loss) and a remoteness: the plies to the end of the game under perfect
play, where the winner hurries and the loser delays (a draw always fills the board).

The byte grows with how good the position is for the side to move, so the best move is the one whose
child has the smallest byte:

    0            not a position of the table (it cannot arise by legal play)
    1 + r        loss in r plies        (1 .. 64)
    128 + r      draw in r plies        (128 .. 191)
    255 - r      win in r plies         (192 .. 255)
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

NOT_REACHABLE = 0
LOSS_BASE, DRAW_BASE, WIN_TOP = 1, 128, 255
MAX_REMOTENESS = 63


class Result(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class Value(NamedTuple):
    score: int  # +1 win, 0 draw, -1 loss
    remoteness: int

    @property
    def result(self) -> Result:
        return (Result.LOSS, Result.DRAW, Result.WIN)[self.score + 1]

    def preference(self) -> tuple[int, int]:
        """Sort key, smaller first: better result, then the faster win or the slower loss."""
        return (-self.score, self.remoteness if self.score > 0 else -self.remoteness)

    def after_move(self) -> Value:
        """This value of the child, seen by the side that moved into it."""
        return Value(-self.score, self.remoteness + 1)


class Known(NamedTuple):
    """What is proven of a value: bounds on its score (-1 to +1; equal once the result is proven) and,
    with the result, possibly its remoteness."""

    lower: int
    upper: int
    remoteness: int | None = None

    @classmethod
    def exactly(cls, value: Value) -> Known:
        return cls(value.score, value.score, value.remoteness)

    @property
    def result(self) -> Result | None:
        return Value(self.lower, 0).result if self.lower == self.upper else None

    @property
    def value(self) -> Value | None:
        if self.lower != self.upper or self.remoteness is None:
            return None
        return Value(self.lower, self.remoteness)


def encode(value: Value) -> int:
    if not 0 <= value.remoteness <= MAX_REMOTENESS:
        raise ValueError(f"remoteness {value.remoteness} does not fit a table byte")
    if value.score > 0:
        return WIN_TOP - value.remoteness
    return DRAW_BASE + value.remoteness if value.score == 0 else LOSS_BASE + value.remoteness


def decode(byte: int) -> Value | None:
    """The value a table byte holds, or None for a position the table does not hold."""
    if byte == NOT_REACHABLE:
        return None
    if byte < DRAW_BASE:
        return Value(-1, byte - LOSS_BASE)
    return Value(0, byte - DRAW_BASE) if byte <= DRAW_BASE + MAX_REMOTENESS else Value(1, WIN_TOP - byte)


# Every byte decoded once; `DECODED[b]` is a table lookup's whole work.
DECODED: tuple[Value | None, ...] = tuple(decode(b) for b in range(256))


def _seen_by_mover() -> npt.NDArray[np.uint8]:
    """Byte of a child -> byte of the same outcome for the side that moved into it. The map reverses
    the order of bytes, so a position's byte is this map applied to the smallest byte among its
    children; NOT_REACHABLE (and any byte no child can hold) maps to NOT_REACHABLE."""
    table = np.zeros(256, dtype=np.uint8)
    for byte, value in enumerate(DECODED):
        if value is not None and value.remoteness < MAX_REMOTENESS:
            table[byte] = encode(value.after_move())
    return table


SEEN_BY_MOVER = _seen_by_mover()
NO_CHILD = 255  # above every child's byte, so it never wins the minimum of a position's children
