"""Counting whole games, the engine's perft: it pins the rules to known numbers."""

from __future__ import annotations

from collections import Counter
from functools import cache

from .position import Position, Status


def count_games(start: Position) -> dict[str, int]:
    """Distinct move sequences from `start` to the end of the game, by final status."""
    totals = _count(start)
    return {
        "total": sum(totals.values()),
        **{s.value: totals.get(s.value, 0) for s in Status if s is not Status.IN_PROGRESS},
    }


@cache
def _count(position: Position) -> Counter[str]:
    if position.is_over:
        return Counter({position.status.value: 1})
    totals: Counter[str] = Counter()
    for cell in position.legal_moves():
        totals.update(_count(position.play(cell)))
    return totals
