"""Where a search (or the store's I/O) runs: under gunicorn's gevent workers on real threads, so that the
worker's other requests go on while it searches (the compiled core lets go of the interpreter, and
SQLite waits there); elsewhere (tests, the command line) on the caller's thread.

A search (work given a cancel flag: it holds one of the worker's search slots) runs on the worker's own
search threads, one per slot (`keep_search_threads`), which nothing else uses: a search never waits for
a thread behind other work, and the caches the core keeps per thread (its proof tables, its helper
thread) are made on those threads only, once, before the first request (`on_each_search_thread`).
Other work (the store's I/O, work in the background) runs on the hub's pool.

While a search runs, its request's greenlet looks at the client's connection every HANGUP_POLL seconds:
a client that went away (closed its connection, or nginx gave up on it after proxy_read_timeout) sets
the search's cancel flag, which the core reads every few thousand nodes, so that its budget is not
spent for nobody. The request remembers it, and its next searches (a batch, a review) stop at once.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Generic, TypeVar

import gevent
from flask import has_request_context, request
from gevent import Timeout, get_hub
from gevent._hub_local import get_hub_if_exists  # as gevent's own thread pool finds a thread's hub
from gevent.monkey import get_original, is_module_patched
from gevent.threadpool import ThreadPool

from ..engine import Cancel

T = TypeVar("T")
_search_threads: ThreadPool | None = None  # this worker's, once kept
SEARCH_NICENESS = 10  # the search threads' priority below the worker's own (0)
HANGUP_POLL = 0.05  # seconds between two looks at a searching request's connection
GONE = "sanmoku.client_gone"  # in the request's environ, once its client is known to have gone


def offload(work: Callable[[], T], cancel: Cancel | None = None) -> T:
    """Run `work` on a real thread when gevent runs this worker, else here; `cancel` is set if the
    request's client goes away meanwhile."""
    if not is_module_patched("threading"):
        return work()
    threads = _search_threads if cancel is not None and _search_threads is not None else get_hub().threadpool
    result = threads.spawn(_yielding, work)
    connection = _connection() if cancel is not None else None
    if cancel is None or connection is None:
        answer: T = result.get()
        return answer
    environ = request.environ
    while True:
        if environ.get(GONE) or _gone(connection):
            environ[GONE] = True
            cancel.set()
            gone: T = result.get()
            return gone
        with contextlib.suppress(Timeout):
            done: T = result.get(timeout=HANGUP_POLL)
            return done


def keep_search_threads(count: int) -> None:
    """This worker's `count` search threads, kept for its life (gevent's pool ends no idle thread), when
    gevent runs this worker; elsewhere, none. Once per process."""
    global _search_threads
    if is_module_patched("threading") and _search_threads is None:
        _search_threads = ThreadPool(count)


def on_each_search_thread(works: Sequence[Callable[[], object]], timeout: float) -> None:
    """Run each of `works`, at most one per search thread, each on a thread of its own (every one waits
    until all have started, `timeout` seconds at most), and wait for them. Without search threads (not
    under gevent), run them here, one after another."""
    threads = _search_threads
    if threads is None:
        for work in works:
            work()
        return
    count = len(works)
    lock, pause = get_original("_thread", "allocate_lock")(), get_original("time", "sleep")
    started = [0]
    ends = time.monotonic() + timeout

    def together(work: Callable[[], object]) -> object:
        with lock:
            started[0] += 1
        while started[0] < count and time.monotonic() < ends:  # a native wait: no greenlet runs here
            pause(0.001)
        return work()

    for result in [threads.spawn(_yielding, partial(together, work)) for work in works]:
        result.get(timeout=timeout)


class Alongside(Generic[T]):
    """`work` started beside the caller's own (a greenlet, when gevent runs this worker; elsewhere it
    runs at once); `result()` waits for it and raises its error. Work whose result nobody waits for
    (the caller failed first) ends on its own: it must be bounded (a read within its budget), and its
    error, if any, is dropped with it."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._running: gevent.Greenlet[[], tuple[bool, object]] | None = None
        self._done: tuple[bool, object] = (False, None)
        if is_module_patched("threading"):
            self._running = gevent.spawn(_caught, work)
        else:
            self._done = _caught(work)

    def result(self) -> T:
        done, value = self._done if self._running is None else self._running.get()
        if not done:
            assert isinstance(value, BaseException)
            raise value
        return value  # type: ignore[return-value]  # what `work` returned


def _caught(work: Callable[[], object]) -> tuple[bool, object]:
    """(True, its result) or (False, its error): a greenlet that ends in an error is reported by gevent
    as a failure, though its caller raises it again (or never asks)."""
    try:
        return True, work()
    except Exception as error:
        return False, error


def in_background(work: Callable[[], object]) -> None:
    """Start `work` on a pool thread, at the searches' lower priority, when gevent runs this worker, and
    return at once; elsewhere, run it here."""
    if not is_module_patched("threading"):
        work()
        return
    get_hub().threadpool.spawn(_yielding, work)


def on_a_thread(work: Callable[[], object]) -> None:
    """Start `work` on a new native thread, at the searches' lower priority, and return at once; from any
    thread. The hub's pool takes work only from the worker's loop, and where gevent patched `threading`
    its Thread is a greenlet of the caller's hub (a search's pool thread has one that never runs): the
    thread is started with the `_thread` module's own function (the store's trim, started by a `put`)."""
    start_new_thread = get_original("_thread", "start_new_thread")
    start_new_thread(_on_its_own_thread, (work,))


def _on_its_own_thread(work: Callable[[], object]) -> None:
    """`work`, then the end of the hub that gevent made for this thread if the work waited on anything
    of gevent's (a patched sleep): as gevent's own pool does, else each thread left two descriptors."""
    try:
        _yielding(work)
    finally:
        hub = get_hub_if_exists()
        if hub is not None:
            hub.destroy(destroy_loop=True)


def after_this_answer(work: Callable[[], object]) -> None:
    """Start `work` on a pool thread once the worker's loop turns again, when gevent runs this worker:
    after the answer under way is sent, not beside it (the thread would take the interpreter's lock
    from it). Elsewhere, run it here."""
    if not is_module_patched("threading"):
        work()
        return
    get_hub().loop.run_callback(in_background, work)


def _connection() -> Any:
    """The socket of the request being answered (gunicorn's), or None (a test client, no request)."""
    return request.environ.get("gunicorn.socket") if has_request_context() else None


def _gone(connection: Any) -> bool:
    """Whether the client closed its side: its socket reads as at its end (a peek, taking nothing).
    A socket with bytes waiting (a next request sent ahead) is taken as still there."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # reset, or closed under us
        return True


def _yielding(work: Callable[[], T]) -> T:
    """`work` on a pool thread that gives way to the worker's own thread: two searches keep both
    processors busy, and the lookups the worker answers meanwhile must not queue behind them. Each
    thread lowers its own priority (Linux gives every thread its own nice value), once."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or not allowed: the default priority
        thread = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, thread) < SEARCH_NICENESS:
            os.setpriority(os.PRIO_PROCESS, thread, SEARCH_NICENESS)
    return work()
