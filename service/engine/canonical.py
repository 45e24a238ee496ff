"""A position's canonical form: its image under the board's reflections and turns with the smallest pair
of masks (side to move, other side), and the symmetry that takes it there. Positions that are images of
each other have one form, so a store keyed by it holds each class once.
"""

from __future__ import annotations

from functools import cache

from .geometry import Symmetry, geometry_of
from .variants import Variant


def canonical(variant: Variant, mover: int, other: int) -> tuple[Symmetry, tuple[int, int]]:
    """The symmetry that takes the position to its canonical form, and that form's masks."""
    best: tuple[Symmetry, tuple[int, int]] | None = None
    for symmetry, permute in _permuters(variant):
        key = (permute(mover), permute(other))
        if best is None or key < best[1]:
            best = (symmetry, key)
    assert best is not None  # the identity is always a symmetry
    return best


@cache
def _permuters(variant: Variant) -> tuple[tuple[Symmetry, _Permuter], ...]:
    return tuple((s, _Permuter(s)) for s in geometry_of(variant).point_symmetries)


class _Permuter:
    """A symmetry applied to a mask a byte at a time: eight table reads, not a loop over the cells."""

    def __init__(self, symmetry: Symmetry) -> None:
        cells = len(symmetry)
        self.tables = [
            [
                sum(1 << symmetry[base + bit] for bit in range(min(8, cells - base)) if value >> bit & 1)
                for value in range(256)
            ]
            for base in range(0, cells, 8)
        ]

    def __call__(self, mask: int) -> int:
        out = 0
        for table in self.tables:
            out |= table[mask & 255]
            mask >>= 8
        return out


def inverse(symmetry: Symmetry) -> Symmetry:
    back = [0] * len(symmetry)
    for cell, image in enumerate(symmetry):
        back[image] = cell
    return tuple(back)
