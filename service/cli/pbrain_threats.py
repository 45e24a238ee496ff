"""The cells where the opponent would complete a line with its next stone, for `sanmoku pbrain`.

Sanmoku to move, with no line of its own to complete and one such cell: every other move loses in two
plies, so that cell is forced. The analysis proves the same, but only once it has searched every other
move, which on a busy host can take longer than a short turn (217 moves of a 15x15 position took from
0.1 to 0.7 s here); this needs a look at the lines through the cells with stones on them.
"""

from __future__ import annotations

import contextlib

from ..engine import IllegalMoveError, Mark, Position, Status, geometry_of, get_variant


def opponent_fives(position: Position) -> list[int]:
    """The empty cells where the opponent's stone would complete a line (under the variant's rule:
    under "exactly five" a run of six is none), in cell order."""
    geometry = geometry_of(position.variant)
    mine, theirs = position.mine, position.theirs
    near = 0  # the empty cells of lines the opponent lacks one stone of
    for line in geometry.lines:
        if not line & mine and (line & theirs).bit_count() == geometry.k - 1:
            near |= line & ~theirs
    variant = position.variant
    if variant.renju and position.first is position.to_move:
        # Under renju the opponent is white, whose five or more win; a position with white to move and
        # as many stones on each side would take white for the first player (black).
        variant = get_variant(variant.name.removesuffix("-renju"))
    their_turn = Position(variant, position.x, position.o, position.to_move.other)
    won = Status.X_WON if position.to_move.other is Mark.X else Status.O_WON
    cells = []
    while near:
        low = near & -near
        cell = low.bit_length() - 1
        near ^= low
        with contextlib.suppress(IllegalMoveError):  # a cell black may not take (renju) threatens nothing
            if their_turn.play(cell).status is won:
                cells.append(cell)
    return cells
