"""The provers' helper thread (core/threads.c) across a fork: a child that frees its copy of the
helper returns at once. It hung for ever: gevent's subprocess ran Python in its forked child, which
dropped the parent's thread-local helper, and the helper's finalizer joined a thread the child does not
have and destroyed a condition the parent's helper thread still waited on."""

from __future__ import annotations

import os
import threading
import time

from service.engine.search.second_thread import Helper, thread_helper
from tests.engine.search.forked import exit_code_within

EXIT_WITHIN = 1.0  # seconds: a child that frees a copy exits in milliseconds
IDLE = 0.05  # seconds for a new helper's thread to reach its wait for a job


def freed_within(helper: Helper, seconds: float) -> bool:
    """Whether the parent's own helper still ends its thread when freed (on a thread of its own, so
    that a hang fails the test rather than stopping it)."""

    def free() -> None:
        helper.pointer = None  # the last reference: the finalizer runs now

    freeing = threading.Thread(target=free, daemon=True)
    freeing.start()
    freeing.join(seconds)
    return not freeing.is_alive()


def test_a_forked_child_frees_its_copy_of_the_helper_at_once() -> None:
    helper = Helper()
    time.sleep(IDLE)  # its thread waits on the condition, which counts it as a waiter
    pid = os.fork()
    if pid == 0:  # the child: free the copy (the finalizer), then exit at once
        helper.pointer = None
        os._exit(0)
    assert exit_code_within(pid, EXIT_WITHIN) == 0, "the child hung freeing its copy of the helper"
    assert freed_within(helper, 5.0)


def test_a_child_forked_beside_a_searching_thread_exits() -> None:
    """The way it happened: the helper belongs to another thread (thread_helper keeps one per thread),
    and the fork's own clean-up in the child drops that thread's locals, finalizer and all."""
    made, release = threading.Event(), threading.Event()

    def searching_thread() -> None:
        if thread_helper() is not None:  # kept by the thread's locals alone, as in a search
            made.set()
        release.wait(30)

    thread = threading.Thread(target=searching_thread, daemon=True)
    thread.start()
    try:
        assert made.wait(10)
        time.sleep(IDLE)
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        assert exit_code_within(pid, EXIT_WITHIN) == 0, "the child hung in the fork's clean-up"
    finally:
        release.set()
        thread.join(10)
    assert not thread.is_alive()
