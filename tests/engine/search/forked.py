"""A forked child's end, waited for within a bound: a child that hangs (a lock its parent's threads
held at the fork) is killed, and the test fails rather than the run never ending."""

from __future__ import annotations

import os
import signal
import time


def exit_code_within(pid: int, seconds: float) -> int | None:
    """The child's exit code, or None if it is still running after `seconds` (it is killed then)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None
