"""The tables waiting to be built in the background: a queue in the tables directory, shared by every
process on the host, worked through by one builder process at a time.

Each waiting table is a small JSON file under `queue/`, written by whoever needs the table (a worker
answering 503 meanwhile) and removed by the builder once the table is on disk. A builder holds
`.builder.lock` while it works, so a worker starts one only when none holds it, and a hundred requests
for forty tables start one builder, not forty. A build that fails (a full disk, a refused build, a
killed builder) is tried again after a delay that doubles with each attempt, not at every request; the
entry keeps the reason, which the 503 gives.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ..atomic_files import temporary_beside
from ..rules.variants import Variant, get_variant
from .build_plan import plan
from .locks import file_lock
from .store import TableStore

QUEUE_FOLDER = "queue"
BUILDER_LOCK = ".builder.lock"
FIRST_RETRY_SECONDS = 10.0
LAST_RETRY_SECONDS = 600.0

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Entry:
    variant: str  # long name
    requested: float  # wall-clock seconds (time.time)
    attempts: int = 0
    next_attempt: float = 0.0  # not tried again before this
    started: float | None = None  # when the build under way began
    error: str | None = None  # why the last attempt failed


@dataclass(frozen=True)
class Waiting:
    """Why a table is not there yet, as a sentence, and when to ask again."""

    reason: str
    retry_after: int


def retry_delay(attempts: int) -> float:
    return min(LAST_RETRY_SECONDS, FIRST_RETRY_SECONDS * 2.0 ** max(0, attempts - 1))


class BuildQueue:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.folder = directory / QUEUE_FOLDER
        self._estimates: dict[Variant, float] = {}

    def estimate(self, variant: Variant) -> float:
        """Seconds its build should take (see `build_plan`), worked out once per variant."""
        if variant not in self._estimates:
            self._estimates[variant] = plan(variant, self.directory).seconds
        return self._estimates[variant]

    def _path(self, name: str) -> Path:
        return self.folder / f"{name}.json"

    @contextlib.contextmanager
    def builder_lock(self, wait: bool = True) -> Iterator[bool]:
        """Held by the one process that builds tables on this host."""
        with file_lock(self.directory / BUILDER_LOCK, wait) as held:
            yield held

    def builder_running(self) -> bool:
        with self.builder_lock(wait=False) as held:
            return not held

    def add(self, variant: Variant) -> Entry:
        """The variant's entry, made if it has none (two processes adding it at once make one)."""
        found = self.entry(variant)
        if found is None:
            found = Entry(variant.long_name, time.time())
            self._write(found, exclusive=True)
        return self.entry(variant) or found

    def entry(self, variant: Variant) -> Entry | None:
        try:
            return Entry(**json.loads(self._path(variant.long_name).read_text()))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError) as error:  # a damaged entry: start it afresh
            log.warning("build queue entry of %s not readable, replaced: %s", variant.name, error)
            self._path(variant.long_name).unlink(missing_ok=True)
            return None

    def entries(self) -> list[Entry]:
        found = []
        for path in self.folder.glob("*.json"):
            with contextlib.suppress(ValueError):
                entry = self.entry(get_variant(path.stem))
                if entry is not None:
                    found.append(entry)
        return sorted(found, key=lambda e: e.requested)

    def next_due(self) -> Entry | None:
        now = time.time()
        return next((e for e in self.entries() if e.next_attempt <= now), None)

    def started(self, variant: Variant) -> None:
        """A build begins. Its retry delay is set now: a builder killed mid-build waits it out too."""
        entry = self.add(variant)
        attempts = entry.attempts + 1
        now = time.time()
        self._write(replace(entry, attempts=attempts, started=now, next_attempt=now + retry_delay(attempts)))

    def failed(self, variant: Variant, error: BaseException) -> None:
        entry = self.add(variant)
        reason = str(error) or type(error).__name__
        self._write(
            replace(entry, started=None, error=reason, next_attempt=time.time() + retry_delay(entry.attempts))
        )

    def done(self, variant: Variant) -> None:
        self._path(variant.long_name).unlink(missing_ok=True)

    def waiting(self, variant: Variant) -> Waiting:
        """What the variant's table waits for, from its entry (made if missing)."""
        entry = self.add(variant)
        now, name = time.time(), variant.name
        estimate = self.estimate(variant)
        running = self.builder_running()
        if entry.started is not None and running:
            so_far = now - entry.started
            left = max(1.0, estimate - so_far)
            reason = f"the {name} table is being built ({so_far:.0f} s so far, about {estimate:.0f} s in all)"
            return Waiting(reason, _whole(left))
        if entry.next_attempt > now:
            last = entry.error or "the builder stopped before it finished"
            wait = entry.next_attempt - now
            reason = (
                f"the last build of the {name} table failed ({last}); the next attempt is in {wait:.0f} s"
            )
            return Waiting(reason, _whole(wait))
        ahead = [e for e in self.entries() if e.requested < entry.requested]
        behind = f", behind {len(ahead)} other table(s)" if ahead else ""
        waited = sum(self.estimate(get_variant(e.variant)) for e in ahead)
        return Waiting(f"the {name} table is queued for building{behind}", _whole(waited + estimate))

    def _write(self, entry: Entry, exclusive: bool = False) -> None:
        """Written whole under a temporary name (see `atomic_files`), flushed, then put in place (with
        `exclusive`, only if absent)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(entry.variant)
        with temporary_beside(path) as temporary:
            temporary.file.write(json.dumps(asdict(entry)).encode())
            temporary.seal(0o600)
            if exclusive:
                with contextlib.suppress(FileExistsError):
                    os.link(temporary.path, path)
            else:
                os.replace(temporary.path, path)


def work_through(queue: BuildQueue, store: TableStore, threads: int = 1) -> list[str]:
    """Build the due tables of the queue one at a time, if no other builder runs on the host; what was
    done, a line per table."""
    done: list[str] = []
    while True:
        with queue.builder_lock(wait=False) as held:
            if not held:
                return done
            for leftover in store.remove_leftovers():
                log.info("removed %s, left by a build that did not finish", leftover)
            while (entry := queue.next_due()) is not None:
                variant = get_variant(entry.variant)
                queue.started(variant)
                started = time.perf_counter()
                try:
                    store.build(variant, threads=threads)
                except Exception as error:  # any failure of one build is recorded, and the next one tried
                    log.warning("building the %s table failed: %s", variant.name, error)
                    queue.failed(variant, error)
                    done.append(f"{variant.name}: failed: {error}")
                else:
                    queue.done(variant)
                    done.append(f"{variant.name}: built in {time.perf_counter() - started:.1f} s")
        # A worker may have queued a table after the last look and before the lock was let go.
        if queue.next_due() is None:
            return done


def _whole(seconds: float) -> int:
    return max(1, int(seconds + 0.999))
