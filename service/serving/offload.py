"""Where a search runs: under gunicorn's gevent workers on the hub's pool of real threads, so that the
worker's other requests go on while it searches (the compiled core lets go of the interpreter);
elsewhere (tests, the command line) on the caller's thread."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import TypeVar

from gevent import get_hub
from gevent.monkey import is_module_patched

T = TypeVar("T")
SEARCH_NICENESS = 10  # the search threads' priority below the worker's own (0)


def offload(work: Callable[[], T]) -> T:
    """Run `work` on a real thread when gevent runs this worker, else here."""
    if is_module_patched("threading"):
        result: T = get_hub().threadpool.spawn(_yielding, work).get()
        return result
    return work()


def _yielding(work: Callable[[], T]) -> T:
    """`work` on a pool thread that gives way to the worker's own thread: two searches keep both
    processors busy, and the lookups the worker answers meanwhile must not queue behind them. Each
    thread lowers its own priority (Linux gives every thread its own nice value), once."""
    with contextlib.suppress(OSError, AttributeError):  # not Linux, or not allowed: the default priority
        thread = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, thread) < SEARCH_NICENESS:
            os.setpriority(os.PRIO_PROCESS, thread, SEARCH_NICENESS)
    return work()
