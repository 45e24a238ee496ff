"""Boards of up to SMALL_CELLS cells (not under gravity) solved over every arrangement of marks at once.

On such boards the panels of `solver` hold a few entries each, and a tier costs hundreds of small numpy
calls: 13 ms for 3x3, which the first answer of a server started on an empty tables directory waited
for. Here the 3**n arrangements are numbered in base 3 (a cell's digit as in `parts`: 0
empty, FIRST_DIGIT the first player's mark, SECOND_DIGIT the other's; cell c's digit is worth 3**c),
each tier is solved with a handful of whole-array operations (a position's children are its number
plus the mover's digit at each empty cell's place), and the tiers are then read into the class layout
through each panel's entries.

The rules are the panel solver's, from the same line states (`Geometry.line_state_table`): a position
whose side to move holds a line, or whose other side holds lines that share no cell, cannot arise; one
whose other side holds a line is decided (lost, under misère won); a full board is a draw; any other
takes its best child's value. A test compares the bytes with the panel solver's on every board it covers.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from ..rules.geometry import LINES_APART, NO_LINE, geometry_of
from ..rules.values import NO_CHILD, NOT_REACHABLE, SEEN_BY_MOVER, Value, encode
from ..rules.variants import Variant
from .classes import ClassLayout
from .parts import FIRST_DIGIT, SECOND_DIGIT

SMALL_CELLS = 12  # 3**12 arrangements: 531,441, a few megabytes per array

Tier = tuple[int, npt.NDArray[np.uint8]]


def small_tiers(variant: Variant, layout: ClassLayout) -> Iterator[Tier]:
    """Each tier's values in `layout`, from the full board down to the empty one."""
    values = _solve_arrangements(variant)
    number = _base_three(variant.cells)
    for tier in range(variant.cells, -1, -1):
        out = np.empty(layout.tier_size(tier), dtype=np.uint8)
        for panel in layout.tiers[tier]:
            first, second = layout.entries(panel)
            begin = panel.offset - layout.tier_offset[tier]
            arrangement = FIRST_DIGIT * number[first] + SECOND_DIGIT * number[second]
            out[begin : begin + len(first)] = values[arrangement]
        yield tier, out


def _solve_arrangements(variant: Variant) -> npt.NDArray[np.uint8]:
    """Every arrangement's byte (NOT_REACHABLE for those play cannot make), by its number."""
    cells = variant.cells
    first, second = _arrangements(cells)
    line_state = geometry_of(variant).line_state_table()
    count_first, count_second = np.bitwise_count(first), np.bitwise_count(second)
    first_to_move = count_first == count_second
    legal = first_to_move | (count_first == count_second + 1)
    tiers = np.where(legal, count_first + count_second, -1)
    places = 3 ** np.arange(cells, dtype=np.int64)
    line_made = encode(Value(1, 0) if variant.misere else Value(-1, 0))
    values = np.full(len(first), NOT_REACHABLE, dtype=np.uint8)
    for tier in range(cells, -1, -1):
        states = np.flatnonzero(tiers == tier)
        to_move = first_to_move[states]
        mover = np.where(to_move, first[states], second[states])
        last = np.where(to_move, second[states], first[states])
        if tier == cells:
            solved = np.full(len(states), encode(Value(0, 0)), dtype=np.uint8)
        else:
            taken = first[states] | second[states]
            empty = (taken[:, None] >> np.arange(cells, dtype=np.uint32)) & 1 == 0
            digit = np.where(to_move, FIRST_DIGIT, SECOND_DIGIT)[:, None]
            children = np.where(empty, states[:, None] + digit * places[None, :], 0)
            best = np.where(empty, values[children], NO_CHILD).min(axis=1)
            solved = SEEN_BY_MOVER[best]
        solved[line_state[last] != NO_LINE] = line_made
        solved[(line_state[mover] != NO_LINE) | (line_state[last] == LINES_APART)] = NOT_REACHABLE
        values[states] = solved
    return values


def _arrangements(cells: int) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """Both sides' cells of every arrangement, by its number. Not `parts.part_of`: that one reads the
    first cell as the most significant digit, and groups and caches what is not needed here."""
    first, second = np.zeros(1, dtype=np.uint32), np.zeros(1, dtype=np.uint32)
    for cell in range(cells):
        bit = np.uint32(1 << cell)
        first = np.concatenate([first | bit if d == FIRST_DIGIT else first for d in range(3)])
        second = np.concatenate([second | bit if d == SECOND_DIGIT else second for d in range(3)])
    return first, second


def _base_three(cells: int) -> npt.NDArray[np.int64]:
    """A set of cells (a mask) -> the sum of their places (3**c): times a digit, their part of a number."""
    number = np.zeros(1, dtype=np.int64)
    for cell in range(cells):
        number = np.concatenate([number, number + 3**cell])
    return number
