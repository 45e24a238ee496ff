"""A searching thread's second thread: the core's helper thread (native.Helper, core/threads.c), kept
idle between calls, on which the provers' second family (proof_families.py) and half of the moves'
alpha-beta searches (core/threads.c) run, the latter on a transposition table of their own (the searcher's
second_table). One per searching thread (a thread runs one search at a time). The threads are the
core's own, not Python's: under gunicorn's gevent workers `threading` is patched (a Thread there is a
greenlet), and the search already runs on a native thread of gevent's pool; cffi releases the GIL for
the whole call.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from .native import Helper, SecondThread, TranspositionTable

__all__ = ["SECOND_THREAD_EMPTY_CELLS", "Helper", "second_thread", "thread_helper"]


_per_thread = threading.local()


def thread_helper() -> Helper | None:
    """This thread's helper, made on first use (a thread runs one search at a time); None when the
    system makes no thread (the provers then run on the caller's thread alone). A helper inherited
    through a fork has no thread in this process: a new one is made."""
    helper: Helper | None = getattr(_per_thread, "helper", None)
    if helper is not None and helper.pid != os.getpid():
        helper.forget()
        helper = None
    if helper is None:
        try:
            helper = Helper()
        except OSError:
            return None
        _per_thread.helper = helper
    return helper


# The moves' alpha-beta searches go to two threads from this many empty cells: below it they take
# microseconds, and waking the second thread cost more (5x5k4 after 12 plies, 13 empty cells: median
# 0.3 ms on two threads, 0.1 ms on one; after 8 plies, 17 empty: p90 4.4 ms against 5.7).
SECOND_THREAD_EMPTY_CELLS = 16


def second_thread(table: Callable[[], TranspositionTable], empty_cells: int) -> SecondThread | None:
    """This thread's helper, to search the moves of a position with `empty_cells` on `table()` (asked
    for only then: it may be made on first use); None when it is not worth waking (too few) or no
    thread can be made."""
    helper = thread_helper() if empty_cells >= SECOND_THREAD_EMPTY_CELLS else None
    return None if helper is None else SecondThread(table(), helper.pointer)
