"""A plain, bounded store of evaluated positions with its statistics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True)
class CacheStats:
    size: int
    capacity: int
    hits: int
    misses: int


class TranspositionTable(Generic[V]):
    """Maps a canonical position key to its value; forgets the oldest entry when full."""

    def __init__(self, capacity: int = 1_000_000) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be positive, not {capacity}")
        self.capacity = capacity
        self._entries: dict[int, V] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: int) -> V | None:
        value = self._entries.get(key)
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: int, value: V) -> None:
        if key not in self._entries and len(self._entries) >= self.capacity:
            del self._entries[next(iter(self._entries))]
        self._entries[key] = value

    def __len__(self) -> int:
        return len(self._entries)

    def stats(self) -> CacheStats:
        return CacheStats(len(self._entries), self.capacity, self.hits, self.misses)
