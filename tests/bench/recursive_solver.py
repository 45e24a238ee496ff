"""The solver the service had before its tables, kept as the build benchmark's baseline.

An exact negamax over position bitmasks that keeps every value in a dictionary keyed by the position
reduced over the board's symmetries. Run: python -m tests.bench.recursive_solver VARIANT
"""

from __future__ import annotations

import sys
import time

from service.engine import Value, geometry_of, get_variant
from service.engine.geometry import Geometry


class RecursiveSolver:
    def __init__(self, geometry: Geometry, misere: bool) -> None:
        self.geometry = geometry
        self.line_made = Value(1, 0) if misere else Value(-1, 0)
        self.values: dict[int, Value] = {}
        # every mask's image under every symmetry, built from the mask without its lowest bit
        self.images = [self._image_table(s) for s in geometry.symmetries]

    def _image_table(self, symmetry: tuple[int, ...]) -> list[int]:
        table = [0] * (1 << len(symmetry))
        for mask in range(1, len(table)):
            low = mask & -mask
            table[mask] = table[mask ^ low] | (1 << symmetry[low.bit_length() - 1])
        return table

    def key(self, mine: int, theirs: int) -> int:
        shift = self.geometry.cells
        return min((image[mine] << shift) | image[theirs] for image in self.images)

    def value(self, mine: int, theirs: int) -> Value:
        key = self.key(mine, theirs)
        known = self.values.get(key)
        if known is None:
            known = self.values[key] = self.search(mine, theirs)
        return known

    def search(self, mine: int, theirs: int) -> Value:
        geometry = self.geometry
        if geometry.holds_line(theirs):
            return self.line_made
        empty = geometry.full & ~(mine | theirs)
        if not empty:
            return Value(0, 0)
        best: Value | None = None
        while empty:
            bit = empty & -empty
            empty ^= bit
            candidate = self.value(theirs, mine | bit).after_move()
            if best is None or candidate.preference() < best.preference():
                best = candidate
        assert best is not None
        return best


def main() -> None:
    variant = get_variant(sys.argv[1] if len(sys.argv) > 1 else "4x4k4")
    sys.setrecursionlimit(10_000)
    started = time.perf_counter()
    solver = RecursiveSolver(geometry_of(variant), variant.misere)
    value = solver.value(0, 0)
    print(f"{variant.name}: {value} in {time.perf_counter() - started:.2f} s, {len(solver.values):,} classes")


if __name__ == "__main__":
    main()
