"""What the analyst asks of a store of proven positions, and which store a service uses: the SQLite
file beside the tables (`proven`, one host's) by default, or a Redis database many hosts share
(`proven_redis`) when SANMOKU_STORE_URL names one.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ..rules.known_move import KnownMove
from ..rules.position import Position
from .proven import DEFAULT_MAX_BYTES, ProvenCache
from .proven_file import Health
from .proven_record import Origin, Record
from .proven_upkeep import Starter, start_thread


class ProvenStore(Protocol):
    """A cache of proven positions: it never raises for its own sake (a miss, a write not made), and
    `health` says how it can be used."""

    @property
    def health(self) -> Health: ...

    def open(self) -> Health: ...

    def get(self, position: Position) -> Record | None: ...

    def put(self, position: Position, moves: Sequence[KnownMove], origin: Origin) -> None: ...

    def drop(self, position: Position) -> None: ...

    def close(self) -> None: ...


def open_proven_store(
    directory: Path,
    url: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    start_trim: Starter = start_thread,
) -> ProvenStore:
    """The store at `url` (redis://host:port/db) when given, else the tables directory's own file,
    bounded by `max_bytes` (the Redis database keeps to its own bound). ValueError for a URL that names
    no Redis database: a service started so fails at once, rather than proving everything again."""
    if not url:
        return ProvenCache(directory, max_bytes, start_trim=start_trim)
    from .proven_redis import SharedProvenStore  # redis is imported only by a service that uses it

    return SharedProvenStore(url)
