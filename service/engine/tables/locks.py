"""Exclusive file locks between the processes of a host (flock): one builder of a table at a time, one
background builder per tables directory."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO


def _lock_file(path: Path) -> BinaryIO:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "a+b")
    except OSError:  # a read-only directory, or a lock file another account made: flock needs no write
        return open(path, "rb")  # and if it is missing too, no process holds it: the caller is told


@contextlib.contextmanager
def file_lock(path: Path, wait: bool = True) -> Iterator[bool]:
    """Hold an exclusive lock on `path` (made if missing); yield False if `wait` is off and another
    process holds it. OSError if it is missing and cannot be made."""
    with _lock_file(path) as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build_lock(path: Path, wait: bool = True) -> contextlib.AbstractContextManager[bool]:
    """The lock on building the table at `path`: one builder of a table per host."""
    return file_lock(path.with_name(path.name + ".lock"), wait)
