"""The solved tables and the cache of rendered bodies, one of each per app (in the manner of flaskr's db.py).

`init_app(app)` opens the table store of TABLES_DIR and starts building the tables named by
TABLES_AT_START that are not on disk yet; `get_tables()` gives views the `Tables`. A table of up to
SOLVE_IN_REQUEST_CELLS cells that is missing is solved within the request (milliseconds); a larger one
is built by a `sanmoku tables build` process in the background, one per host (the store's lock), and
until it is on disk its requests get TableNotReadyError (503 with Retry-After).
"""

from __future__ import annotations

import hashlib
import math
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from cachetools import LRUCache
from flask import Flask, current_app

from .engine import PRESETS, Table, TableStore, Variant, get_variant
from .table_commands import BACKGROUND_NICENESS

EXTENSION = "sanmoku.tables"
SOLVE_IN_REQUEST_CELLS = 12  # 3**12 bytes solve in about 20 ms
SECONDS_PER_ENTRY = 3.0 / 3**16  # a 4x4 table builds in about 2 s here; Retry-After rounds this up


class TableNotReadyError(Exception):
    """The variant's table is being built; ask again after `retry_after` seconds."""

    def __init__(self, variant: Variant, retry_after: int) -> None:
        super().__init__(f"the {variant.name} table is being built; ask again in {retry_after} s")
        self.variant, self.retry_after = variant, retry_after


@dataclass(frozen=True)
class Body:
    """One representation of a resource: its bytes, media type and strong ETag."""

    data: bytes
    mimetype: str
    etag: str


def make_body(data: bytes, mimetype: str = "application/json") -> Body:
    return Body(data, mimetype, hashlib.sha256(data).hexdigest()[:32])


class Tables:
    def __init__(
        self, store: TableStore, at_start: list[Variant], cache_bytes: int, background_builds: bool = True
    ) -> None:
        self.store = store
        self.at_start = at_start
        self.background_builds = background_builds
        # Bounded by the bytes it holds; cachetools' LRU is not thread-safe by itself.
        self._bodies: LRUCache[Hashable, Body] = LRUCache(maxsize=cache_bytes, getsizeof=_body_size)
        self._lock = threading.Lock()
        self._builders: dict[Variant, subprocess.Popen[bytes]] = {}

    def table(self, variant: Variant) -> Table:
        """The variant's table, solved now if it is small; TableNotReadyError while a large one is built."""
        table = self.ready_table(variant)
        if table is not None:
            return table
        if variant.cells <= SOLVE_IN_REQUEST_CELLS:
            return self.store.get(variant)
        self.build_in_background([variant], unusable=True)
        raise TableNotReadyError(variant, retry_after(variant))

    def ready_table(self, variant: Variant) -> Table | None:
        """The table if it is on disk and checks out, without building anything."""
        return self.store.opened(variant) or self.store.try_open(variant)

    def build_in_background(self, variants: Iterable[Variant], unusable: bool = False) -> None:
        """Start one builder process for those of `variants` nobody is building yet and that are not
        built; with `unusable` the caller found their files missing or bad already."""
        if not self.background_builds:
            return
        wanted = [
            v for v in variants if not self._being_built(v) and (unusable or not self.store.looks_built(v))
        ]
        if not wanted:
            return
        # Niced from its first instruction (its imports alone take a fifth of a second of processor),
        # so that a start with an empty directory answers as fast as one with the tables built.
        nice = ["nice", "-n", str(BACKGROUND_NICENESS)] if shutil.which("nice") else []
        command = [*nice, sys.executable, "-m", "service.cli", "tables", "build", "--background"]
        command += ["--dir", str(self.store.directory), *(v.long_name for v in wanted)]
        builder = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        for variant in wanted:
            self._builders[variant] = builder

    def _being_built(self, variant: Variant) -> bool:
        builder = self._builders.get(variant)
        return (builder is not None and builder.poll() is None) or self.store.is_building(variant)

    def body(self, key: Hashable, render: Callable[[], Body]) -> Body:
        """The cached body under `key`, rendered (and kept) on a miss. Only answers are kept."""
        with self._lock:
            found = self._bodies.get(key)
        if found is None:
            found = render()
            with self._lock:
                self._bodies[key] = found
        return found

    def cached_bodies(self) -> int:
        with self._lock:
            return len(self._bodies)

    def cached_keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._bodies)

    def cached_bytes(self) -> tuple[int, int]:
        """The bytes the body cache holds, and the most it may."""
        with self._lock:
            return int(self._bodies.currsize), int(self._bodies.maxsize)


def retry_after(variant: Variant) -> int:
    seconds: int = math.ceil(3**variant.cells * SECONDS_PER_ENTRY)
    return max(1, seconds)


def _body_size(body: Body) -> int:
    return len(body.data) + 200  # the key and the objects around the bytes


def variants_at_start(setting: str | list[str]) -> list[Variant]:
    """TABLES_AT_START: "presets", a comma-separated string of names, or a list of names."""
    if setting == "presets":
        return list(PRESETS)
    names = setting.split(",") if isinstance(setting, str) else setting
    return [get_variant(name.strip()) for name in names if name.strip()]


def init_app(app: Flask) -> None:
    store = TableStore(app.config["TABLES_DIR"])
    at_start = variants_at_start(app.config["TABLES_AT_START"])
    tables = Tables(store, at_start, app.config["BODY_CACHE_BYTES"], app.config["BACKGROUND_BUILDS"])
    app.extensions[EXTENSION] = tables
    # Only a glance at the files (their headers): checking them all would keep every start waiting.
    tables.build_in_background(v for v in tables.at_start if v.cells > SOLVE_IN_REQUEST_CELLS)


def get_tables() -> Tables:
    tables: Tables = current_app.extensions[EXTENSION]
    return tables
