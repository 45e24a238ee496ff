"""The positions the search has proven, kept on disk beside the tables: shared by every worker of the
host and kept across restarts, so that a position proven once is an answer, not a search, ever after.

A record is one position's analysis: for every legal move, the bounds proven on its result (at least /
at most a draw) and its remoteness once proven; it ends with a checksum of the whole record (its key
included), checked on every read: a record that fails it was damaged on disk, and is dropped and
searched again, never served. Positions are stored by their canonical form (the image under the
board's symmetries with the smallest pair of masks), moves in that form's cells, and turned back on the
way out. SQLite in WAL mode (in the standard library; readers never wait for the one writer) holds them
in one file (`proven_file`: what happens when it cannot be used), bounded in bytes, its write-ahead log
included: past the bound the oldest records go first, removed off the writers' path (`proven_upkeep`).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..errors import ProvenCacheError
from ..rules.canonical import canonical, inverse
from ..rules.known_move import KnownMove
from ..rules.position import Mark, Position
from ..rules.variants import Variant, get_variant
from .proven_file import OK, UNUSABLE, Health, StoreFile
from .proven_record import (
    BOOK,
    Key,
    Origin,
    Record,
    checked,
    encoded,
    exact_flag,
    identity,
    to_keep,
)
from .proven_schema import journal_limit
from .proven_upkeep import Starter, Upkeep, checkpoint, start_thread, trim, used_bytes

FILE_NAME = "proven.sqlite"
DEFAULT_MAX_BYTES = 256 * 2**20
KEY = "variant = ? AND mover = ? AND other = ?"
# A door's records: those of this format ("search/...") and of before origins were kept ("search")
DOOR = "(origin = ? OR origin LIKE ?)"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StoredRow:
    """A record as the store holds it, before any check."""

    key: Key  # the variant's long name, the canonical form's masks (as `stored_mask` writes them)
    blob: bytes
    exact: int
    origin: str

    @property
    def variant(self) -> Variant:
        return get_variant(self.key[0])

    @property
    def position(self) -> Position:
        """The canonical form's position (X the side to move; which mark moves changes no value)."""
        mover, other = (mask_of(stored) for stored in self.key[1:])
        return Position(self.variant, mover, other, Mark.X)

    def checked(self) -> tuple[Record | None, str]:
        return checked(self.key, self.variant, self.blob, self.exact, self.origin, identity(self.variant))


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


