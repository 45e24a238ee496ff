"""The solved tables and the cache of rendered bodies, one of each per app (in the manner of flaskr's db.py).

`init_app(app)` opens the table store of TABLES_DIR and queues the tables named by TABLES_AT_START that
are not on disk yet; `get_tables()` gives views the `Tables`. A table of up to SOLVE_IN_REQUEST_CELLS
cells that is missing is solved within the request (milliseconds). A larger one of up to
BACKGROUND_BUILD_CELLS cells (or named by TABLES_AT_START) is queued for the host's one background
builder (`sanmoku tables build --queue`), and its requests get TableNotReadyError (503 with
Retry-After and the reason) until it is on disk; a larger one still takes minutes and gigabytes and is
built only by an operator (`sanmoku tables build NAME`): TableNotBuiltError until then.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from cachetools import LRUCache
from flask import Flask, current_app

from ..cli.table_commands import BACKGROUND_NICENESS
from ..engine import PRESETS, BuildQueue, Table, TableStore, Variant, get_variant
from ..engine.tables.build_plan import plan
from ..http.table_errors import TableNotBuiltError, TableNotReadyError

EXTENSION = "sanmoku.tables"
SOLVE_IN_REQUEST_CELLS = 12  # a 12-cell table solves in about 20 ms
BACKGROUND_BUILD_CELLS = 16  # by default: a 16-cell table builds in a second, 20 cells take 10 s and 750 MB
SPAWN_INTERVAL = 2.0  # seconds between two attempts of one process to start a builder

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Body:
    """One representation of a resource: its bytes, media type and strong ETag. Only a `lasting` one
    (the same bytes for every later request: a table's answer) is kept and may be cached downstream."""

    data: bytes
    mimetype: str
    etag: str
    lasting: bool = True


def make_body(data: bytes, mimetype: str = "application/json", lasting: bool = True) -> Body:
    return Body(data, mimetype, hashlib.sha256(data).hexdigest()[:32], lasting)


class Tables:
    def __init__(
        self,
        store: TableStore,
        at_start: list[Variant],
        cache_bytes: int,
        background_builds: bool = True,
        background_build_cells: int = BACKGROUND_BUILD_CELLS,
    ) -> None:
        self.store = store
        self.queue = BuildQueue(store.directory)
        self.at_start = at_start
        self.background_builds = background_builds
        self.background_build_cells = background_build_cells
        # Bounded by the bytes it holds; cachetools' LRU is not thread-safe by itself.
        self._bodies: LRUCache[Hashable, Body] = LRUCache(maxsize=cache_bytes, getsizeof=_body_size)
        self._lock = threading.Lock()
        self._builder: subprocess.Popen[bytes] | None = None
        self._last_spawn = -SPAWN_INTERVAL

    def table(self, variant: Variant) -> Table:
        """The variant's table, solved now if it is small; TableNotReadyError while a larger one waits for
        the builder, TableNotBuiltError if it is too large to build on request."""
        table = self.ready_table(variant)
        if table is not None:
            return table
        if variant.cells <= SOLVE_IN_REQUEST_CELLS:
            return self._small(variant, self.store.unbuildable(variant))
        # A larger one goes to the builder unless no file can be written here at all (a directory in
        # its file's place fails its build at once, which the queue reports and retries later).
        if self.store.unwritable() is not None:
            why = f"which cannot build it here, as {self.store.unbuildable(variant)}"
        elif not self.builds_on_request(variant):
            why = (
                f"which builds tables of more than {self.background_build_cells} cells only when told to"
                if self.background_builds
                else "which builds no table on request"
            )
        else:
            self.request_builds([variant])
            try:
                waiting = self.queue.waiting(variant)
            except OSError as error:  # the queue's files cannot be written or read here
                why = f"which cannot queue its build: {error}"
            else:
                raise TableNotReadyError(variant, waiting.reason, waiting.retry_after)
        raise TableNotBuiltError(variant, plan(variant, self.store.directory), why)

    def _small(self, variant: Variant, unbuildable: str | None) -> Table:
        """A small table from its file, built now if missing; solved in memory where no file can be."""
        if unbuildable is None:
            try:
                return self.store.get(variant)
            except OSError as error:
                unbuildable = f"its build failed: {error}"
        return self.store.in_memory(variant, unbuildable)

    def available(self, variant: Variant) -> Table | None:
        """The table that answers the variant now, if any: on disk, or solved now if small. A larger
        one that is missing is queued for the builder (where it builds on request): None meanwhile, and
        the search answers."""
        if not variant.has_table:
            return None
        table = self.ready_table(variant)
        if table is None and variant.cells <= SOLVE_IN_REQUEST_CELLS:
            return self._small(variant, self.store.unbuildable(variant))
        if table is None and self.store.unwritable() is None:
            with contextlib.suppress(OSError):  # the queue cannot be written: the search answers anyway
                self.request_builds([variant])
        return table

    def ready_table(self, variant: Variant) -> Table | None:
        """The table if it is on disk and checks out, without building anything."""
        return self.store.opened(variant) or self.store.try_open(variant)

    def builds_on_request(self, variant: Variant) -> bool:
        return self.background_builds and (
            variant.cells <= self.background_build_cells or variant in self.at_start
        )

    def request_builds(self, variants: Iterable[Variant]) -> None:
        """Queue the tables not on disk yet and start the host's builder unless one runs (or one was
        started by this process a moment ago)."""
        wanted = [v for v in variants if self.builds_on_request(v) and not self.store.looks_built(v)]
        if not wanted or self.store.unwritable():  # nothing to queue, or no queue to write to
            return
        try:
            for variant in wanted:
                self.queue.add(variant)
            due, running = self.queue.next_due(), self.queue.builder_running()
        except OSError as error:  # the queue cannot be written here: the 503s say so (see table())
            log.warning("tables cannot be queued for building: %s", error)
            return
        now = time.monotonic()
        if due is None or now - self._last_spawn < SPAWN_INTERVAL or self._builder_alive() or running:
            return
        self._last_spawn = now
        # Niced from its first instruction (its imports alone take a fifth of a second of processor),
        # so that a start with an empty directory answers as fast as one with the tables built.
        nice = ["nice", "-n", str(BACKGROUND_NICENESS)] if shutil.which("nice") else []
        command = [*nice, sys.executable, "-m", "service.cli.main", "tables", "build", "--queue"]
        command += ["--dir", str(self.store.directory)]
        self._builder = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    def cannot_build(self) -> dict[str, str]:
        """The tables of TABLES_AT_START that are not on disk and cannot be built here, and why."""
        found = {}
        for variant in self.at_start:
            why = None if self.store.looks_built(variant) else self.store.unbuildable(variant)
            if why:
                found[variant.name] = why
        return found

    def _builder_alive(self) -> bool:
        return self._builder is not None and self._builder.poll() is None

    def body(self, key: Hashable, render: Callable[[], Body]) -> Body:
        """The cached body under `key`, rendered (and kept, if lasting) on a miss. Only answers are kept."""
        with self._lock:
            found = self._bodies.get(key)
        if found is None:
            found = render()
            if found.lasting:
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


def _body_size(body: Body) -> int:
    return len(body.data) + 200  # the key and the objects around the bytes


def variants_at_start(setting: str | list[str]) -> list[Variant]:
    """TABLES_AT_START: "presets", a comma-separated string of names, or a list of names."""
    if setting == "presets":
        return list(PRESETS)
    names = setting.split(",") if isinstance(setting, str) else setting
    found = [get_variant(name.strip()) for name in names if name.strip()]
    searched = [v.name for v in found if not v.has_table]
    if searched:  # a start that would wait for a table no board of that size has
        raise ValueError(f"TABLES_AT_START names boards no table holds (the search answers them): {searched}")
    return found


def init_app(app: Flask) -> None:
    store = TableStore(app.config["TABLES_DIR"])
    at_start = variants_at_start(app.config["TABLES_AT_START"])
    tables = Tables(
        store,
        at_start,
        app.config["BODY_CACHE_BYTES"],
        app.config["BACKGROUND_BUILDS"],
        app.config["BACKGROUND_BUILD_CELLS"],
    )
    app.extensions[EXTENSION] = tables
    # Only a glance at the files (their headers): checking them all would keep every start waiting.
    tables.request_builds(v for v in tables.at_start if v.cells > SOLVE_IN_REQUEST_CELLS)
    blocked = [f"{name} ({why})" for name, why in tables.cannot_build().items()]
    unwritable = store.unwritable()
    if unwritable:
        blocked.append(f"any other: {unwritable}")
    if blocked:  # one line, at start: what the service will not build, and why
        log.warning("tables that cannot be built here: %s", "; ".join(blocked))


def get_tables() -> Tables:
    tables: Tables = current_app.extensions[EXTENSION]
    return tables
