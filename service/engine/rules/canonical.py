"""A position's canonical form: its image under the board's reflections and turns with the smallest pair
of masks (side to move, other side), and the symmetry that takes it there. Positions that are images of
each other have one form, so a store keyed by it holds each class once.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .geometry import Symmetry, geometry_of
from .masks import Permuter
from .variants import Variant


def canonical(variant: Variant, mover: int, other: int) -> tuple[Symmetry, tuple[int, int]]:
    """The symmetry that takes the position to its canonical form, and that form's masks."""
    best: tuple[Symmetry, tuple[int, int]] | None = None
    for symmetry, permute in point_permuters(variant):
        key = (permute(mover), permute(other))
        if best is None or key < best[1]:
            best = (symmetry, key)
    assert best is not None  # the identity is always a symmetry
    return best


@cache
def point_permuters(variant: Variant) -> tuple[tuple[Symmetry, Permuter], ...]:
    """The board's reflections and turns (identity first), each with its byte tables."""
    return tuple((s, Permuter.of(s)) for s in geometry_of(variant).point_symmetries)


def inverse(symmetry: Symmetry) -> Symmetry:
    back = [0] * len(symmetry)
    for cell, image in enumerate(symmetry):
        back[image] = cell
    return tuple(back)


def ready_shapes(variants: Iterable[Variant]) -> None:
    """Make the variants' shapes (lines, symmetries) and their keys' byte tables now, at a worker's start:
    made by the first request of a variant, within its budget, they took 0.2 s on 15x15 and Qubic."""
    for variant in variants:
        point_permuters(variant)
