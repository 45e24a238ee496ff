"""The layout of format-3 tables: one entry per class of positions under the board's symmetries.

The board is split into a leading and a trailing part that every symmetry of the reduction group maps
onto themselves (each part a union of the cells' orbits: on 5x5 the twelve cells of three orbits of four,
and the thirteen others), so a symmetry acts on each part alone and a position's class is found part by
part, in O(cells):

- the leading part's filling is replaced by its *representative*, the smallest part index among its
  images, through the symmetry `g` that takes it there (the first such, in the group's order);
- the trailing part is mapped by the same `g`; if the representative is kept by a larger subgroup H (its
  *stabilizer*: an empty leading part is kept by all of them), the trailing filling is replaced by its
  smallest image under H.

The pair (representative, trailing filling canonical under H) names the class: two positions are images
of each other exactly when they name the same pair. Entries are ranked as in the ranked layout (`layout`),
tier by tier and block by block (a block: the leading part's counts and the trailing part's), with each
block cut into *panels*, one per stabilizer (the identity alone first): a panel's rows are the leading
representatives with that stabilizer, its columns the trailing fillings of the block's group that are
canonical under it, each in ascending part index:

    rank = panel offset + row * panel width + column

A move in the trailing part keeps the row and maps the columns (one map per panel and cell); a move in
the leading part leads to the row of the new filling's representative, with the columns mapped by its
symmetry: the solver still works on whole rows and columns (see `solver`). With the identity alone as
the group this is the ranked layout of format 2, entry for entry.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ..rules.variants import Variant
from .class_lookup import MAX_CELLS, ClassLookup
from .orbits import images, reduction_group, split
from .parts import Group, IndexArray, MaskArray, distinct, part_of

IDENTITY_ONLY = 1  # a subgroup as a set of the group's members, bit i for member i: the identity is 0
SlotArray = npt.NDArray[np.int32]  # a trailing index -> its column in a panel


@dataclass(frozen=True)
class Panel:
    """The entries of one block whose leading representative has one stabilizer."""

    tier: int
    lead_group: Group
    stabilizer: int
    trail_group: Group
    offset: int  # rank of its first entry
    rows: IndexArray  # leading part indices (representatives)
    cols: IndexArray  # trailing part indices (canonical under the stabilizer)

    @property
    def size(self) -> int:
        return len(self.rows) * len(self.cols)

    @property
    def first_to_move(self) -> bool:
        return self.tier % 2 == 0


class ClassLayout:
    """The ranking of a variant's classes of positions with legal counts (see the module's text)."""

    def __init__(self, variant: Variant, reduce: bool = True) -> None:
        if variant.cells > MAX_CELLS:
            raise ValueError(f"a class layout holds boards of at most {MAX_CELLS} cells")
        self.variant, self.cells = variant, variant.cells
        self.group = reduction_group(variant, reduce)
        lead_cells, trail_cells = split(variant.cells, self.group)
        self.lead, self.trail = part_of(lead_cells), part_of(trail_cells)
        self.lead_images, self.trail_images = images(self.lead, self.group), images(self.trail, self.group)
        self.lead_rep = self.lead_images.min(axis=0)
        self.lead_symmetry = self.lead_images.argmin(axis=0).astype(np.int32)
        own = np.arange(3**self.lead.length, dtype=np.int32)
        stabilizer = sum((self.lead_images[g] == own).astype(np.int32) << g for g in range(len(self.group)))
        self.stabilizers = tuple(distinct(stabilizer[self.lead_rep]))
        self._trail_canon = {h: self._canonical_slots(h) for h in self.stabilizers}
        self._rows: dict[tuple[Group, int], IndexArray] = {}
        self._cols: dict[tuple[int, Group], IndexArray] = {}
        rep_stabilizer = stabilizer[self.lead_rep]
        self.row_key = np.zeros(len(own), dtype=np.int32)  # leading index -> its representative's key
        self.row = np.zeros(len(own), dtype=np.int32)  # -> that representative's row in its panels
        self.keys: list[tuple[Group, int]] = []  # (leading group, stabilizer) of each key number
        for group_key in self.lead.keys:
            members = self.lead.groups[group_key]
            for h in self.stabilizers:
                rows = members[(self.lead_rep[members] == members) & (stabilizer[members] == h)]
                if len(rows):
                    self._rows[(group_key, h)] = rows
                    key = len(self.keys)
                    self.keys.append((group_key, h))
                    chosen = members[rep_stabilizer[members] == h]
                    self.row_key[chosen] = key
                    self.row[chosen] = np.searchsorted(rows, self.lead_rep[chosen])
        self.key_stabilizer = np.array([h for _, h in self.keys], dtype=np.int64)
        self._lay_out()
        self._lookup = ClassLookup(self)

    def _canonical_slots(self, h: int) -> tuple[SlotArray, dict[Group, IndexArray]]:
        """For the subgroup `h`: each trailing index's slot (that of its smallest image under h, among
        the canonical fillings of its group), and each group's canonical fillings."""
        members = [g for g in range(len(self.group)) if h >> g & 1]
        canon = self.trail_images[members].min(axis=0)
        slot = np.empty(len(canon), dtype=np.int32)
        cols: dict[Group, IndexArray] = {}
        for key in self.trail.keys:
            group = self.trail.groups[key]
            cols[key] = group[canon[group] == group]
            place = np.full(len(canon), -1, dtype=np.int64)
            place[cols[key]] = np.arange(len(cols[key]))
            slot[group] = place[canon[group]]
        return slot, cols

    def _lay_out(self) -> None:
        tiers: list[tuple[Panel, ...]] = []
        self.tier_offset = [0]
        trail_id = {key: i for i, key in enumerate(self.trail.keys)}
        self.key_offsets = np.full((len(self.keys), len(trail_id)), -1, dtype=np.int64)
        self.widths = {
            h: [len(self._trail_canon[h][1][key]) for key in self.trail.keys] for h in self.stabilizers
        }
        key_of = {pair: number for number, pair in enumerate(self.keys)}
        offset = 0
        for tier in range(self.cells + 1):
            first, second = (tier + 1) // 2, tier // 2
            found = []
            for lead_group in self.lead.keys:
                trail_group = (first - lead_group[0], second - lead_group[1])
                if trail_group not in self.trail.groups:
                    continue
                for h in self.stabilizers:
                    rows = self._rows.get((lead_group, h))
                    if rows is None:
                        continue
                    cols = self._trail_canon[h][1][trail_group]
                    found.append(Panel(tier, lead_group, h, trail_group, offset, rows, cols))
                    self.key_offsets[key_of[(lead_group, h)], trail_id[trail_group]] = offset
                    offset += len(rows) * len(cols)
            tiers.append(tuple(found))
            self.tier_offset.append(offset)
        self.tiers = tuple(tiers)
        self.size = offset
        self.panel_at = {(p.tier, p.lead_group, p.stabilizer): p for p in self.panels()}

    def digest(self) -> str:
        """A fingerprint of the ranking (parts, group, panels): a stopped build goes on only with its own."""
        digest = hashlib.sha256(repr((self.lead.cells, self.trail.cells, self.group, self.keys)).encode())
        digest.update(self.key_offsets.tobytes())
        return digest.hexdigest()[:16]

    def panels(self) -> list[Panel]:
        return [panel for panels in self.tiers for panel in panels]

    def tier_size(self, tier: int) -> int:
        return self.tier_offset[tier + 1] - self.tier_offset[tier]

    def trail_slots(self, h: int) -> SlotArray:
        """Each trailing index's column in the panels of stabilizer `h`."""
        return self._trail_canon[h][0]

    def rank(self, first: int, second: int) -> int:
        """The rank of the class of the position where the first player holds `first`, the other `second`."""
        return self._lookup.rank(first, second)

    def with_children(self, first: int, second: int, cells: list[int], digit: int) -> tuple[int, list[int]]:
        """The position's rank, and the rank of each child where the side with `digit` plays one of
        `cells` (all empty), in the order of `cells`: as `Layout.with_children`."""
        return self._lookup.with_children(first, second, cells, digit)

    def part_indices(self, first: MaskArray, second: MaskArray) -> tuple[IndexArray, IndexArray]:
        """The leading and trailing part indices of arrays of positions."""
        return self._lookup.part_indices(first, second)

    def ranks(self, first: MaskArray, second: MaskArray) -> IndexArray:
        """`rank` for arrays of positions with legal counts."""
        lead, trail = self.part_indices(first, second)
        key = self.row_key[lead]
        image = self.trail_images[self.lead_symmetry[lead], trail]
        group = self.trail.group_id[trail]
        columns = np.empty(len(lead), dtype=np.int64)
        widths = np.empty(len(lead), dtype=np.int64)
        # By stabilizer, not by key: the keys are many (66 on 4x5), the stabilizers few (one without
        # symmetry), and each pass reads every position: folding a 4x5 gravity table took 13 s here.
        stabilizer = self.key_stabilizer[key] if len(self.stabilizers) > 1 else None
        for h in self.stabilizers:
            chosen = slice(None) if stabilizer is None else stabilizer == h
            columns[chosen] = self._trail_canon[h][0][image[chosen]]
            widths[chosen] = np.asarray(self.widths[h])[group[chosen]]
        ranks: IndexArray = self.key_offsets[key, group] + self.row[lead] * widths + columns
        return ranks

    def entries(self, panel: Panel, start: int = 0, stop: int | None = None) -> tuple[MaskArray, MaskArray]:
        """Both sides' cells of rows `start` to `stop` of a panel's entries, row by row."""
        rows = panel.rows[start:stop]
        first = self.lead.first[rows][:, None] | self.trail.first[panel.cols][None, :]
        second = self.lead.second[rows][:, None] | self.trail.second[panel.cols][None, :]
        return first.ravel(), second.ravel()


def class_layout_of(variant: Variant, reduce: bool = True) -> ClassLayout:
    """The layout of the variant's format-3 table (with `reduce` off: of its ranked table): one object
    per variant and flag, however the flag is passed (functools.cache keys `(v,)`, `(v, True)` and
    `(v, reduce=True)` apart: a build and the table it opened made two, 7 ms on a 3x3 first answer)."""
    return _class_layout(variant, reduce)


@cache
def _class_layout(variant: Variant, reduce: bool) -> ClassLayout:
    return ClassLayout(variant, reduce)
