"""How the service starts a background builder: `os.posix_spawn`, which runs no Python in the child.

Not `subprocess.Popen`. Under gunicorn's gevent workers it is gevent's, which forks and runs Python in
the child until its exec, and Python's clean-up after a fork drops the parent's other threads' locals:
a search's helper thread among them, whose finalizer then blocked that child for ever (it held its
request, ignored SIGTERM and kept the listening port; core/threads.c now lets such a copy go).
The standard library's own Popen runs no Python in the child (`_posixsubprocess.fork_exec`), but
gevent's patching sets that function to None in the `subprocess` module, and the reaping of its child
would race gevent's SIGCHLD handler, which reaps every child of the process (the exit code then read
0). posix_spawn execs at once (glibc clones with CLONE_VFORK), and gevent patches it to watch the child
it makes: looked up when called, `os.posix_spawn` and `os.waitpid` are gevent's in a worker, whose
event loop reaps the child and keeps its exit code, and the plain ones elsewhere (the command line,
the tests), where `poll` and `wait` reap it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

# Reset to their default actions in the child: an ignored signal stays ignored across an exec (Python
# ignores SIGPIPE and SIGXFSZ; the standard library's Popen resets them too), and a builder must stop
# on the same signals as any other process.
DEFAULT_SIGNALS = (
    signal.SIGPIPE,
    signal.SIGXFSZ,
    signal.SIGTERM,
    signal.SIGINT,
    signal.SIGHUP,
    signal.SIGQUIT,
)
LOST = 256  # not an exit code: the child has gone and another waiter took its exit code
WAIT_POLL = 0.02  # seconds between two looks in `wait`


class Child:
    """A process started by `spawn`, in the manner of subprocess.Popen: `poll`, `wait`, `returncode`
    (negative: the signal that ended it; LOST: gone, its exit code taken by another waiter)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit code once the child has ended (reaped now), else None."""
        if self.returncode is None:
            try:
                done, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped by another waiter, and its exit code not kept for us
                self.returncode = LOST
            else:
                if done == self.pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """The exit code, once the child has ended; subprocess.TimeoutExpired after `timeout` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            time.sleep(WAIT_POLL)  # gevent's sleep in a worker: its other requests go on
        return code

    def __del__(self) -> None:
        # Dropped while it runs (or before it was reaped): reaped later, by the next spawn.
        if self.returncode is None:
            _unreaped.append(self.pid)


_unreaped: list[int] = []


def spawn(command: list[str], log: Path | None) -> Child:
    """Start `command` (its first word an absolute path) with no input, its output and errors appended
    to `log` (when None, or when it cannot be opened, its output goes nowhere and its errors to this
    process's); every other file stays closed to it."""
    _reap_abandoned()
    actions: list[tuple[Any, ...]] = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
    out = None
    if log is not None:
        with contextlib.suppress(OSError):
            out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    if out is None:
        actions.append((os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0))
    else:
        actions += [(os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, out, 2)]
    actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inheritable_descriptors() if fd != out]
    try:
        pid = os.posix_spawn(
            command[0],
            command,
            os.environ,
            file_actions=actions,
            setsigmask=(),
            setsigdef=DEFAULT_SIGNALS,
        )
    finally:
        if out is not None:
            os.close(out)
    return Child(pid)


def _inheritable_descriptors() -> list[int]:
    """This process's open files past the standard three that an exec would leave open (Python makes
    its own files close on exec; a library may not): gunicorn's listening socket, for one, must not
    stay open in a build that outlives the server."""
    found = []
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc/self/fd"):
            fd = int(name)
            with contextlib.suppress(OSError):  # the listing's own descriptor, closed by now
                if fd > 2 and os.get_inheritable(fd):
                    found.append(fd)
    return found


def _reap_abandoned() -> None:
    for pid in list(_unreaped):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done = pid
        if done == pid:
            with contextlib.suppress(ValueError):  # another thread reaped it first
                _unreaped.remove(pid)
