"""Rendered answers and the bodies kept to send again, one KeptBodies per app (in the manner of flaskr's
db.py).

A `Body` is one representation of a resource: its bytes, media type and strong ETag. A `final` one
holds only proven values (a table's, a book's, the proven store's, a search's that proved every move):
they never change, so caches downstream may keep it. Only a `lasting` one (the same bytes for every
later request: a table's answer) is kept here as well, bounded by the bytes kept; a final search's
answer is not, since its bytes say what that search spent. Anything else is rendered for its request
only and kept by no one.

A body rendered from a table remembers which (`made_from`): once the variant's table is another (its
file was replaced, as the documented repair of a damaged table does, and the store opened the new one),
every body made from the old one is dropped, never sent again.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from cachetools import LRUCache
from flask import Flask, current_app

from ..engine import Table, Variant
from ..serving.sources import SUPPLY

EXTENSION = "sanmoku.bodies"
TableNow = Callable[[Variant], Table | None]  # the variant's open table now (its file looked at again)


@dataclass(frozen=True)
class MadeFrom:
    """The table a body was rendered from (not kept alive by it)."""

    variant: Variant
    table: weakref.ref[Table]

    @classmethod
    def of(cls, table: Table) -> MadeFrom:
        return cls(table.variant, weakref.ref(table))

    def current(self, table_now: TableNow) -> bool:
        """Whether the table is still the variant's: one solved in memory always is."""
        table = self.table()
        return table is not None and (table.path is None or table_now(self.variant) is table)


@dataclass(frozen=True)
class Body:
    data: bytes
    mimetype: str
    etag: str
    lasting: bool = True  # the same bytes answer every later request: kept here
    made_from: MadeFrom | None = None
    final: bool = True  # proven values only: cacheable downstream (every lasting body is final)


def make_body(
    data: bytes,
    mimetype: str = "application/json",
    lasting: bool = True,
    table: Table | None = None,
    final: bool | None = None,
) -> Body:
    """`final` None: as `lasting`."""
    made_from = None if table is None else MadeFrom.of(table)
    etag = hashlib.sha256(data).hexdigest()[:32]
    return Body(data, mimetype, etag, lasting, made_from, lasting if final is None else final)


class KeptBodies:
    def __init__(self, max_bytes: int, table_now: TableNow = lambda variant: None) -> None:
        # Bounded by the bytes it holds; cachetools' LRU is not thread-safe by itself.
        self._bodies: LRUCache[Hashable, Body] = LRUCache(maxsize=max_bytes, getsizeof=_body_size)
        self._lock = threading.Lock()
        self._table_now = table_now

    def get(self, key: Hashable) -> Body | None:
        with self._lock:
            body = self._bodies.get(key)
        if body is None or body.made_from is None or body.made_from.current(self._table_now):
            return body
        self._drop_made_from(body.made_from.variant)
        return None

    def _drop_made_from(self, variant: Variant) -> None:
        """Every body made from a table of `variant` that is not the variant's any more."""
        with self._lock:
            stale = [
                key
                for key, body in self._bodies.items()
                if body.made_from is not None
                and body.made_from.variant == variant
                and not body.made_from.current(self._table_now)
            ]
            for key in stale:
                del self._bodies[key]

    def keep(self, key: Hashable, body: Body) -> Body:
        """`body`, kept under `key` if it is lasting and fits (a body larger than the whole bound, or
        any body when the bound is 0 bytes, is sent without being kept)."""
        if body.lasting and _body_size(body) <= self._bodies.maxsize:
            with self._lock:
                self._bodies[key] = body
        return body

    def body(self, key: Hashable, render: Callable[[], Body]) -> Body:
        """The kept body under `key`, rendered (and kept, if lasting) on a miss."""
        found = self.get(key)
        return found if found is not None else self.keep(key, render())

    def __len__(self) -> int:
        with self._lock:
            return len(self._bodies)

    def held_keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._bodies)

    def bytes_held(self) -> tuple[int, int]:
        """The bytes kept, and the most that may be."""
        with self._lock:
            return int(self._bodies.currsize), int(self._bodies.maxsize)


def _body_size(body: Body) -> int:
    return len(body.data) + 200  # the key and the objects around the bytes


def init_app(app: Flask) -> None:
    """After the sources (serving.sources.init_app): the kept bodies ask their store which table is
    open."""
    app.extensions[EXTENSION] = KeptBodies(
        app.config["KEPT_BODIES_BYTES"], app.extensions[SUPPLY].store.opened
    )


def get_bodies() -> KeptBodies:
    bodies: KeptBodies = current_app.extensions[EXTENSION]
    return bodies
