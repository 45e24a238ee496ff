"""Keeping the cache of proven positions within its bound in bytes: the file holds the records and the
write-ahead log its limit (`proven_schema.journal_limit`: a 32nd of the bound, at most 4 MB), and
the file's share is the rest.

What is measured is the records' own bytes: their count times their size as SQLite lays them out,
from a sample of the oldest and the newest. Not the pages in use: the records are keyed by position,
so the oldest are spread over the whole table, and removing them leaves room inside pages that new
records fill, but frees few pages (a tenth of the records removed freed 2 % of the pages; SQLite merges
a page only once it is a third full). A trim that counted pages found itself still over after each
round and went on until most of the cache was gone.

Past HIGH_SHARE of the file's share, the oldest records go, down to LOW_SHARE: a file kept so settles at
about its share, its pages about three quarters full (measured: `tests/bench/proven_trim_bench.py`).
They go in short statements (a trim never holds the write lock for long: the other workers' writes
would wait, then miss), each small beside the log's limit; the log is folded back into the file between
them when it grows past twice its limit, and the trim stops where it cannot be (a reader holds it):
never a deletion more because the log is long. Whole pages freed beyond the file's share go back to the
disk (incremental vacuum). Every step gives way on a busy file: the next trim goes on.

A trim runs off the writers' path: `Upkeep` starts one every TRIM_EVERY writes of a process, on a thread
of its own, and a request's `put` never waits for it; so does a fold of a log grown past twice its limit.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from .proven_file import StoreFile
from .proven_schema import JOURNAL_LIMIT_BYTES, PAGE_BYTES, journal_limit

T = TypeVar("T")
Starter = Callable[[Callable[[], object]], None]  # starts work on another thread, and returns at once

TRIM_EVERY = 256  # writes of one process between two looks at the bound
HIGH_SHARE, LOW_SHARE = 0.75, 0.7  # of the file's share: the records' bytes that start a trim, and leave
SAMPLE = 500  # records at each end of the store's age, whose sizes stand for all
JOURNAL_SLACK = 2  # the log, in its limits, past which a trim folds it back before going on
# A step that finds the file busy (another process writes, or reads the log) is tried again after a
# pause, a few times: busy writers in two processes left a fold of the log no moment once in two.
BUSY_TRIES, BUSY_PAUSE = 5, 0.02
# Bytes of a record besides its variant (twice: in the table and in the age index), its masks (twice),
# its moves and its origin: the headers, `stored` (twice), the cells' pointers. Measured with SQLite's
# dbstat on stores of 3x3 to 8x8 records: the sizes so counted are within 2 % of the pages' bytes in use.
RECORD_BYTES = 37

log = logging.getLogger(__name__)


def start_thread(work: Callable[[], object]) -> None:
    """A thread of its own (a server under gevent passes its own starter: there `threading` is
    gevent's, and a Thread is a greenlet)."""
    threading.Thread(target=work, name="proven-cache-trim", daemon=True).start()


class Upkeep:
    """Keeps a store's file in shape off the writers' path, on threads that `start` gives, one at a time:
    a trim every `every` writes of this process, and the write-ahead log folded back into the file as
    soon as a write finds it past JOURNAL_SLACK times its limit (busy writers in several processes leave
    SQLite's own checkpoints no moment when no one reads the log, and it grew to megabytes)."""

    def __init__(
        self,
        file: StoreFile,
        trim: Callable[[], object],
        start: Starter = start_thread,
        every: int = TRIM_EVERY,
    ) -> None:
        self._file, self._trim, self._start, self._every = file, trim, start, every
        self._lock = threading.Lock()
        self._writes = 0
        self._running = False

    def wrote(self) -> None:
        """One write more: the caller (a request's search) returns at once, whatever is started."""
        long_log = self._file.wal_bytes() > JOURNAL_SLACK * self._file.journal_bytes
        with self._lock:
            self._writes += 1
            if self._running:
                return  # the next write after it starts what is due
            if self._writes >= self._every:
                work, self._writes = self._trim, 0
            elif long_log:
                work = partial(_persisting, self._file, _folded, False)
            else:
                return
            self._running = True
        try:
            self._start(partial(self._run, work))
        except Exception:  # no thread to be had (a process at its limit): the next writes try again
            log.exception("the upkeep of the cache of proven positions could not be started")
            self._done()

    def _run(self, work: Callable[[], object]) -> None:
        try:
            work()
        except Exception:  # never a thread's silent death: said once per run that failed
            log.exception("the upkeep of the cache of proven positions failed")
        finally:
            self._done()

    def _done(self) -> None:
        with self._lock:
            self._running = False


@dataclass(frozen=True)
class Bound:
    """A store's bound in bytes, shared between the write-ahead log and the file."""

    max_bytes: int

    @property
    def journal(self) -> int:
        return journal_limit(self.max_bytes)

    @property
    def file(self) -> int:
        return max(0, self.max_bytes - self.journal)

    @property
    def step(self) -> int:
        """Records removed, or pages freed, by one statement: each touches a page or two, and a
        statement's pages stay in the log until it ends."""
        return max(8, self.journal // PAGE_BYTES // 16)


@dataclass(frozen=True)
class Size:
    records: int
    record_bytes: float  # on average, as SQLite lays one out

    @property
    def bytes(self) -> float:
        return self.records * self.record_bytes


def trim(file: StoreFile, max_bytes: int) -> int:
    """Keep the store to `max_bytes` (see above); how many records went."""
    bound = Bound(max_bytes)
    if not _log_in_hand(file, bound):
        return 0  # a reader holds a long log: nothing is removed that would make it longer
    size = file.read(_size, None)
    removed = 0
    if size is not None and size.bytes > HIGH_SHARE * bound.file:
        goal = math.ceil(size.records * (1 - LOW_SHARE * bound.file / size.bytes))
        # Down to the age of the goal-th oldest, not a count: another process trimming at the same time
        # removes the same records, not as many again.
        cutoff = file.read(partial(_age_of, rank=goal - 1), None)
        if cutoff is not None:
            removed = _remove_up_to(file, cutoff, bound)
    _give_back(file, bound)
    _persisting(file, _folded, False)
    return removed


def used_bytes(file: StoreFile) -> int:
    """The bytes the records take (pages in use), and the write-ahead log."""
    return file.read(_pages_in_use, 0) + file.wal_bytes()


def checkpoint(db: sqlite3.Connection) -> None:
    """Give every freed page back, a step at a time with the log folded between, and fold the
    write-ahead log into the file (when no reader holds it; else next time): after a removal of many
    records at once."""
    step = JOURNAL_LIMIT_BYTES // PAGE_BYTES // 16  # a trim's step at the longest log
    free = _free_pages(db)
    while free > 0 and _folded(db):
        _vacuum(db, step)
        left = _free_pages(db)
        if left >= free:
            break  # a file made without incremental vacuum keeps its free pages for the next records
        free = left
    _folded(db)


def _remove_up_to(file: StoreFile, cutoff: float, bound: Bound) -> int:
    removed = 0
    while True:
        gone: int = _persisting(file, partial(_delete_oldest, cutoff=cutoff, count=bound.step), -1)
        if gone < 0:
            return removed  # busy, or not writable
        removed += gone
        if gone < bound.step or not _log_in_hand(file, bound):
            return removed  # done; or a reader holds the log, and the next trim goes on


def _give_back(file: StoreFile, bound: Bound) -> None:
    """Free pages beyond the file's share go back to the disk; within it, they take the next records."""
    pages = file.read(partial(_pages_over, share=bound.file), 0)
    while pages > 0:
        step = min(pages, bound.step)
        if not _persisting(file, partial(_vacuum, pages=step), False):
            return
        pages -= step
        if not _log_in_hand(file, bound):
            return


def _log_in_hand(file: StoreFile, bound: Bound) -> bool:
    """Whether the write-ahead log is within JOURNAL_SLACK times its limit, folded back if it was not."""
    return file.wal_bytes() <= JOURNAL_SLACK * bound.journal or _persisting(file, _folded, False)


def _persisting(file: StoreFile, work: Callable[[sqlite3.Connection], T], failed: T) -> T:
    """`work` written, tried again after a pause while the file is busy (it gives `failed`), a few
    times: an upkeep's thread can wait, a request could not."""
    for attempt in range(BUSY_TRIES):
        done = file.write(work, failed)
        if done != failed:
            return done
        time.sleep(BUSY_PAUSE * (attempt + 1))
    return failed


def _folded(db: sqlite3.Connection) -> bool:
    """Whether the write-ahead log is now folded into the file and cut to nothing (not when a reader or
    another writer holds it: SQLite says busy)."""
    busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
    return int(busy) == 0


def _vacuum(db: sqlite3.Connection, pages: int) -> bool:
    """Free up to `pages` pages in one transaction. Each step of the pragma frees one page, and
    `execute` steps a statement that returns no columns once: `executescript` steps it to its end."""
    db.executescript(f"PRAGMA incremental_vacuum({int(pages)})")
    return True


def _size(db: sqlite3.Connection) -> Size:
    records = int(db.execute("SELECT COUNT(*) FROM proven").fetchone()[0])
    sample = [
        row
        for order in ("ASC", "DESC")
        for row in db.execute(
            "SELECT LENGTH(CAST(variant AS BLOB)), mover, other, LENGTH(moves), LENGTH(CAST(origin AS BLOB))"
            f" FROM proven ORDER BY stored {order} LIMIT ?",
            (SAMPLE,),
        )
    ]
    if not sample:
        return Size(records, 0.0)
    total = sum(
        2 * variant + 2 * (_integer_bytes(mover) + _integer_bytes(other)) + moves + origin + RECORD_BYTES
        for variant, mover, other, moves, origin in sample
    )
    return Size(records, total / len(sample))


def _integer_bytes(value: int) -> int:
    """The bytes SQLite's record format gives an integer."""
    if 0 <= value <= 1:
        return 0
    for size in (1, 2, 3, 4, 6):
        if -(1 << (8 * size - 1)) <= value < 1 << (8 * size - 1):
            return size
    return 8


def _age_of(db: sqlite3.Connection, rank: int) -> float | None:
    row = db.execute("SELECT stored FROM proven ORDER BY stored LIMIT 1 OFFSET ?", (max(0, rank),)).fetchone()
    return None if row is None else float(row[0])


def _delete_oldest(db: sqlite3.Connection, cutoff: float, count: int) -> int:
    return int(
        db.execute(
            "DELETE FROM proven WHERE (variant, mover, other) IN "
            "(SELECT variant, mover, other FROM proven WHERE stored <= ? ORDER BY stored LIMIT ?)",
            (cutoff, count),
        ).rowcount
    )


def _free_pages(db: sqlite3.Connection) -> int:
    return int(db.execute("PRAGMA freelist_count").fetchone()[0])


def _pages_over(db: sqlite3.Connection, share: int) -> int:
    """The free pages that can go back to the disk: no more than the file holds beyond `share`."""
    pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    size = int(db.execute("PRAGMA page_size").fetchone()[0])
    return min(_free_pages(db), max(0, pages - share // size))


def _pages_in_use(db: sqlite3.Connection) -> int:
    count = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    return (int(count) - int(free)) * int(size)
