"""Long comparisons that start as soon as the session knows its tests, in one process of the lowest
priority (nice 19): it takes mostly the processor time the tests leave idle (most tests wait on servers,
browsers and sockets). The modules that check them run last (the root conftest orders them), and find
them done.

A test module with such work defines `start_in_background()`, returning `started(name, jobs)`: each job a
function and its arguments, whose result is a list of problems. Every test process of the session knows
the session's tests after collection and calls it; the first to claim the work (a file made exclusively
in the session's directory for it) runs it, and writes each job's result to a file there. A check reads
the file, in whichever process it runs, waiting for it while the job runs.
"""

from __future__ import annotations

import json
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

_pool: ProcessPoolExecutor | None = None


@dataclass(frozen=True)
class Pending:
    """One job's result, as a file that its runner writes once."""

    path: Path

    def result(self, timeout: float) -> list[str]:
        """The job's problems (a list of lines), once written; TimeoutError after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while not self.path.exists():
            if time.monotonic() > deadline:
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
        os.close(os.open(where / "claimed", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return work  # another process runs it (or this one did already)
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=PROCESSES, initializer=os.nice, initargs=(19,))
    for key, (function, arguments) in jobs.items():
        future = _pool.submit(function, *arguments)
        future.add_done_callback(lambda done, path=work[key].path: _write(path, done))
    return work


def _write(path: Path, done: Future[list[str]]) -> None:
    error = done.exception()
    problems = [f"the job failed: {error!r}"] if error is not None else done.result()
    replace_atomically(path, lambda file: file.write(json.dumps(problems).encode()))


def shut_down() -> None:
    """Wait for the jobs this process claimed: another process's checks may still read their results."""
    if _pool is not None:
        _pool.shutdown(wait=True)
