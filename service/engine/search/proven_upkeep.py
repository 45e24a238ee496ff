"""Keeping the store of proven positions within its bound in bytes, its write-ahead log included: the
oldest records go first, a tenth at a time, in short statements (a trim never holds the write lock for
long: the other workers' writes would wait, then miss), and the log is checkpointed and cut back.
"""

from __future__ import annotations

import sqlite3
from functools import partial

from .proven_file import StoreFile
from .proven_schema import JOURNAL_LIMIT_BYTES

TRIM_CHUNK = 2000  # records removed by one statement


def trim(file: StoreFile, max_bytes: int) -> int:
    """Remove the oldest records while they and the write-ahead log take more than `max_bytes`; how
    many went. The file gives the freed pages back (incremental vacuum)."""
    removed = 0
    if file.wal_bytes() > JOURNAL_LIMIT_BYTES:  # readers held it back from the automatic checkpoints
        file.write(checkpoint, None)
    while used_bytes(file) > max_bytes:
        count = file.read(_count, 0)
        gone = _remove_oldest(file, max(1, count // 10)) if count else 0
        file.write(checkpoint, None)
        removed += gone
        if not gone:  # empty, busy, or not writable: the log's checkpoint was all there was to do
            break
    return removed


def used_bytes(file: StoreFile) -> int:
    """The bytes the records take (pages in use), and the write-ahead log."""
    return file.read(_pages_in_use, 0) + file.wal_bytes()


def checkpoint(db: sqlite3.Connection) -> None:
    """Give the freed pages back, and the write-ahead log's bytes: its pages into the file, the log
    truncated (when no reader holds it; else next time)."""
    db.execute("PRAGMA incremental_vacuum").fetchall()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def _pages_in_use(db: sqlite3.Connection) -> int:
    count = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    return (int(count) - int(free)) * int(size)


def _count(db: sqlite3.Connection) -> int:
    return int(db.execute("SELECT COUNT(*) FROM proven").fetchone()[0])


def _remove_oldest(file: StoreFile, count: int) -> int:
    removed = 0
    while removed < count:
        chunk = min(TRIM_CHUNK, count - removed)
        gone: int = file.write(partial(_delete_oldest, count=chunk), 0)
        removed += gone
        if gone < chunk:
            break
    return removed


def _delete_oldest(db: sqlite3.Connection, count: int) -> int:
    return int(
        db.execute(
            "DELETE FROM proven WHERE (variant, mover, other) IN "
            "(SELECT variant, mover, other FROM proven ORDER BY stored LIMIT ?)",
            (count,),
        ).rowcount
    )
