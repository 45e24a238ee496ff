"""Where long pure-Python work runs (a game tree, a depth-limited move: tenths of a second and more):
under gunicorn's gevent workers in processes of the worker's own, its lanes; elsewhere (tests, the
command line) here, on the caller's thread.

Not on the worker's threads, as a search is: a thread that runs Python holds the interpreter's lock, and
the worker's loop then waits for it at every turn. Beside 32 clients of 8x8 trees on two such threads
the 3x3 probe's p99 went from 4 to 52 ms; with one tree at a time and the lock's switch interval cut to
1 ms, still 2.8 to 3.5 times its value alone. A lane's process has a lock of its own.

A lane has `size` processes, each running one job at a time, started when first needed (`python -m
service.serving.lane_child`, by posix_spawn: nothing of the worker runs in the child before it execs)
and kept; one ends when its pipe from the worker closes (the worker ended). Jobs take a process first
come first served (`FairSlots`), each waiting at most its own bound; the worker waits for the answer as a
greenlet, on a pipe; a job that outlives its time has its process killed (a new one is started for the
next job).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import signal
import struct
import sys
import time
from typing import Any

import gevent
from gevent import Timeout
from gevent.event import Event
from gevent.monkey import is_module_patched
from gevent.os import make_nonblocking, nb_read, nb_write

from ..engine import FairSlots
from .lane_jobs import Failure, job_named

HEADER = struct.Struct(">I")  # a frame: its length, then a pickle
CHILD = "service.serving.lane_child"
GRACE = 1.0  # seconds a job may run past its time before its process is killed
START_SECONDS = 60.0  # a process that has not started by then is killed
LANES: list[Lane] = []  # every lane of the app, started together after a worker's first answer

log = logging.getLogger(__name__)


class LaneBusyError(RuntimeError):
    """No process of the lane came within the wait, or the job outlived its time."""


class _Child:
    """One process of a lane and the two ends of its pipes that the worker holds."""

    def __init__(self, lane: str, niceness: int) -> None:
        to_child, self.sends = os.pipe()
        self.reads, from_child = os.pipe()
        self.pid = os.posix_spawn(
            sys.executable,
            [sys.executable, "-m", CHILD, str(niceness)],
            os.environ,
            file_actions=[(os.POSIX_SPAWN_DUP2, to_child, 0), (os.POSIX_SPAWN_DUP2, from_child, 1)],
        )
        os.close(to_child)
        os.close(from_child)
        make_nonblocking(self.sends)
        make_nonblocking(self.reads)
        self.started = Event()  # set when it says it has imported what its jobs need
        self.failed = False
        gevent.spawn(self._starting, lane)

    def _starting(self, lane: str) -> None:
        started = time.perf_counter()
        try:
            with Timeout(START_SECONDS):
                (length,) = HEADER.unpack(_read(self.reads, HEADER.size))
                _read(self.reads, length)
        except (Timeout, OSError, EOFError) as error:
            self.failed = True
            log.warning("a %s process did not start: %r", lane, error)
        else:
            log.info("a %s process is ready in %.0f ms", lane, (time.perf_counter() - started) * 1000)
        self.started.set()

    def wait_ready(self, seconds: float) -> bool:
        """Whether the process has started (its imports: a second or more on a busy host) within
        `seconds`, or before."""
        return self.started.wait(seconds) and not self.failed

    def ask(self, job: str, args: tuple[Any, ...], seconds: float) -> tuple[bool, Any]:
        """Whether the job answered (else it failed) and its answer (else its Failure)."""
        frame = pickle.dumps((job, args))
        with Timeout(seconds):
            _write(self.sends, HEADER.pack(len(frame)) + frame)
            (length,) = HEADER.unpack(_read(self.reads, HEADER.size))
            done, value = pickle.loads(_read(self.reads, length))
        return bool(done), value

    def end(self) -> None:
        for fd in (self.sends, self.reads):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, os.WNOHANG)  # reaped now if it is gone already, else at the next end


class Lane:
    """`size` processes for one kind of job, at `niceness` (above the worker's 0: its loop goes first)."""

    def __init__(self, name: str, size: int, niceness: int) -> None:
        self.name, self.size, self.niceness = name, size, niceness
        self._owner = -1
        self._idle: list[_Child] = []
        self._slots = FairSlots(size)
        self._ended: list[int] = []  # killed processes not reaped yet
        LANES.append(self)

    @property
    def separate(self) -> bool:
        """Whether jobs run in the lane's processes (under gevent), not on the caller's thread."""
        patched: bool = is_module_patched("threading")
        return patched

    def run(self, job: str, args: tuple[Any, ...], seconds: float, wait: float) -> Any:
        """The job named `job` (`lane_jobs`) on `args`, in one of the lane's processes, given `seconds`
        to answer once it has one (a process waited for `wait` seconds at most: LaneBusyError); its
        errors are raised here. Not under gevent: here and now."""
        if not self.separate:
            return job_named(job)(*args)
        self._for_this_process()
        slots = self._slots
        lease = slots.acquire(wait)  # a job's time is a bound, not what it takes: the next ones wait
        if lease is None:
            raise LaneBusyError(
                f"every one of the {self.size} {self.name} processes of this worker stayed busy"
            )
        try:
            child = self._idle.pop() if self._idle else _Child(self.name, self.niceness)
            if not child.wait_ready(seconds):  # a process still starting is not a job's time
                self._keep_or_end(child)
                raise LaneBusyError(f"no {self.name} process has started yet")
            try:
                done, value = child.ask(job, args, seconds + GRACE)
            except BaseException as error:  # its time ran out, it died, or the request was given up
                self._end(child)  # a reply may still come: the process cannot be asked again
                if isinstance(error, (Timeout, OSError, EOFError, pickle.UnpicklingError)):
                    raise LaneBusyError(
                        f"the {self.name} process did not answer within {seconds:.1f} s"
                    ) from error
                raise
            self._idle.append(child)
        finally:
            slots.release(lease)
        if not done:
            assert isinstance(value, Failure)
            raise value.error()
        return value

    def start(self) -> None:
        """One process now, if none is, so that the first job does not wait for its start (it does
        not wait for it here either)."""
        if self.separate:
            self._for_this_process()
            if not self._idle:
                self._idle.append(_Child(self.name, self.niceness))

    def _for_this_process(self) -> None:
        """A worker's own processes and slots: nothing of its parent's (a preloaded app's lanes)."""
        if self._owner != os.getpid():
            self._owner, self._idle, self._ended = os.getpid(), [], []
            self._slots = FairSlots(self.size)

    def _keep_or_end(self, child: _Child) -> None:
        if child.failed:
            self._end(child)
        else:
            self._idle.append(child)  # it will be ready for a later job

    def _end(self, child: _Child) -> None:
        self._reap()
        child.end()
        self._ended.append(child.pid)

    def _reap(self) -> None:
        for pid in list(self._ended):
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            self._ended.remove(pid)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[nb_write(fd, view) :]


def _read(fd: int, count: int) -> bytes:
    parts, left = [], count
    while left:
        part = nb_read(fd, min(left, 1 << 20))
        if not part:
            raise EOFError("the lane's process ended")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def start_lanes() -> None:
    """One process of every lane, started now (each is ready a moment later)."""
    for lane in LANES:
        lane.start()
