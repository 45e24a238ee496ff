"""The SQLite file of the cache of proven positions: opened once per process (again after a fork),
checked to be ours, used with short waits, and never the cause of a failed answer.

The store is a cache. When its file cannot be used, `read` and `write` give the caller's default (a
miss, a write not made) and `health` says why; the log says it once per change:
- busy (another process writes for longer than BUSY_SECONDS, or this one's other threads hold it for
  longer than LOCK_SECONDS): a miss, nothing else;
- a full disk: writes wait RETRY_SECONDS, reads go on;
- a directory or file this account cannot write (a read-only mount): the file is read as it is, with
  nothing written. A reader of a WAL file needs its -shm file: where one is there (left by a writer that
  did not close), the records still in the write-ahead log are read too; where none is, and none can be
  made, the file alone is read (immutable), and `health` says when a write-ahead log was left unread;
- a damaged, truncated or foreign file, or one of another format: not used, and looked at again after
  RETRY_SECONDS (an operator may have replaced it). Nothing here ever deletes or rewrites such a file.

The write-ahead log is kept short: it is checkpointed once it holds its limit (`proven_schema`), and
folded whole into the file when the store trims (`proven_upkeep`) and when a connection closes, the
process's end included: a file closed so holds every record by itself, as a copy or a read-only mount
of it needs.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sqlite3
import threading
import time
import urllib.parse
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .proven_schema import JOURNAL_LIMIT_BYTES, UnusableFileError, check_ours, connect, prepare

T = TypeVar("T")
LOCK_SECONDS = 0.1  # the wait for this process's other threads
RETRY_SECONDS = 30.0  # before a file that failed is tried again
OK, READ_ONLY, UNUSABLE = "ok", "read-only", "unusable"
# SQLite's primary result codes (the low byte of an extended one)
BUSY, LOCKED, READONLY, CORRUPT, FULL, CANTOPEN, NOTADB = 5, 6, 8, 11, 13, 14, 26

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Health:
    state: str  # OK, READ_ONLY (answers read it, nothing is written) or UNUSABLE (answers do without it)
    problem: str | None = None  # why, naming no path: it goes into public answers (/readyz)


class StoreFile:
    """One process's connection to the file, shared by its threads (one statement at a time); its
    write-ahead log kept to `journal_bytes`."""

    def __init__(self, path: Path, journal_bytes: int = JOURNAL_LIMIT_BYTES) -> None:
        self.path = path
        self.journal_bytes = journal_bytes
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._owner = -1  # the process that opened the connection: a forked worker opens its own
        self._inherited: list[sqlite3.Connection] = []  # never closed by a child: they are its parent's
        self._writable = False
        self._health = Health(OK)
        self._retry_at = 0.0  # while UNUSABLE, when to open the file again
        self._writes_paused_until = 0.0  # after a full disk
        self._read_only_why = ""
        self._ended = False  # closed at the process's end: not opened again

    @property
    def health(self) -> Health:
        return self._health

    def read(self, work: Callable[[sqlite3.Connection], T], default: T) -> T:
        return self._use(work, default, write=False)

    def write(self, work: Callable[[sqlite3.Connection], T], default: T) -> T:
        return self._use(work, default, write=True)

    def open(self) -> Health:
        """Open the file now (a worker's start, a command), and say how it can be used."""
        self.read(lambda db: None, None)
        return self._health

    def wal_bytes(self) -> int:
        try:
            return os.stat(f"{self.path}-wal").st_size
        except OSError:
            return 0

    def close(self, end: bool = False) -> None:
        """Fold the write-ahead log into the file (unless another process reads it just then) and let go
        of the connection: opened again at the next use, unless `end` (the process ends)."""
        with self._lock:
            self._ended = self._ended or end
            if self._connection is not None and self._owner == os.getpid():
                if self._writable:
                    with contextlib.suppress(sqlite3.Error):
                        self._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                self._connection.close()
            self._connection = None

    def _use(self, work: Callable[[sqlite3.Connection], T], default: T, write: bool) -> T:
        if not self._lock.acquire(timeout=LOCK_SECONDS):
            return default  # this process's other threads hold it: a miss
        try:
            if self._ended:
                return default
            db = self._connected()
            if db is None or (write and (not self._writable or time.monotonic() < self._writes_paused_until)):
                return default
            try:
                done = work(db)
            except sqlite3.Error as error:
                self._failed(error)
                return default
            self._report(self._usable())
            return done
        finally:
            self._lock.release()

    def _connected(self) -> sqlite3.Connection | None:
        if self._owner != os.getpid():
            if self._connection is not None:
                self._inherited.append(self._connection)
            self._connection, self._owner = None, os.getpid()
        if self._connection is None and time.monotonic() >= self._retry_at:
            try:
                self._connection, self._writable = self._opened()
                _open_files.add(self)
            except (sqlite3.Error, OSError, UnusableFileError) as error:
                if _code(error) not in (BUSY, LOCKED):  # another process's lock: tried again at the next use
                    self._unusable(_reason(error))
        return self._connection

    def _usable(self) -> Health:
        """The health of a file that answered: read-only, or writes paused, or OK."""
        if not self._writable:
            return Health(READ_ONLY, self._read_only_why)
        if time.monotonic() < self._writes_paused_until:
            return self._health
        return Health(OK)

    def _opened(self) -> tuple[sqlite3.Connection, bool]:
        """A connection that may write, else (a read-only directory or file) one that reads as it is."""
        try:  # made or opened for writing here first: SQLite's own message would not say why it failed
            self.path.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644))
        except OSError as error:
            if not self.path.is_file():
                raise
            return self._read_only(f"it cannot be written ({_reason(error)})")
        db = connect(str(self.path))
        try:
            prepare(db, self.journal_bytes)
        except sqlite3.OperationalError as error:
            if _code(error) == FULL:  # what it holds can still be read
                self._failed(error)
                return db, True
            db.close()
            if _code(error) not in (READONLY, CANTOPEN):
                raise
            return self._read_only(f"its directory cannot be written ({error})")  # no room for the log
        except BaseException:
            db.close()
            raise
        return db, True

    def _read_only(self, why: str) -> tuple[sqlite3.Connection, bool]:
        """The file as it is, if it is ours: with its write-ahead log where its -shm file is there (or can
        be made), else the file alone (immutable: SQLite reads no log without a -shm file, and a directory
        that cannot be written has no room for one)."""
        self._read_only_why = why
        try:
            return self._reader("mode=ro"), False
        except sqlite3.OperationalError as error:
            if _code(error) != CANTOPEN:
                raise
        unread = self.wal_bytes()
        if unread:
            self._read_only_why = (
                f"{why}; its write-ahead log ({unread} bytes) cannot be read without its -shm file: the "
                "records written since its last checkpoint are not seen"
            )
        return self._reader("mode=ro&immutable=1"), False

    def _reader(self, options: str) -> sqlite3.Connection:
        db = connect(f"file:{urllib.parse.quote(str(self.path))}?{options}", uri=True)
        try:
            check_ours(db)
        except BaseException:
            db.close()
            raise
        return db

    def _failed(self, error: sqlite3.Error) -> None:
        code = _code(error)
        if code in (BUSY, LOCKED):
            return  # another writer: this once, a miss
        if code == FULL:
            self._writes_paused_until = time.monotonic() + RETRY_SECONDS
            self._report(Health(READ_ONLY, f"the disk is full ({error}): nothing is written for a while"))
            return
        if code == READONLY:
            self._writable = False
            self._read_only_why = f"it cannot be written ({error})"
            self._report(Health(READ_ONLY, self._read_only_why))
            return
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._unusable(_reason(error))

    def _unusable(self, why: str) -> None:
        self._retry_at = time.monotonic() + RETRY_SECONDS
        self._report(Health(UNUSABLE, why))

    def _report(self, health: Health) -> None:
        if health != self._health:
            if health.state == OK:
                log.info("the cache of proven positions at %s is in use again", self.path)
            else:
                log.warning(
                    "the cache of proven positions at %s is %s, answers do without it where they must: %s",
                    self.path,
                    health.state,
                    health.problem,
                )
        self._health = health


_open_files: weakref.WeakSet[StoreFile] = weakref.WeakSet()  # this process's, for its end


@atexit.register
def _close_at_the_end() -> None:
    """Fold every write-ahead log this process wrote into its file as it ends (a gunicorn worker's exit,
    a command's end): the other workers' connections keep SQLite from doing it at the last close."""
    for file in list(_open_files):
        file.close(end=True)


def _code(error: BaseException) -> int:
    return int(getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


def _reason(error: BaseException) -> str:
    """What went wrong, without a path: an OSError's message names its file."""
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    if isinstance(error, sqlite3.DatabaseError) and _code(error) in (CORRUPT, NOTADB):
        return f"the file is damaged or is no database ({error})"
    return str(error)
