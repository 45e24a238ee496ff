"""The Connect Four book's background build attempts, remembered by every process of a host: each worker
of each server may start the build, so how often it may is kept beside the book, in the books folder's
`.build-state.json` (written whole or not at all, `atomic_files`; read with a check, a damaged one
taken as no attempt yet).

An attempt is a build started or one refused before it started (too little memory or disk). Each sets
the next attempt's earliest time when it begins, the delay doubling with each attempt since the last
build that succeeded (1 minute, then 2, 4, … up to an hour), so that a build killed by the kernel, which
cannot say so itself, waits it out too. A build that fails writes why; one that succeeds removes the
file. Without it, a build that could not finish was started again every 10 seconds (17 times in 150 s
under a 512 MB memory limit, 8 full builds in 150 s on a disk too small for the book).
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ..atomic_files import replace_atomically
from ..tables.locks import file_lock

BUILD_LOCK = ".build.lock"  # held by the build under way: one build of books at a time per directory
STATE_FILE = ".build-state.json"
STATE_LOCK = ".build-state.lock"  # held while a process reads, decides and writes the state
FIRST_RETRY_SECONDS = 60.0
LAST_RETRY_SECONDS = 3600.0
Clock = Callable[[], float]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Attempts:
    count: int = 0  # attempts since the last build that succeeded (refusals included)
    next_attempt: float = 0.0  # wall-clock seconds: none before this
    started: float | None = None  # when the last build started (None: the last attempt was refused)
    ended: float | None = None  # when the last attempt ended (None while a started build has not said)
    reason: str | None = None  # why the last attempt failed or was refused


def retry_delay(count: int) -> float:
    return min(LAST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2.0 ** max(0, count - 1))


class BookBuilds:
    """The attempts recorded in a books folder; `clock` gives wall-clock seconds (time.time)."""

    def __init__(self, folder: Path, clock: Clock = time.time) -> None:
        self.folder = folder
        self.path = folder / STATE_FILE
        self.clock = clock

    def read(self) -> Attempts:
        try:
            found = Attempts(**json.loads(self.path.read_text()))
        except FileNotFoundError:
            return Attempts()
        except (OSError, ValueError, TypeError) as error:  # damaged: as if no attempt was made yet
            log.warning("the book builds' state %s is not readable, taken as empty: %s", self.path, error)
            return Attempts()
        good = isinstance(found.count, int) and isinstance(found.next_attempt, int | float)
        return found if good else Attempts()

    @contextlib.contextmanager
    def deciding(self, wait: bool = True) -> Iterator[bool]:
        """Held while one process reads the state, decides and writes it; False if `wait` is off and
        another process holds it."""
        with file_lock(self.folder / STATE_LOCK, wait) as held:
            yield held

    def due(self) -> bool:
        return self.read().next_attempt <= self.clock()

    def starting(self) -> Attempts:
        """A build starts now: the next attempt's time is set already."""
        now, count = self.clock(), self.read().count + 1
        return self._write(Attempts(count, now + retry_delay(count), started=now))

    def refused(self, reason: str) -> Attempts:
        """An attempt refused before it started, and why."""
        now, before = self.clock(), self.read()
        count = before.count + 1
        return self._write(Attempts(count, now + retry_delay(count), None, now, reason))

    def ended(self, reason: str | None) -> None:
        """The build under way ended: well (`reason` None: the record is removed) or not, and why."""
        if reason is None:
            self.path.unlink(missing_ok=True)
            return
        self._write(replace(self.read(), ended=self.clock(), reason=reason))

    def _write(self, attempts: Attempts) -> Attempts:
        self.folder.mkdir(parents=True, exist_ok=True)
        replace_atomically(self.path, lambda out: out.write(json.dumps(asdict(attempts)).encode()))
        return attempts
