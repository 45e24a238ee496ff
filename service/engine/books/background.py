"""The Connect Four book's build in the background: started by a server's worker when a Connect Four
position is asked about and the book is missing (`supply.open_books`), at most once per attempt
delay on the whole host (`builds`), and only when the host has the room for it; and its state as
/readyz reports it.

What the build takes was measured with `/usr/bin/time -v` on the command this module starts (`python -c
BUILD_ENTRY --dir DIR`, 2026-12-06): a peak of 1,467,756 kB resident (1.50 GB) in 25 s, and one file
of 62,769,408 bytes, written under a temporary name in the books folder and then renamed (its 122,624
blocks of output were that file alone). A build is refused, with one line that says why, when the
memory a new process may take (the cgroup's limit less its use, or MemAvailable: `tables.room`) is
less than that peak and a tenth, or the disk less than the file and 64 MB beside it.
"""

from __future__ import annotations

import importlib.util
import logging
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..rules.variants import CONNECT4, Variant
from ..tables.builder import spawn_build
from ..tables.locks import file_lock
from ..tables.room import Room, disk_room, memory_room, size_text
from ..tables.spawn import LOST, Child
from ..tables.store import TableStore
from .builds import BUILD_LOCK, Attempts, BookBuilds, Clock
from .file import file_name
from .published import MODULE, PACKAGE
from .source import FOLDER, RECHECK_SECONDS

PEAK_MEMORY = 1_467_756 * 1024  # bytes resident at the build's peak (measured: see above)
MEMORY_MARGIN = 1.1
BOOK_BYTES = 62_769_408  # the book file, the only one the build writes
DISK_MARGIN = 64 * 2**20  # left free beside it, as for a table
START_GRACE_SECONDS = 60.0  # a build just started has this long to take the build lock (its imports)
# `main` by -c, not -m: the front door imports books.supply, which -m would then run a second time.
BUILD_ENTRY = "import sys; from service.engine.books.supply import main; sys.exit(main(sys.argv[1:]))"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BookBuild:
    """The Connect Four book's build, as /readyz reports it."""

    state: str  # built, missing, building, waiting (for the next attempt) or failed (not buildable here)
    reason: str | None = None
    retry_after: int | None = None  # seconds until the next attempt, when waiting
    attempts: int = 0  # since the last build that succeeded


