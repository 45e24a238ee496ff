"""Long comparisons that start as soon as the session knows its tests, in one process of the lowest
priority (nice 19): it takes mostly the processor time the tests leave idle (most tests wait on servers,
browsers and sockets). The modules that check them run last (the root conftest orders them), and find
them done.

A test module with such work defines `start_in_background()`, returning `started(name, jobs)`: each job a
function and its arguments, whose result is a list of problems. Every test process of the session knows
the session's tests after collection and calls it; the first to claim the work (a file made exclusively
in the session's directory for it) runs it, and writes each job's result to a file there. A check reads
the file, in whichever process it runs, waiting for it while the job runs and its runner lives.

The runner's processes start from a fresh interpreter (forkserver), not by a fork of the test process:
a fork copies the locks its threads hold (xdist's own among them), and a child holding the inherited
pipe to xdist's controller would keep the session from ever ending had the test process died.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from service.engine.atomic_files import replace_atomically

Job = tuple[Callable[..., list[str]], tuple[Any, ...]]
DIRECTORY_VARIABLE = "SANMOKU_TEST_BACKGROUND_DIR"  # made by the session's first process, for all
# One process: it has the whole run to finish in (about 100 processor-seconds), and two at nice 19 still
# left timing tests of the engine short of their marks on a busy host.
PROCESSES = 1
POLL_SECONDS = 0.2
# A check's wait for its result: below the suite's timeout of a test (600 s, pyproject.toml), so that a
# wait in vain ends here and marks the work given up rather than ending the test from outside.
WAIT_SECONDS = 500
CLAIMED = "claimed"  # made by the process that runs the work, holding its process id
GIVEN_UP = "given-up"  # made once a wait for one of the work's results ended in vain

_pool: ProcessPoolExecutor | None = None


@dataclass(frozen=True)
class Pending:
    """One job's result, as a file that its runner writes once."""

    path: Path

    def result(self, timeout: float) -> list[str]:
        """The job's problems (a list of lines), once written. RuntimeError at once if the process that
        runs the job has ended without writing it, or if another job of the same work waited in vain
        already; TimeoutError after `timeout` seconds (each later wait for the work then fails at once)."""
        deadline = time.monotonic() + timeout
        given_up = self.path.parent / GIVEN_UP
        while not self.path.exists():
            if given_up.exists():
                raise RuntimeError(f"no result at {self.path}: {given_up.read_text()}")
            if not _alive(int((self.path.parent / CLAIMED).read_text() or 0)):
                raise RuntimeError(f"no result at {self.path}: the process running its work has ended")
            if time.monotonic() > deadline:
                given_up.write_text(f"a wait of {timeout} s for {self.path.name} was in vain")
                raise TimeoutError(f"no result at {self.path} after {timeout} s")
            time.sleep(POLL_SECONDS)
        found: list[str] = json.loads(self.path.read_text())
        return found


Work = dict[str, Pending]


def directory() -> Path:
    return Path(os.environ[DIRECTORY_VARIABLE])


def started(name: str, jobs: dict[str, Job]) -> Work:
    """`name`'s results, one per job; the jobs are submitted by the first process to ask."""
    where = directory() / name.replace(" ", "-")
    where.mkdir(parents=True, exist_ok=True)
    work = {key: Pending(where / f"{index}.json") for index, key in enumerate(jobs)}
    try:
        claim = os.open(where / CLAIMED, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return work  # another process runs it (or this one did already)
    os.write(claim, str(os.getpid()).encode())  # a reader seeing it empty waits: 0 stands for "alive"
    os.close(claim)
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(
            max_workers=PROCESSES,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=os.nice,
            initargs=(19,),
        )
    for key, (function, arguments) in jobs.items():
        future = _pool.submit(function, *arguments)
        future.add_done_callback(lambda done, path=work[key].path: _write(path, done))
    return work


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (0: not known yet, taken as running)."""
    if pid == 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _write(path: Path, done: Future[list[str]]) -> None:
    error = done.exception()
    problems = [f"the job failed: {error!r}"] if error is not None else done.result()
    replace_atomically(path, lambda file: file.write(json.dumps(problems).encode()))


def shut_down() -> None:
    """Wait for the jobs this process claimed: another process's checks may still read their results."""
    if _pool is not None:
        _pool.shutdown(wait=True)
