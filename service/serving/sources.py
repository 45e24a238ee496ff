"""The sources of answers, one set per app (in the manner of flaskr's db.py): `init_app(app)` opens the
tables directory's supply of tables, its opening books and its cache of proven positions, and makes the
`Analyst` that decides between them and a search; `get_analyst()` and `get_supply()` give them to views.

TABLES_DIR, TABLES_AT_START, BACKGROUND_BUILDS and BACKGROUND_BUILD_CELLS set the supply's rule (see
`engine.tables.supply`), BOOK_BUILDS whether a missing Connect Four book is built here; SEARCH_SLOTS
caps the searches of one worker at once, PROVER_THREADS the threads each search uses (1 or 2: the
provers' and alpha-beta's); PROVEN_MAX_BYTES bounds the store of proven positions, and STORE_URL
(redis://host:port/db) puts it in a database many hosts share.
"""

from __future__ import annotations

import contextlib
import logging
import time
from functools import partial

from flask import Flask, current_app

from ..engine import (
    LISTED,
    Analyst,
    Budget,
    Health,
    Position,
    TableSupply,
    compose_sources,
    get_variant,
    read_large_books,
    ready_shapes,
    variants_at_start,
)
from .lanes import start_lanes
from .offload import (
    after_this_answer,
    in_background,
    keep_search_threads,
    offload,
    on_a_thread,
    on_each_search_thread,
)

SUPPLY, ANALYST = "sanmoku.supply", "sanmoku.analyst"
# The board a worker's search threads search briefly before its first request: five in a row (the
# provers and their second thread) on 64 cells (the second thread of alpha-beta).
WARM_VARIANT, WARM_SEARCH_SECONDS, WARM_TIMEOUT = "8x8k5", 0.02, 20.0

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    # Off a worker's loop: a table file's first whole check (one with no record of it: an older
    # version's, or one written into) past a few megabytes, and the cache's trims (never in the
    # request whose write asked for one). A missing Connect Four book is built in the background; the
    # large books are read by each worker after its first answer (Warming).
    sources = compose_sources(
        app.config["TABLES_DIR"],
        tables_at_start=variants_at_start(app.config["TABLES_AT_START"]),
        background_builds=app.config["BACKGROUND_BUILDS"],
        book_builds=app.config["BOOK_BUILDS"],
        background_build_cells=app.config["BACKGROUND_BUILD_CELLS"],
        write_later=after_this_answer,
        check_later=in_background,
        proven_max_bytes=app.config["PROVEN_MAX_BYTES"],
        store_url=app.config.get("STORE_URL"),
        start_trim=on_a_thread,
        search_slots=app.config["SEARCH_SLOTS"],
        prover_threads=app.config["PROVER_THREADS"],
        offload=offload,
    )
    supply, store = sources.supply, sources.supply.store
    app.extensions[SUPPLY] = supply
    # The large tables wanted at start are queued for the builder by each worker once it has answered
    # (Warming), or by the first /readyz: a builder started here, and the look at every table's header
    # that queueing takes, kept the first answer waiting.
    blocked = [f"{name} ({why})" for name, why in supply.cannot_build().items()]
    unwritable = store.unwritable()
    if unwritable:
        blocked.append(f"any other: {unwritable}")
    if blocked:  # one line, at start: what the service will not build, and why
        log.warning("tables that cannot be built here: %s", "; ".join(blocked))
    proven = sources.analyst.proven
    if proven is not None:
        proven.open()  # a store it cannot use is logged now, once (the workers inherit what it found)
        proven.close()  # not carried across gunicorn's fork
    app.extensions[ANALYST] = sources.analyst


class Warming:
    """Readies a worker's searches. Before its first request (`before_requests`), what any search needs
    and would otherwise make within the budget of the first ones: the slots' transposition tables (32 MB
    each to map and fill), the cache of proven positions, the listed boards' shapes (lines, symmetries,
    the proven positions' keys), and on each search thread the core's caches
    (proof tables, helper thread) and the imports a search makes, by a short search of its own: a
    worker's first search with `budget_ms: 1` took up to 586 ms (106 ms in the finding), far past its
    budget. After its first answer (called: gunicorn's post_request, and a timer), on a thread, the
    large opening books (checked whole before their first use: a tenth of a second or more), and the
    large tables wanted at start queued for the host's builder: neither the worker's start nor its
    first answer waits for those. Made on the worker's event loop, after gevent's patching (the slots
    are the worker's own)."""

    def __init__(self, app: Flask) -> None:
        # None: an app without sources has nothing to ready (the benchmarks' bare Flask app)
        self.analyst: Analyst | None = app.extensions.get(ANALYST)
        self.supply: TableSupply | None = app.extensions.get(SUPPLY)
        if self.analyst is not None:
            self.analyst.pool.for_this_process()
        self.started = self.analyst is None

    def before_requests(self) -> None:
        """What every search needs, made now (on threads, the worker's loop waiting): see the class."""
        analyst = self.analyst
        if analyst is None:
            return
        started = time.perf_counter()
        pool = analyst.pool
        keep_search_threads(pool.slots)
        try:
            if analyst.proven is not None:
                offload(analyst.proven.open)
            offload(pool.warm)
            offload(partial(ready_shapes, LISTED))  # the listed boards' shapes and keys
            warming = Position.empty(get_variant(WARM_VARIANT))
            with contextlib.ExitStack() as lent:
                searchers = [
                    lent.enter_context(pool.searcher(warming.variant, None)) for _ in range(pool.slots)
                ]
                budget = Budget(WARM_SEARCH_SECONDS)
                searches = [
                    partial(searcher.analyze, warming, budget, estimates=True) for searcher in searchers
                ]
                on_each_search_thread(searches, WARM_TIMEOUT)
        except Exception:  # the searches make what they need themselves, as they always could
            log.exception("searches not readied before the first request: each makes what it needs")
            return
        log.info("searches readied in %.0f ms", (time.perf_counter() - started) * 1000)

    def __call__(self) -> None:
        if not self.started:
            self.started = True
            if self.supply is not None:  # here, on the worker's loop: gevent starts processes only there
                self.supply.request_large_at_start()
            start_lanes()  # a tree process, a move process: their imports are not a request's time
            in_background(self.now)

    def now(self) -> None:
        if self.analyst is None:
            return
        self.analyst.pool.warm()  # made before the first request under gunicorn; here, elsewhere
        if self.analyst.proven is not None:
            self.analyst.proven.open()
        if self.analyst.books is not None:
            read_large_books(self.analyst.books)


def get_supply() -> TableSupply:
    supply: TableSupply = current_app.extensions[SUPPLY]
    return supply


def proven_health() -> Health | None:
    """How the cache of proven positions can be used now (looked at off the event loop)."""
    proven = get_analyst().proven
    return None if proven is None else offload(proven.open)


def get_analyst() -> Analyst:
    analyst: Analyst = current_app.extensions[ANALYST]
    return analyst
