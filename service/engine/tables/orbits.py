"""How a board's symmetries act on its cells, for the tables that keep one entry per class of positions
(`classes`): the group a table folds, the board's split into two parts made of whole orbits, each part's
images under the group, and the counts of classes, per tier (by Burnside's lemma, without a layout) and
per panel of a built layout (each entry standing for its orbit's positions).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..rules.geometry import Symmetry, geometry_of
from ..rules.variants import Variant
from .parts import IndexArray, Part

if TYPE_CHECKING:
    from .classes import ClassLayout, Panel

COUNT_ENTRIES = 1 << 22  # entries counted at once by `positions_in_tier`


def reduction_group(variant: Variant, reduce: bool = True) -> tuple[Symmetry, ...]:
    """The symmetries a table folds: the rectangle's reflections and turns that keep the game (under
    gravity the mirror alone). A torus's translations move every cell, so no two parts are each kept by
    them: they are not folded. Without `reduce`, the identity alone (the ranked layout)."""
    symmetries = geometry_of(variant).point_symmetries
    return symmetries if reduce else symmetries[:1]


def split(cells: int, group: tuple[Symmetry, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The leading and trailing parts: unions of orbits, the leading one as near half the board as the
    orbits allow without passing it (the first cells//2 cells when the group is the identity alone)."""
    orbits = sorted({frozenset(g[c] for g in group) for c in range(cells)}, key=min)
    chosen: dict[int, tuple[int, ...]] = {0: ()}  # cells in the leading part -> the orbits chosen
    for number, orbit in enumerate(orbits):
        for total, picked in list(chosen.items()):
            chosen.setdefault(total + len(orbit), (*picked, number))
    size = max(total for total in chosen if total <= cells // 2)
    lead = sorted(c for number in chosen[size] for c in orbits[number])
    return tuple(lead), tuple(c for c in range(cells) if c not in lead)


def images(part: Part, group: tuple[Symmetry, ...]) -> IndexArray:
    """(group member, part index) -> the part index of the filling's image (int32)."""
    size = 3**part.length
    index = np.arange(size, dtype=np.int32)
    out = np.zeros((len(group), size), dtype=np.int32)
    for cell in part.cells:
        digit = (index // part.place(cell)) % 3
        for number, symmetry in enumerate(group):
            out[number] += digit * part.place(symmetry[cell])
    return out


@cache
def class_counts(variant: Variant, reduce: bool = True) -> tuple[int, ...]:
    """The entries of each tier of the variant's table without building its layout (a plan's figures):
    by Burnside's lemma, a tier's classes are the mean over the group of the positions each symmetry
    keeps, and a symmetry keeps a position when each of its cycles of cells is empty or one side's."""
    cells = variant.cells
    totals = [0] * (cells + 1)
    group = reduction_group(variant, reduce)
    for symmetry in group:
        cycles = _cycle_lengths(symmetry)
        kept = {(0, 0): 1}  # (first player's marks, second's) -> fillings of the cycles so far
        for length in cycles:
            grown: dict[tuple[int, int], int] = {}
            for (x, o), ways in kept.items():
                for key in ((x, o), (x + length, o), (x, o + length)):
                    grown[key] = grown.get(key, 0) + ways
            kept = grown
        for tier in range(cells + 1):
            totals[tier] += kept.get(((tier + 1) // 2, tier // 2), 0)
    return tuple(total // len(group) for total in totals)


def _cycle_lengths(symmetry: Symmetry) -> list[int]:
    seen, lengths = set(), []
    for start in range(len(symmetry)):
        length, cell = 0, start
        while cell not in seen:
            seen.add(cell)
            cell, length = symmetry[cell], length + 1
        if length:
            lengths.append(length)
    return lengths


def orbit_sizes(layout: ClassLayout, panel: Panel) -> IndexArray:
    """For each column of the panel: how many positions each of its entries stands for (the group's
    size over that of the symmetries that keep the position: those of the stabilizer that keep the
    trailing filling)."""
    kept = np.zeros(len(panel.cols), dtype=np.int64)
    for g in range(len(layout.group)):
        if panel.stabilizer >> g & 1:
            kept += layout.trail_images[g][panel.cols] == panel.cols
    sizes: IndexArray = len(layout.group) // kept
    return sizes


def positions_in_tier(layout: ClassLayout, tier: int, values: npt.NDArray[np.uint8]) -> int:
    """How many positions the tier's nonzero entries stand for (`values`: the tier's bytes)."""
    total = 0
    for panel in layout.tiers[tier]:
        begin = panel.offset - layout.tier_offset[tier]
        grid = values[begin : begin + panel.size].reshape(len(panel.rows), len(panel.cols))
        held = np.zeros(len(panel.cols), dtype=np.int64)
        step = max(1, COUNT_ENTRIES // len(panel.cols))  # a 5x5 panel is gigabytes: a few rows at once
        for start in range(0, len(panel.rows), step):
            held += np.count_nonzero(grid[start : start + step], axis=0)
        total += int(held @ orbit_sizes(layout, panel))
    return total