class ProvenCache:
    """The proven positions of one tables directory. Safe to share between threads; one per process.
    It never raises for its file's sake (a miss, a write not made: see `proven_file`), except `stats`
    and `clear`, which the command line calls: ProvenCacheError saying why."""

    def __init__(
        self, directory: Path, max_bytes: int = DEFAULT_MAX_BYTES, start_trim: Starter = start_thread
    ) -> None:
        """`start_trim` starts the trim that `put` asks for on another thread (`proven_upkeep`)."""
        self.path = Path(directory) / FILE_NAME
        self.max_bytes = max_bytes
        self._file = StoreFile(self.path, journal_limit(max_bytes))
        self._upkeep = Upkeep(self._file, lambda: self.trim(), start_trim)

    @property
    def health(self) -> Health:
        return self._file.health

    def open(self) -> Health:
        return self._file.open()

    def get(self, position: Position) -> Record | None:
        """What is proven about the moves of the position, or None (also when the store cannot say). A
        record that fails its checks (`proven_record.checked`) is dropped: searched again, never served."""
        variant = position.variant
        symmetry, key = canonical(variant, position.mine, position.theirs)
        where = key_of(variant, key)
        row = self._file.read(
            lambda db: db.execute(f"SELECT moves, exact, origin FROM proven WHERE {KEY}", where).fetchone(),
            None,
        )
        if row is None:
            return None
        record, why = checked(where, variant, bytes(row[0]), int(row[1]), str(row[2]), inverse(symmetry))
        if record is None:
            log.warning("a stored proof of a %s position was dropped: %s", variant.name, why)
            self._delete(where)
        return record

    def put(self, position: Position, moves: Sequence[KnownMove], origin: Origin) -> None:
        """Keep what is proven about the position's moves, with what was kept before (the tighter bounds
        of each move win); nothing is written when nothing is proven. `origin` says what proved them: a
        prover that is not sound on the position's game is refused (ValueError), never stored."""
        keep = to_keep(position, moves, origin, self.get)
        if keep is None:
            return
        variant = position.variant
        merged, kept = keep.moves, keep.origin
        where = key_of(variant, keep.masks)
        blob = encoded(where, merged, keep.symmetry, kept)
        self._file.write(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO proven VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*where, blob, exact_flag(merged), kept.text, time.time()),
            ),
            None,
        )
        self._upkeep.wrote()  # now and then a trim, on a thread of its own: this caller never waits for it

    def trim(self) -> int:
        """Keep to the bound now, on this thread (see `proven_upkeep`); how many records went."""
        return trim(self._file, self.max_bytes)

    def stats(self) -> Stats:
        def counted(db: sqlite3.Connection) -> tuple[int, int, int]:
            records, exact, book = db.execute(
                f"SELECT COUNT(*), COALESCE(SUM(exact), 0), COALESCE(SUM({DOOR}), 0) FROM proven", _door(BOOK)
            ).fetchone()
            return int(records), int(exact), int(book)

        found = self._file.read(counted, None)
        if found is None:
            raise ProvenCacheError(self._why())
        wal = self._file.wal_bytes()
        return Stats(*found, used_bytes(self._file), self.max_bytes, self.path, wal, self.health)

    def clear(self, book: Variant | None = None) -> int:
        """Remove every record a search or `sanmoku prove` proved, or (`book`) the opening book's records
        of one variant (books take hours to build: they go only by name); how many went."""

        def removed(db: sqlite3.Connection) -> int:
            where = f"NOT {DOOR}" if book is None else f"{DOOR} AND variant = ?"
            arguments = _door(BOOK) if book is None else (*_door(BOOK), book.long_name)
            count = int(db.execute(f"DELETE FROM proven WHERE {where}", arguments).rowcount)
            checkpoint(db)
            return count

        count = self._file.write(removed, None)
        if count is None:
            raise ProvenCacheError(self._why())
        return count

    def drop(self, position: Position) -> None:
        """Forget what is kept of the position (a book or a table contradicts it)."""
        _, key = canonical(position.variant, position.mine, position.theirs)
        self._delete(key_of(position.variant, key))

    def records(self, batch: int = 1000) -> Iterator[StoredRow]:
        """Every record as stored, unchecked (`sanmoku cache verify` checks them), in batches of reads."""
        after: Key = ("", -(2**63), -(2**63))  # before every key: integers sort before bytes
        while True:
            rows = self._file.read(partial(_rows_after, after=after, batch=batch), None)
            if rows is None:
                raise ProvenCacheError(self._why())
            yield from rows
            if len(rows) < batch:
                return
            after = rows[-1].key

    def remove(self, keys: Sequence[Key]) -> int:
        """Remove these records (as `records` gives their keys); how many went."""

        def removed(db: sqlite3.Connection) -> int:
            return sum(int(db.execute(f"DELETE FROM proven WHERE {KEY}", key).rowcount) for key in keys)

        count = self._file.write(removed, None)
        if count is None:
            raise ProvenCacheError(self._why())
        return count

    def close(self) -> None:
        """Fold the write-ahead log into the file and let go of it (opened again at the next use)."""
        self._file.close()

    def _delete(self, where: Key) -> None:
        self._file.write(lambda db: db.execute(f"DELETE FROM proven WHERE {KEY}", where), None)

    def _why(self) -> str:
        health = self.health
        if health.state == OK:
            return f"the cache of proven positions {self.path} is busy: try again"
        state = "cannot be used" if health.state == UNUSABLE else f"is {health.state}"
        fix = f"; it is a cache: remove {self.path.name} (and its -wal and -shm files) to start afresh"
        return f"the cache of proven positions {self.path} {state}: {health.problem}" + (
            fix if health.state == UNUSABLE else ""
        )


def _rows_after(db: sqlite3.Connection, after: Key, batch: int) -> list[StoredRow]:
    found = db.execute(
        "SELECT variant, mover, other, moves, exact, origin FROM proven "
        "WHERE (variant, mover, other) > (?, ?, ?) ORDER BY variant, mover, other LIMIT ?",
        (*after, batch),
    ).fetchall()
    return [
        StoredRow((str(r[0]), _part(r[1]), _part(r[2])), bytes(r[3]), int(r[4]), str(r[5])) for r in found
    ]


def key_of(variant: Variant, masks: tuple[int, int]) -> Key:
    """The stored key of a canonical form's masks on `variant`."""
    return variant.long_name, stored_mask(masks[0], variant.cells), stored_mask(masks[1], variant.cells)


def stored_mask(mask: int, cells: int) -> int | bytes:
    """A mask as the store keeps it: on a board of up to 64 cells SQLite's signed 64-bit integer (the
    store's first form); on a larger board its bytes, most significant first (their order is the
    masks')."""
    if cells <= 64:
        return _signed(mask)
    return mask.to_bytes((cells + 7) // 8, "big")


def mask_of(stored: int | bytes) -> int:
    """The mask a key holds (`stored_mask` turned back)."""
    return int.from_bytes(stored, "big") if isinstance(stored, bytes) else _unsigned(stored)


def _part(column: int | bytes) -> int | bytes:
    return column if isinstance(column, bytes) else int(column)


def _door(door: str) -> tuple[str, str]:
    """The arguments of DOOR for one door's records."""
    return door, f"{door}/%"


def _unsigned(stored: int) -> int:
    return stored + (1 << 64) if stored < 0 else stored


def _signed(mask: int) -> int:
    """A mask of up to 64 cells as SQLite's signed 64-bit integer."""
    return mask - (1 << 64) if mask >= 1 << 63 else mask
