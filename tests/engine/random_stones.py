"""Random boards of two sides' stones, for the tests that read shapes on them (renju, fours)."""

from __future__ import annotations

import random


def random_stones(
    rng: random.Random, cells: int, first: tuple[float, float], second: tuple[float, float]
) -> tuple[int, int]:
    """Two sides' stones, disjoint, on `cells` cells: each side's share of them drawn from its range
    (low, high), then each cell drawn in turn."""
    first_share, second_share = rng.uniform(*first), rng.uniform(*second)
    mine = theirs = 0
    for cell in range(cells):
        draw = rng.random()
        if draw < first_share:
            mine |= 1 << cell
        elif draw < first_share + second_share:
            theirs |= 1 << cell
    return mine, theirs