class BackgroundBuild:
    """Starts the Connect Four book's build into `directory` when it is asked for and missing: one look
    per process every RECHECK_SECONDS at most, a start only when the host's record says an attempt is
    due, no build holds the lock and the host has the room."""

    def __init__(self, directory: Path, clock: Clock = time.time) -> None:
        self.directory = directory
        self.folder = directory / FOLDER
        self.builds = BookBuilds(self.folder, clock)
        self.clock = clock
        self._store = TableStore(directory)
        self._last = -RECHECK_SECONDS
        self._lock = threading.Lock()
        self._child: Child | None = None  # the build this process started, until its end is recorded
        self._started: float | None = None  # when it started, as recorded
        self._said: str | None = None

    def __call__(self, variant: Variant) -> Child | None:
        now = time.monotonic()
        with self._lock:
            if variant != CONNECT4 or now - self._last < RECHECK_SECONDS:
                return None
            self._last = now
        try:
            return self.start()
        except OSError as error:  # the record cannot be written (a full disk): no build, and no 500
            self._say(f"the Connect Four book's build is not started: {error}")
            return None

    def start(self) -> Child | None:
        """Start the build unless it cannot be done here, its attempt is not due, one runs, or the host
        lacks the room (that attempt is then refused and recorded): the process, or None."""
        self._reap()
        why = self.cannot_build()
        if why:
            self._say(f"the Connect Four book is missing and is not built here: {why}")
            return None
        with self.builds.deciding(wait=False) as mine:
            if not mine or not self.builds.due() or self.running(self.builds.read()):
                return None
            short = self.short_of_room()
            if short:
                refused = self.builds.refused(short)
                self._say(f"the Connect Four book is not built now: {short}; {_next(refused, self.clock())}")
                return None
            self._started = self.builds.starting().started
            log.info("building the Connect Four book in the background into %s", self.directory)
            try:
                self._child = spawn_build(["-c", BUILD_ENTRY, "--dir", str(self.directory)], self.folder)
            except OSError as error:  # no interpreter to run, no process to be had
                self.builds.ended(f"the build could not be started: {error}")
                return None
        return self._child

    def cannot_build(self) -> str | None:
        """Why no build can be made here at all (not a matter of waiting), or None."""
        why = self._store.unwritable()
        if why is None and importlib.util.find_spec(MODULE) is None:
            why = f"{PACKAGE} is not installed"
        return why

    def short_of_room(self) -> str | None:
        """What the host lacks for a build now, in one line, or None."""
        memory: Room | None = memory_room()
        need = int(PEAK_MEMORY * MEMORY_MARGIN)
        if memory is not None and memory.free < need:
            free = size_text(memory.free)
            return f"it needs about {size_text(need)} of memory, and {free} is free ({memory.where})"
        disk = disk_room(self.folder)
        if disk.free < BOOK_BYTES + DISK_MARGIN:
            beside = size_text(DISK_MARGIN)
            return (
                f"it needs {size_text(BOOK_BYTES)} on disk with {beside} left free beside it, "
                f"and {size_text(disk.free)} is {disk.where}"
            )
        return None

    def running(self, attempts: Attempts) -> bool:
        """Whether a build is under way: it holds the lock, or it started a moment ago and has not said
        how it ended (its lock is taken once its imports are done)."""
        if self._child is not None and self._child.poll() is None:
            return True
        with file_lock(self.folder / BUILD_LOCK, wait=False) as free:
            if not free:
                return True
        started = attempts.started
        fresh = started is not None and self.clock() - started < START_GRACE_SECONDS
        return fresh and attempts.ended is None

    def report(self, folders: Sequence[Path]) -> BookBuild:
        """The build's state: built when a book file is in one of `folders` (not read: a glance)."""
        if any((folder / file_name(CONNECT4)).exists() for folder in folders):
            return BookBuild("built")
        why = self.cannot_build()
        if why:
            return BookBuild("failed", why)
        try:
            self._reap()
            attempts = self.builds.read()
            building = self.running(attempts)
        except OSError as error:  # its lock cannot be opened: nothing can be built here
            return BookBuild("failed", f"its build's record cannot be used here: {error}")
        if building:
            return BookBuild("building", attempts=attempts.count)
        left = attempts.next_attempt - self.clock()
        last = attempts.reason or (
            "the last build stopped before it finished" if attempts.started is not None else None
        )
        if attempts.count and left > 0:
            return BookBuild("waiting", last, max(1, int(left + 0.999)), attempts.count)
        asked = "built in the background when a Connect Four position is asked about"
        return BookBuild("missing", f"{last}; {asked}" if last else asked, attempts=attempts.count)

    def _reap(self) -> None:
        """Record how this process's build ended when it could not say so itself (killed by a signal,
        the kernel's out-of-memory killer's SIGKILL among them)."""
        child = self._child
        code = None if child is None else child.poll()
        if code is None:
            return
        if code in (0, LOST):
            self._child = None
            return
        ended = f"the build exited with {code}" if code > 0 else f"the build was killed by {_signal(-code)}"
        if code == -signal.SIGKILL:
            ended += " (as the kernel's out-of-memory killer does)"
        with self.builds.deciding(wait=False) as mine:
            if not mine:  # another process is deciding: recorded at the next look
                return
            self._child = None
            recorded = self.builds.read()
            if recorded.started == self._started and recorded.ended is None:  # it said nothing itself
                self.builds.ended(ended)
                self._say(f"the Connect Four book's build failed: {ended}")

    def _say(self, line: str) -> None:
        """Log a warning once per reason in this process: a refused attempt is tried again for hours."""
        if line != self._said:
            self._said = line
            log.warning("%s", line)


def start_build(directory: Path) -> Child | None:
    """Start the Connect Four book's build into `directory` now, on the rules of BackgroundBuild."""
    return BackgroundBuild(directory).start()


def book_build_report(on_missing: Callable[[Variant], object] | None, folders: Sequence[Path]) -> BookBuild:
    """The Connect Four book's build as the books' `on_missing` (a BackgroundBuild, or None when the
    service builds no book) sees it; `folders`: where a book is looked for."""
    if isinstance(on_missing, BackgroundBuild):
        return on_missing.report(folders)
    if any((folder / file_name(CONNECT4)).exists() for folder in folders):
        return BookBuild("built")
    return BookBuild("missing", "this service builds no book: `sanmoku book build connect4` builds it")


def _next(attempts: Attempts, now: float) -> str:
    return f"attempt {attempts.count}, the next one in {attempts.next_attempt - now:.0f} s"


def _signal(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
