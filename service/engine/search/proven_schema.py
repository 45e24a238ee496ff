"""What a file of the cache of proven positions holds and how it is known for one: SQLite's header
fields `application_id` (this store's) and `user_version` (its format), one table. A file with another
program's tables, or of another format, is not ours to use, and never written.
"""

from __future__ import annotations

import sqlite3

APPLICATION_ID = 0x53414E4D  # "SANM", in the file's header: a cache of proven positions
FORMAT = 2  # PRAGMA user_version; 2: each record's moves end with their checksum
BUSY_SECONDS = 0.05  # SQLite's wait for another process's lock, before a miss
# The write-ahead log's limit: a 32nd of the store's bound, within these. It is checkpointed once it
# holds that much (wal_autocheckpoint) and cut back to it after a checkpoint (journal_size_limit).
JOURNAL_LIMIT_BYTES = 4 * 2**20
JOURNAL_LEAST_BYTES = 64 * 2**10
PAGE_BYTES = 4096  # SQLite's default page size, which the store keeps
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
COLUMNS = ["variant", "mover", "other", "moves", "exact", "origin", "stored"]


class UnusableFileError(Exception):
    """The file is not one this version may use."""


def connect(target: str, uri: bool = False) -> sqlite3.Connection:
    # one connection for the process's threads (one at a time, under the lock); autocommit statements
    return sqlite3.connect(
        target, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None, uri=uri
    )


def journal_limit(max_bytes: int) -> int:
    """The write-ahead log's share of a store's bound, in bytes."""
    return min(JOURNAL_LIMIT_BYTES, max(JOURNAL_LEAST_BYTES, max_bytes // 32))


def prepare(db: sqlite3.Connection, journal_bytes: int = JOURNAL_LIMIT_BYTES) -> None:
    """Check the file is ours (or empty, then make it ours) and set it up for this process, its
    write-ahead log kept to `journal_bytes`."""
    check_ours(db)
    ours = int(db.execute("PRAGMA application_id").fetchone()[0]) == APPLICATION_ID
    if not ours and not db.execute("SELECT 1 FROM sqlite_master").fetchone():
        db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # before the first table: then fixed
    db.execute("PRAGMA journal_mode=WAL")  # readers never wait for the one writer
    # WAL keeps the file whole through a crash; NORMAL may lose the last few proofs, no more.
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(f"PRAGMA journal_size_limit={journal_bytes}")
    db.execute(f"PRAGMA wal_autocheckpoint={max(1, journal_bytes // PAGE_BYTES)}")
    if not ours:
        db.executescript(SCHEMA)
        db.execute(f"PRAGMA user_version={FORMAT}")
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")


def check_ours(db: sqlite3.Connection) -> None:
    """Unusable unless the file is a store of ours in this format, an empty one, or one of before the
    format had a number (the same table; its records, with no checksum, are dropped as they are read)."""
    application = int(db.execute("PRAGMA application_id").fetchone()[0])
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if application == APPLICATION_ID:
        if version != FORMAT:
            raise UnusableFileError(f"its format is {version}, and this version reads format {FORMAT}")
        return
    tables = [str(row[0]) for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    if not tables:
        return
    columns = [str(row[1]) for row in db.execute("PRAGMA table_info(proven)")]
    if tables != ["proven"] or columns != COLUMNS or application != 0:
        raise UnusableFileError("it is not a cache of proven positions (another program's database)")
