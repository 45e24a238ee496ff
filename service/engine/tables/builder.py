"""The host's background builder: one process that works through the tables directory's build queue
(`build_queue`), started by whoever queues a table when none runs (a server's worker, through
`start`), or from the shell (`sanmoku tables build --queue`).

It is a process of its own, niced from its first instruction, so that a build never holds a server's
workers; `python -m service.engine.tables --dir DIR` is what `start` runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from .build_queue import BuildQueue, work_through
from .spawn import Child, spawn
from .store import TableStore

BACKGROUND_NICENESS = 19  # a build started by the service yields the processors to its workers
BUILD_LOG = ".build.log"  # what background builds print, kept beside what they build
MAX_LOG_BYTES = 1 << 20  # started over past this


def start(directory: Path) -> Child:
    """Start the builder for `directory` in the background; it stops when the queue is empty."""
    package = __package__ or "service.engine.tables"
    return spawn_build(["-m", package, "--dir", str(directory)], directory)


def spawn_build(arguments: list[str], directory: Path) -> Child:
    """Run `python ARGUMENTS` niced, its output appended to BUILD_LOG in `directory`. Not to the
    caller's own output: a command such as `sanmoku analyze ... | less` would wait for the build.
    Started by `spawn.spawn`, which runs no Python between the fork and the exec (see there why)."""
    # Niced from its first instruction (its imports alone take a fifth of a second of processor), so
    # that a start with an empty directory answers as fast as one with the tables built.
    nice = shutil.which("nice")
    command = [*([nice, "-n", str(BACKGROUND_NICENESS)] if nice else []), sys.executable, *arguments]
    log: Path | None = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        log = directory / BUILD_LOG
        if log.exists() and log.stat().st_size > MAX_LOG_BYTES:
            log.unlink()  # started over
    except OSError:  # a directory we may not write to: the build says why in the service's log instead
        pass
    return spawn(command, log)


def build_queued(directory: Path | None, threads: int) -> list[str]:
    """Build the queued tables of `directory` at a low priority, unless another builder runs; what was
    done, a line per table."""
    os.nice(BACKGROUND_NICENESS)  # an increment: the kernel keeps it at 19 at most
    store = TableStore(directory)
    return work_through(BuildQueue(store.directory), store, threads)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the tables queued in a tables directory.")
    parser.add_argument("--dir", type=Path, help="the tables directory (default: as the service's)")
    args = parser.parse_args(argv)
    try:
        done = build_queued(args.dir, len(os.sched_getaffinity(0)))
    except OSError as error:  # the queue itself cannot be written (a full disk): one line, not a traceback
        print(f"the table builder stopped: {error}", file=sys.stderr)
        return 1  # the processes that start builders wait longer before the next one
    for line in done:
        print(line)
    return 0
