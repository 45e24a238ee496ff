"""The positions the search has proven, kept on disk beside the tables: shared by every worker of the
host and kept across restarts, so that a position proven once is an answer, not a search, ever after.

A record is one position's analysis: for every legal move, the bounds proven on its result (at least /
at most a draw) and its remoteness once proven. Positions are stored by their canonical form (the image
under the board's symmetries with the smallest pair of masks), moves in that form's cells, and turned
back on the way out. SQLite in WAL mode (in the standard library; readers never wait for the one
writer) holds them in one file, bounded in bytes: past the bound the oldest records go first.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..rules.canonical import canonical, inverse
from ..rules.position import Position

FILE_NAME = "proven.sqlite"
DEFAULT_MAX_BYTES = 256 * 2**20
UNKNOWN_REMOTENESS = 255  # the byte of a remoteness not proven
SEARCH, BOOK = "search", "book"  # what proved a record: a request's search, or the opening book
SCHEMA = """
CREATE TABLE IF NOT EXISTS proven (
    variant TEXT NOT NULL,
    mover INTEGER NOT NULL,
    other INTEGER NOT NULL,
    moves BLOB NOT NULL,
    exact INTEGER NOT NULL,
    origin TEXT NOT NULL,
    stored REAL NOT NULL,
    PRIMARY KEY (variant, mover, other)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS proven_by_age ON proven (stored);
"""


class MoveBounds(Protocol):
    """What was proven about one move, for the side that plays it."""

    @property
    def cell(self) -> int: ...
    @property
    def lower(self) -> int: ...  # -1, 0, +1
    @property
    def upper(self) -> int: ...
    @property
    def remoteness(self) -> int | None: ...


@dataclass(frozen=True)
class ProvenMove:
    cell: int
    lower: int
    upper: int
    remoteness: int | None


@dataclass(frozen=True)
class Record:
    moves: tuple[ProvenMove, ...]  # by cell
    origin: str  # SEARCH or BOOK: what proved it

    @property
    def exact(self) -> bool:
        return all(m.lower == m.upper and m.remoteness is not None for m in self.moves)


@dataclass(frozen=True)
class Stats:
    records: int
    exact: int
    book: int
    bytes: int
    max_bytes: int
    path: Path


class ProvenStore:
    """The proven positions of one tables directory. Safe to share between threads; one per process."""

    def __init__(self, directory: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = Path(directory) / FILE_NAME
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._owner = -1  # the process that opened the connection: a forked worker opens its own
        self._writes = 0

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._connection is None or self._owner != os.getpid():
                self._owner = os.getpid()
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(
                    self.path, timeout=5.0, check_same_thread=False, isolation_level=None
                )
                connection.execute("PRAGMA auto_vacuum=INCREMENTAL")  # before the first table: then fixed
                connection.execute("PRAGMA journal_mode=WAL")
                # WAL keeps the file whole through a crash; NORMAL may lose the last few proofs, no more.
                connection.execute("PRAGMA synchronous=NORMAL")
                connection.executescript(SCHEMA)
                self._connection = connection
            yield self._connection

    def get(self, position: Position) -> Record | None:
        """What is proven about the moves of the position, or None."""
        variant = position.variant
        symmetry, key = canonical(variant, position.mine, position.theirs)
        with self._db() as db:
            row = db.execute(
                "SELECT moves, origin FROM proven WHERE variant = ? AND mover = ? AND other = ?",
                (variant.long_name, _signed(key[0]), _signed(key[1])),
            ).fetchone()
        if row is None:
            return None
        back = inverse(symmetry)
        moves = (_move(back[cell], rest) for cell, rest in _records(row[0]))
        return Record(tuple(sorted(moves, key=lambda m: m.cell)), str(row[1]))

    def put(self, position: Position, moves: Sequence[MoveBounds], origin: str = SEARCH) -> None:
        """Keep what is proven about the position's moves, with what was kept before (the tighter bounds
        of each move win); nothing is written when nothing is proven."""
        if not any(m.lower > -1 or m.upper < 1 for m in moves):
            return
        variant = position.variant
        symmetry, key = canonical(variant, position.mine, position.theirs)
        before = self.get(position)
        known = {m.cell: m for m in (before.moves if before else ())}
        merged = [_tighter(m, known.get(m.cell)) for m in moves]
        blob = b"".join(
            bytes((symmetry[m.cell], m.lower + 1, m.upper + 1, _remoteness_byte(m.remoteness)))
            for m in merged
        )
        exact = all(m.lower == m.upper and m.remoteness is not None for m in merged)
        with self._db() as db:
            db.execute(
                "INSERT OR REPLACE INTO proven VALUES (?, ?, ?, ?, ?, ?, ?)",
                (variant.long_name, _signed(key[0]), _signed(key[1]), blob, int(exact), origin, time.time()),
            )
        self._writes += 1
        if self._writes % 256 == 0:
            self.trim()

    def trim(self) -> int:
        """Remove the oldest records, a tenth at a time, while they take more than the bound; how many
        went. The file gives the freed pages back (incremental vacuum)."""
        removed = 0
        with self._db() as db:
            while self._bytes(db) > self.max_bytes:
                count = int(db.execute("SELECT COUNT(*) FROM proven").fetchone()[0])
                if not count:
                    break
                cut = max(1, count // 10)
                db.execute(
                    "DELETE FROM proven WHERE (variant, mover, other) IN "
                    "(SELECT variant, mover, other FROM proven ORDER BY stored LIMIT ?)",
                    (cut,),
                )
                removed += cut
            db.execute("PRAGMA incremental_vacuum")
        return removed

    def stats(self) -> Stats:
        with self._db() as db:
            records, exact, book = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(exact), 0), COALESCE(SUM(origin = 'book'), 0) FROM proven"
            ).fetchone()
            return Stats(int(records), int(exact), int(book), self._bytes(db), self.max_bytes, self.path)

    def clear(self) -> int:
        with self._db() as db:
            count = int(db.execute("SELECT COUNT(*) FROM proven").fetchone()[0])
            db.execute("DELETE FROM proven")
            db.execute("PRAGMA incremental_vacuum")
        return count

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    @staticmethod
    def _bytes(db: sqlite3.Connection) -> int:
        """The bytes the records take (pages in use)."""
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
        return (int(pages) - int(free)) * int(size)


def _records(blob: bytes) -> Iterator[tuple[int, bytes]]:
    for start in range(0, len(blob), 4):
        yield blob[start], blob[start + 1 : start + 4]


def _move(cell: int, rest: bytes) -> ProvenMove:
    lower, upper, remoteness = rest[0] - 1, rest[1] - 1, rest[2]
    return ProvenMove(cell, lower, upper, None if remoteness == UNKNOWN_REMOTENESS else remoteness)


def _tighter(new: MoveBounds, old: ProvenMove | None) -> ProvenMove:
    if old is None:
        return ProvenMove(new.cell, new.lower, new.upper, new.remoteness)
    remoteness = new.remoteness if new.remoteness is not None else old.remoteness
    return ProvenMove(new.cell, max(new.lower, old.lower), min(new.upper, old.upper), remoteness)


def _remoteness_byte(remoteness: int | None) -> int:
    return UNKNOWN_REMOTENESS if remoteness is None else remoteness


def _signed(mask: int) -> int:
    """A mask of up to 64 cells as SQLite's signed 64-bit integer."""
    return mask - (1 << 64) if mask >= 1 << 63 else mask
