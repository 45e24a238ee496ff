"""Where the moves from one panel of a class layout lead (`classes`), for the retrograde solver
(`solver`): a move in the leading part takes each row to a row of a child panel, with its columns mapped
by the symmetry that brings the new leading filling to its representative; a move in the trailing part
keeps the row and maps the columns. Each map is worked out once per panel, on first use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .classes import IDENTITY_ONLY, ClassLayout, Panel
from .parts import IndexArray


@dataclass(frozen=True)
class LeadMoves:
    """Where a move in the leading part takes each row of a panel: the child's row, and the key (symmetry
    * 256 + stabilizer) that says how its columns map; -1 where the cell is taken."""

    rows: IndexArray
    keys: IndexArray


class PanelMaps:
    """Where the moves from one panel's rows and columns lead, each worked out on first use."""

    def __init__(self, layout: ClassLayout, panel: Panel) -> None:
        self.layout, self.panel = layout, panel
        self._lead: dict[int, LeadMoves] = {}
        self._trail: dict[int, IndexArray] = {}
        self._columns: dict[tuple[int, int], IndexArray | None] = {}

    def lead(self, cell: int, digit: int) -> LeadMoves:
        found = self._lead.get(cell)
        if found is None:
            layout, rows = self.layout, self.panel.rows
            place = layout.lead.place(cell)
            empty = (rows // place) % 3 == 0
            child = rows + digit * place * empty
            stabilizer = layout.key_stabilizer[layout.row_key[child]]
            keys = layout.lead_symmetry[child].astype(np.int64) * 256 + stabilizer
            found = self._lead[cell] = LeadMoves(
                layout.row[child].astype(np.int64), np.where(empty, keys, -1)
            )
        return found

    def columns(self, g: int, h: int) -> IndexArray | None:
        """Where the columns go in a child panel of stabilizer `h` once the leading part is mapped by
        symmetry `g`; None when they stay (the identity, with nothing to fold)."""
        if (g, h) not in self._columns:
            panel = self.panel
            same = g == 0 and h == panel.stabilizer == IDENTITY_ONLY
            image = self.layout.trail_images[g][panel.cols]
            self._columns[(g, h)] = None if same else self.layout.trail_slots(h)[image]
        return self._columns[(g, h)]

    def trail(self, cell: int, digit: int) -> IndexArray:
        """For each column: its column in the child panel when `cell` is played, -1 where it is taken."""
        found = self._trail.get(cell)
        if found is None:
            cols = self.panel.cols
            place = self.layout.trail.place(cell)
            empty = (cols // place) % 3 == 0
            slots = self.layout.trail_slots(self.panel.stabilizer)[cols + digit * place * empty]
            found = self._trail[cell] = np.where(empty, slots, -1)
        return found
