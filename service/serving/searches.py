"""The search side of the answers, one per app (in the manner of flaskr's db.py): `init_app(app)` makes
the `Analyst` (tables first, then the proven positions beside them, then a search within the request's
budget) and `get_analyst()` gives it to views.

Under gunicorn's gevent workers a search runs on the hub's pool of real threads: the compiled core lets
go of the interpreter, so the worker's other requests go on while it searches; elsewhere (tests, the
command line) it runs on the caller's thread. SEARCH_SLOTS caps the searches of one worker at once.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable

from flask import Flask, current_app
from gevent import get_hub
from gevent.monkey import is_module_patched

from ..engine.analyst import Analyst, EnginePool
from ..engine.rules.position import Position
from ..engine.search.proven import ProvenStore
from ..engine.search.report import SearchReport
from ..engine.tables.table import Table
from .books import open_books
from .tables import EXTENSION as TABLES
from .tables import Tables

EXTENSION = "sanmoku.analyst"
SEARCH_NICENESS = 10  # the search threads' priority below the worker's own (0)


def offload(work: Callable[[], SearchReport]) -> SearchReport:
    """Run `work` on a real thread when gevent runs this worker, else here."""
    if is_module_patched("threading"):
        result: SearchReport = get_hub().threadpool.spawn(_yielding, work).get()
        return result
    return work()


def _yielding(work: Callable[[], SearchReport]) -> SearchReport:
    """`work` on a pool thread that gives way to the worker's own thread: two searches keep both
    processors busy, and the lookups the worker answers meanwhile must not queue behind them. Each
    thread lowers its own priority (Linux gives every thread its own nice value), once."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or not allowed: the default priority
        thread = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, thread) < SEARCH_NICENESS:
            os.setpriority(os.PRIO_PROCESS, thread, SEARCH_NICENESS)
    return work()


def init_app(app: Flask) -> None:
    tables: Tables = app.extensions[TABLES]
    proven = ProvenStore(tables.store.directory, app.config["PROVEN_MAX_BYTES"])

    def table_for(position: Position) -> Table | None:
        return tables.available(position.variant)

    books = open_books(tables.store.directory, app.config["BACKGROUND_BUILDS"])
    pool = EnginePool(app.config["SEARCH_SLOTS"])
    app.extensions[EXTENSION] = Analyst(table_for, proven, pool, offload, books)


def get_analyst() -> Analyst:
    analyst: Analyst = current_app.extensions[EXTENSION]
    return analyst
