"""Positions for the search tests, given as the masks of the side to move and of the other side."""

from __future__ import annotations

from service.engine import Mark, Position, Variant


def position_of(variant: Variant, mine: int, theirs: int) -> Position:
    """The position where the side to move holds `mine` and the other side `theirs`: X moves when the
    counts are equal, else O. Not checked: a test builds what it means to."""
    if mine.bit_count() == theirs.bit_count():
        return Position(variant, mine, theirs, Mark.X)
    return Position(variant, theirs, mine, Mark.O)


def empty(variant: Variant) -> Position:
    return Position.empty(variant)
