"""The solver the service had before the ranked layout, kept as a reference: the same retrograde
algorithm over a dense base-3 index (3**cells bytes, a position's index is its board read as a base-3
number, cell 0 first: empty 0, second player 1, first player 2). Tests compare the ranked tables with
it byte for byte; the table benchmark measures against it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from service.engine.rules.geometry import LINES_APART, NO_LINE, geometry_of
from service.engine.rules.values import NOT_REACHABLE, SEEN_BY_MOVER, Value, encode
from service.engine.rules.variants import Variant
from service.engine.tables.parts import FIRST_DIGIT, SECOND_DIGIT, part

ByteArray = npt.NDArray[np.uint8]
NO_CHILD = 255


def dense_index(cells: int, first: int, second: int) -> int:
    """The dense index of the position where the first player holds `first` and the other `second`."""
    index = 0
    for cell in range(cells):
        digit = FIRST_DIGIT if first >> cell & 1 else SECOND_DIGIT if second >> cell & 1 else 0
        index = index * 3 + digit
    return index


def dense_indices(
    cells: int, first: npt.NDArray[np.uint32], second: npt.NDArray[np.uint32]
) -> npt.NDArray[np.int64]:
    index = np.zeros(first.shape, dtype=np.int64)
    for cell in range(cells):
        digit = FIRST_DIGIT * ((first >> cell) & 1) + SECOND_DIGIT * ((second >> cell) & 1)
        index = index * 3 + digit.astype(np.int64)
    return index


def dense_solve(variant: Variant) -> ByteArray:
    cells = variant.cells
    lead, trail = part(0, cells // 2), part(cells // 2, cells - cells // 2)
    table = np.zeros(3**cells, dtype=np.uint8)
    grid = table.reshape(3 ** (cells // 2), -1)
    line_state = geometry_of(variant).line_state_table()
    line_made = encode(Value(1, 0) if variant.misere else Value(-1, 0))
    for tier in range(cells, -1, -1):
        first_count, second_count = (tier + 1) // 2, tier // 2
        first_to_move = tier % 2 == 0
        digit = FIRST_DIGIT if first_to_move else SECOND_DIGIT
        up = (1, 0) if first_to_move else (0, 1)
        for lead_group, rows in lead.groups.items():
            trail_group = (first_count - lead_group[0], second_count - lead_group[1])
            cols = trail.groups.get(trail_group)
            if cols is None:
                continue
            first = lead.first[rows][:, None] | trail.first[cols][None, :]
            second = lead.second[rows][:, None] | trail.second[cols][None, :]
            mover, last = (first, second) if first_to_move else (second, first)
            mover_state, last_state = line_state[mover], line_state[last]
            if tier == cells:
                values = np.full(mover.shape, encode(Value(0, 0)), dtype=np.uint8)
            else:
                best = np.full(mover.shape, NO_CHILD, dtype=np.uint8)
                for this, groups in ((lead, lead_group), (trail, trail_group)):
                    child_group = (groups[0] + up[0], groups[1] + up[1])
                    if child_group not in this.groups:
                        continue
                    child_ids = this.groups[child_group]
                    if this is lead:
                        children = grid[np.ix_(child_ids, cols)]
                    else:
                        children = grid[np.ix_(rows, child_ids)].T
                    spare = np.vstack([children, np.full((1, children.shape[1]), NO_CHILD, np.uint8)])
                    for cell in range(this.start, this.start + this.length):
                        slots = this.child_slots(groups, cell, digit, len(child_ids))
                        taken = spare[slots]
                        np.minimum(best, taken if this is lead else taken.T, out=best)
                values = SEEN_BY_MOVER[best]
            values[last_state != NO_LINE] = line_made
            values[(mover_state != NO_LINE) | (last_state == LINES_APART)] = NOT_REACHABLE
            grid[np.ix_(rows, cols)] = values
    return table
