"""The rank of one position in a class layout (`classes`), and of its children, fast: a table's lookup
ranks a position and every move from it, so these take plain Python lists where the arrays are short
(indexing one is about four times as fast as indexing numpy), and read a board mask ten cells at a time
through precomputed sums of place values. The vectorised ranking of arrays of positions reads the same
sums (`part_indices`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .parts import FIRST_DIGIT, SECOND_DIGIT, IndexArray, MaskArray

if TYPE_CHECKING:
    from .classes import ClassLayout

CHUNK_BITS = 10  # a board mask is read ten cells at a time (three lookups for up to 30 cells)
CHUNKS = 3
MAX_CELLS = CHUNK_BITS * CHUNKS
LIST_LIMIT = 3**12  # arrays up to this long are Python lists for lookups (faster), longer ones memoryviews


class ClassLookup:
    """A class layout's arrays in the form a single lookup reads fastest."""

    def __init__(self, layout: ClassLayout) -> None:
        self._row_key, self._row = _fast(layout.row_key), _fast(layout.row)
        self._symmetry = _fast(layout.lead_symmetry)
        self._trail_image = [_fast(image) for image in layout.trail_images]
        self._trail_group = _fast(layout.trail.group_id.astype(np.int32))
        self._key_offsets: list[list[int]] = layout.key_offsets.tolist()
        stabilizer_of = [h for _, h in layout.keys]
        slots = {h: _fast(layout.trail_slots(h)) for h in layout.stabilizers}  # shared by its keys
        self._key_slots = [slots[h] for h in stabilizer_of]
        self._key_widths = [layout.widths[h] for h in stabilizer_of]
        self._trail_size = 3**layout.trail.length
        packed = [np.zeros(1 << CHUNK_BITS, dtype=np.int64) for _ in range(CHUNKS)]
        for part, scale in ((layout.lead, self._trail_size), (layout.trail, 1)):
            for cell in part.cells:
                chunk, bit = divmod(cell, CHUNK_BITS)
                packed[chunk] += ((np.arange(1 << CHUNK_BITS) >> bit) & 1) * part.place(cell) * scale
        self._packed = [p.tolist() for p in packed]
        self._packed_arrays = packed
        lead, trail = layout.lead, layout.trail
        self._steps = {
            digit: tuple(
                digit * (lead.place(c) * self._trail_size if c in lead.cells else trail.place(c))
                for c in range(layout.cells)
            )
            for digit in (FIRST_DIGIT, SECOND_DIGIT)
        }

    def _packed_index(self, first: int, second: int) -> int:
        """The leading part index times 3**(trailing cells), plus the trailing part index."""
        p0, p1, p2 = self._packed
        return (
            FIRST_DIGIT * (p0[first & 1023] + p1[(first >> 10) & 1023] + p2[first >> 20])
            + p0[second & 1023]
            + p1[(second >> 10) & 1023]
            + p2[second >> 20]
        )

    def _rank_of_parts(self, lead: int, trail: int) -> int:
        key = self._row_key[lead]
        group = self._trail_group[trail]
        column = self._key_slots[key][self._trail_image[self._symmetry[lead]][trail]]
        rank: int = self._key_offsets[key][group] + self._row[lead] * self._key_widths[key][group] + column
        return rank

    def rank(self, first: int, second: int) -> int:
        return self._rank_of_parts(*divmod(self._packed_index(first, second), self._trail_size))

    def with_children(self, first: int, second: int, cells: list[int], digit: int) -> tuple[int, list[int]]:
        packed = self._packed_index(first, second)
        size = self._trail_size
        lead, trail = divmod(packed, size)
        key, row = self._row_key[lead], self._row[lead]
        offsets, widths, slots = self._key_offsets[key], self._key_widths[key], self._key_slots[key]
        image = self._trail_image[self._symmetry[lead]]
        trail_group, rank_of_parts, steps = self._trail_group, self._rank_of_parts, self._steps[digit]
        children = []
        for cell in cells:
            step = steps[cell]
            if step >= size:  # a move in the leading part
                children.append(rank_of_parts(lead + step // size, trail))
            else:
                child = trail + step
                group = trail_group[child]
                children.append(offsets[group] + row * widths[group] + slots[image[child]])
        return offsets[trail_group[trail]] + row * widths[trail_group[trail]] + slots[image[trail]], children

    def part_indices(self, first: MaskArray, second: MaskArray) -> tuple[IndexArray, IndexArray]:
        total = np.zeros(len(first), dtype=np.int64)
        for chunk, packed in enumerate(self._packed_arrays):
            shift = np.uint32(chunk * CHUNK_BITS)
            total += FIRST_DIGIT * packed[(first >> shift) & np.uint32(1023)]
            total += packed[(second >> shift) & np.uint32(1023)]
        lead, trail = np.divmod(total, self._trail_size)
        return lead, trail


def _fast(array: Any) -> Any:
    """A list where it is short enough (indexing one is about four times as fast), else a memoryview."""
    return array.tolist() if len(array) <= LIST_LIMIT else np.ascontiguousarray(array, np.int32).data
