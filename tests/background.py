"""Long comparisons that start as soon as the session knows its tests, in worker processes, so that they
run while the session's own process (one core) waits on servers, browsers and sockets; the tests that
check them then find them done instead of waiting for them.

A test module that has such work defines `start_in_background()`, returning its futures (by name)
through `started(...)`; the root conftest calls it for every module the session will run, and the
module's fixture calls it again (the same futures) when the module runs alone.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor

Work = dict[str, Future[list[str]]]

_pool: ProcessPoolExecutor | None = None
_started: dict[str, Work] = {}
workers = 2  # the conftest leaves one to the session's process when other tests run beside the work


def started(name: str, submit: Callable[[ProcessPoolExecutor], Work]) -> Work:
    """`name`'s futures, submitted to the shared pool on the first call."""
    global _pool
    if name not in _started:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=workers)
        _started[name] = submit(_pool)
    return _started[name]


def shut_down() -> None:
    if _pool is not None:
        _pool.shutdown(cancel_futures=True)
