"""The positions the search has proven, kept on disk beside the tables: shared by every worker of the
host and kept across restarts, so that a position proven once is an answer, not a search, ever after.

A record is one position's analysis: for every legal move, the bounds proven on its result (at least /
at most a draw) and its remoteness once proven; it ends with a checksum of the whole record (its key
included), checked on every read: a record that fails it was damaged on disk, and is dropped and
searched again, never served. Positions are stored by their canonical form (the image under the
board's symmetries with the smallest pair of masks), moves in that form's cells, and turned back on the
way out. SQLite in WAL mode (in the standard library; readers never wait for the one writer) holds them
in one file (`proven_file`: what happens when it cannot be used), bounded in bytes, its write-ahead log
included: past the bound the oldest records go first.
"""

from __future__ import annotations

import sqlite3
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..errors import ProvenStoreError
from ..rules.canonical import canonical, inverse
from ..rules.position import Position
from ..rules.variants import Variant
from .proven_file import OK, UNUSABLE, Health, StoreFile
from .proven_upkeep import checkpoint, trim, used_bytes

FILE_NAME = "proven.sqlite"
DEFAULT_MAX_BYTES = 256 * 2**20
UNKNOWN_REMOTENESS = 255  # the byte of a remoteness not proven
SEARCH, BOOK = "search", "book"  # what proved a record: a request's search, or the opening book
TRIM_EVERY = 256  # writes of one process between two looks at the bound
CHECK_BYTES = 4
KEY = "variant = ? AND mover = ? AND other = ?"


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
    bytes: int  # the records' pages and the write-ahead log
    max_bytes: int
    path: Path
    wal_bytes: int
    health: Health


class ProvenStore:
    """The proven positions of one tables directory. Safe to share between threads; one per process.
    It never raises for its file's sake (a miss, a write not made: see `proven_file`), except `stats`
    and `clear`, which the command line calls: ProvenStoreError saying why."""

    def __init__(self, directory: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = Path(directory) / FILE_NAME
        self.max_bytes = max_bytes
        self._file = StoreFile(self.path)
        self._writes = 0

    @property
    def health(self) -> Health:
        return self._file.health

    def open(self) -> Health:
        return self._file.open()

    def get(self, position: Position) -> Record | None:
        """What is proven about the moves of the position, or None (also when the store cannot say)."""
        variant = position.variant
        symmetry, key = canonical(variant, position.mine, position.theirs)
        where = (variant.long_name, _signed(key[0]), _signed(key[1]))
        row = self._file.read(
            lambda db: db.execute(f"SELECT moves, exact, origin FROM proven WHERE {KEY}", where).fetchone(),
            None,
        )
        if row is None:
            return None
        blob, exact, origin = bytes(row[0]), int(row[1]), str(row[2])
        if _check(where, blob[:-CHECK_BYTES], exact, origin) != blob[-CHECK_BYTES:]:
            self._file.write(lambda db: db.execute(f"DELETE FROM proven WHERE {KEY}", where), None)
            return None  # damaged on disk: searched again, and stored afresh
        back = inverse(symmetry)
        moves = (_move(back[cell], rest) for cell, rest in _records(blob[:-CHECK_BYTES]))
        return Record(tuple(sorted(moves, key=lambda m: m.cell)), origin)

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
        records = b"".join(
            bytes((symmetry[m.cell], m.lower + 1, m.upper + 1, _remoteness_byte(m.remoteness)))
            for m in merged
        )
        exact = int(all(m.lower == m.upper and m.remoteness is not None for m in merged))
        where = (variant.long_name, _signed(key[0]), _signed(key[1]))
        blob = records + _check(where, records, exact, origin)
        self._file.write(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO proven VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*where, blob, exact, origin, time.time()),
            ),
            None,
        )
        self._writes += 1
        if self._writes % TRIM_EVERY == 0:
            self.trim()

    def trim(self) -> int:
        """Keep to the bound (see `proven_upkeep`); how many records went."""
        return trim(self._file, self.max_bytes)

    def stats(self) -> Stats:
        def counted(db: sqlite3.Connection) -> tuple[int, int, int]:
            records, exact, book = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(exact), 0), COALESCE(SUM(origin = 'book'), 0) FROM proven"
            ).fetchone()
            return int(records), int(exact), int(book)

        found = self._file.read(counted, None)
        if found is None:
            raise ProvenStoreError(self._why())
        wal = self._file.wal_bytes()
        return Stats(*found, used_bytes(self._file), self.max_bytes, self.path, wal, self.health)

    def clear(self, book: Variant | None = None) -> int:
        """Remove every record a search proved, or (`book`) the opening book's records of one variant
        (books take hours to build: they go only by name); how many went."""
        origin, variant = (SEARCH, None) if book is None else (BOOK, book.long_name)

        def removed(db: sqlite3.Connection) -> int:
            where = "origin = ?" + ("" if variant is None else " AND variant = ?")
            arguments = (origin,) if variant is None else (origin, variant)
            count = int(db.execute(f"DELETE FROM proven WHERE {where}", arguments).rowcount)
            checkpoint(db)
            return count

        count = self._file.write(removed, None)
        if count is None:
            raise ProvenStoreError(self._why())
        return count

    def close(self) -> None:
        self._file.close()

    def _why(self) -> str:
        health = self.health
        if health.state == OK:
            return f"the store of proven positions {self.path} is busy: try again"
        state = "cannot be used" if health.state == UNUSABLE else f"is {health.state}"
        fix = f"; it is a cache: remove {self.path.name} (and its -wal and -shm files) to start afresh"
        return f"the store of proven positions {self.path} {state}: {health.problem}" + (
            fix if health.state == UNUSABLE else ""
        )


def _check(key: tuple[str, int, int], records: bytes, exact: int, origin: str) -> bytes:
    """The checksum of a record, its key included (a record copied onto another key fails it)."""
    whole = f"{key[0]}|{key[1]}|{key[2]}|{exact}|{origin}|".encode() + records
    return zlib.crc32(whole).to_bytes(CHECK_BYTES, "little")


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
