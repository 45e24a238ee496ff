"""Rendered answers and the cache that keeps them, one cache per app (in the manner of flaskr's db.py).

A `Body` is one representation of a resource: its bytes, media type and strong ETag. Only a `lasting`
one (the same bytes for every later request: a table's answer) is kept, bounded by the bytes the cache
holds, and may be cached downstream; anything else is rendered for its request only.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from cachetools import LRUCache
from flask import Flask, current_app

EXTENSION = "sanmoku.bodies"


@dataclass(frozen=True)
class Body:
    data: bytes
    mimetype: str
    etag: str
    lasting: bool = True


def make_body(data: bytes, mimetype: str = "application/json", lasting: bool = True) -> Body:
    return Body(data, mimetype, hashlib.sha256(data).hexdigest()[:32], lasting)


class BodyCache:
    def __init__(self, max_bytes: int) -> None:
        # Bounded by the bytes it holds; cachetools' LRU is not thread-safe by itself.
        self._bodies: LRUCache[Hashable, Body] = LRUCache(maxsize=max_bytes, getsizeof=_body_size)
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Body | None:
        with self._lock:
            return self._bodies.get(key)

    def keep(self, key: Hashable, body: Body) -> Body:
        """`body`, kept under `key` if it is lasting."""
        if body.lasting:
            with self._lock:
                self._bodies[key] = body
        return body

    def body(self, key: Hashable, render: Callable[[], Body]) -> Body:
        """The cached body under `key`, rendered (and kept, if lasting) on a miss."""
        found = self.get(key)
        return found if found is not None else self.keep(key, render())

    def __len__(self) -> int:
        with self._lock:
            return len(self._bodies)

    def held_keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._bodies)

    def bytes_held(self) -> tuple[int, int]:
        """The bytes the cache holds, and the most it may."""
        with self._lock:
            return int(self._bodies.currsize), int(self._bodies.maxsize)


def _body_size(body: Body) -> int:
    return len(body.data) + 200  # the key and the objects around the bytes


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = BodyCache(app.config["BODY_CACHE_BYTES"])


def get_bodies() -> BodyCache:
    bodies: BodyCache = current_app.extensions[EXTENSION]
    return bodies
