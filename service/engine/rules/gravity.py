"""Which boards play can build under gravity, exactly: the checks `Position.parse` adds for gravity.

Under gravity a column fills from the bottom up, so a board fixes the order of the marks within each
column, and play must interleave the columns so that the sides alternate, the opener first. That is
not always possible (a column holding X, X, O from the bottom, with X first, needs an O between the two
X's from another column), and whether it is cannot be read from counts; no greedy order decides it
either (playing a column's X and the O on it at once can strand another column's X). It is decided over
the vectors of column heights played so far: a depth-first walk, which finds an order within a few
dozen states on almost every board (16 µs on 6x7), and when it has tried STATES_FIRST states without
deciding, a walk layer by layer from the empty board (every height vector t moves reach), as numpy
arrays, whose cost is bounded by the number of those vectors (80 ms for the worst 6x7 board found, one
the depth-first walk took 300,000 states and half a second to refute).

Lines add one condition. Play stops at the first line, so the board before the last move held none
(every earlier board holds a subset of its marks, so none of them held one either): the last move was a
top mark of the last mover that lies on all its lines, and the board without it must be buildable.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidPositionError
from .geometry import Geometry, iter_cells

# A column's marks from the bottom up (a box's: through its layers): True for the opener's.
Stack = tuple[bool, ...]
STATES_FIRST = 2000  # states the depth-first walk may try before the layer walk decides


def check_stacks(geometry: Geometry, opener: int, other: int, names: tuple[str, str]) -> None:
    """Raise InvalidPositionError unless play from the empty board, the side holding `opener` moving
    first and `names` naming (opener, other), builds exactly this board under gravity."""
    occupied = opener | other
    floating = geometry.floating(occupied)
    if floating:
        cell = floating.bit_length() - 1
        bottom = "row" if len(geometry.sides) == 2 else "layer"
        raise InvalidPositionError(
            "floating_mark",
            f"cell {cell} ({geometry.place_words(cell)}) holds a mark over an empty cell; under gravity a "
            f"mark rests on the bottom {bottom} or on another mark",
            "board",
        )
    opener_last = opener.bit_count() > other.bit_count()
    last, last_name = (opener, names[0]) if opener_last else (other, names[1])
    lines = geometry.lines_of(last)
    if not lines:
        if not buildable(_stacks(geometry, opener, other)):
            raise InvalidPositionError("unreachable", _unbuildable(names), "board")
        return
    common = last
    for line in lines:
        common &= line
    candidates = common & geometry.tops(occupied)
    if not candidates:
        raise InvalidPositionError(
            "unreachable",
            f"{last_name}'s line{'s' if len(lines) > 1 else ''} cannot have been completed last: under "
            f"gravity the last mark played is the top of its column, and no top mark of {last_name} "
            "lies on every line it holds",
            "board",
        )
    for cell in iter_cells(candidates):
        before = (opener & ~(1 << cell), other) if opener_last else (opener, other & ~(1 << cell))
        if buildable(_stacks(geometry, *before)):
            return
    raise InvalidPositionError(
        "unreachable",
        _unbuildable(names) + f", with the move that completed {last_name}'s line last",
        "board",
    )


def _unbuildable(names: tuple[str, str]) -> str:
    return (
        f"under gravity each column fills from the bottom up, and no order of moves, {names[0]} and "
        f"{names[1]} in turn from {names[0]}, stacks the columns as they are"
    )


def _stacks(geometry: Geometry, opener: int, other: int) -> list[Stack]:
    """Each column's marks from the bottom up (the board has no floating mark)."""
    stacks = []
    for col in range(geometry.step_down):
        stack = []
        for level in range(geometry.sides[0] - 1, -1, -1):
            bit = 1 << (level * geometry.step_down + col)
            if not (opener | other) & bit:
                break
            stack.append(bool(opener & bit))
        stacks.append(tuple(stack))
    return stacks


def buildable(stacks: list[Stack]) -> bool:
    """Whether the columns can be played bottom-up by alternate moves, the opener first."""
    found = depth_first(stacks, STATES_FIRST)
    return layer_by_layer(stacks) if found is None else found


def depth_first(stacks: list[Stack], most: int) -> bool | None:
    """`buildable` by a depth-first walk that remembers the states it has refuted; None once it has
    tried `most` states without deciding."""
    heights, total = [0] * len(stacks), sum(len(stack) for stack in stacks)
    refuted: set[tuple[int, ...]] = set()

    def walk(played: int) -> bool | None:
        if played == total:
            return True
        state = tuple(heights)
        if state in refuted:
            return False
        if len(refuted) >= most:
            return None
        wanted = played % 2 == 0
        for col, stack in enumerate(stacks):
            height = heights[col]
            if height < len(stack) and stack[height] == wanted:
                heights[col] += 1
                found = walk(played + 1)
                heights[col] -= 1
                if found is not False:
                    return found
        refuted.add(state)
        return False

    return walk(0)


def layer_by_layer(stacks: list[Stack]) -> bool:
    """`buildable` by the states each number of moves reaches: a state is the vector of column heights,
    numbered in mixed radix, and the next move is the opener's when the number played is even."""
    radix, place = [], 1
    for stack in stacks:
        radix.append(place)
        place *= len(stack) + 1
    # Each column's mark at every height, and a third value past its top that no move matches.
    colours = [np.array([*stack, 2], dtype=np.int8) for stack in stacks]
    states = np.zeros(1, dtype=np.int64)
    for t in range(sum(len(stack) for stack in stacks)):
        wanted = 1 if t % 2 == 0 else 0
        found = []
        for stack, colour, step in zip(stacks, colours, radix, strict=True):
            if not stack:
                continue
            height = (states // step) % (len(stack) + 1)
            found.append(states[colour[height] == wanted] + step)
        states = np.unique(np.concatenate(found))
        if not len(states):
            return False
    return True
