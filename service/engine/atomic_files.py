"""Files written whole or not at all, and the temporaries of writes that were interrupted.

A file is written under a temporary name beside it, flushed to disk, given its mode and renamed over its
name; then the directory is flushed, so that the rename outlives a crash too. A reader sees the old file
or the new one, never a part.

A temporary's name says whose it is: `.NAME.PID-HOST.RANDOM.tmp` (HOST: 8 hex digits of a hash of the
host's name, so that hosts sharing a directory tell theirs apart). A write that is killed leaves its
temporary behind; it is a leftover once its writer is gone: on this host, once the process PID has
ended; from another host, once it has not changed for STALE_SECONDS (longer than any of these writes
takes). Leftovers are removed at the next write of the same file, and by `remove_stale` when a directory
is swept. A temporary whose writer runs is never removed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

SUFFIX = ".tmp"
STALE_SECONDS = 3600.0  # a temporary of another host unchanged this long is a leftover
NAMED = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)-(?P<host>[0-9a-f]{8})-[0-9a-f]+\.tmp$")


@functools.cache
def host_tag() -> str:
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def temporary_path(path: Path) -> Path:
    """A new temporary name beside `path`, naming this process and host."""
    return path.with_name(f".{path.name}.{os.getpid()}-{host_tag()}-{os.urandom(4).hex()}{SUFFIX}")


class Temporary(NamedTuple):
    file: BinaryIO
    path: Path

    def seal(self, mode: int) -> None:
        """Flush the bytes to disk and give the file its mode: it is ready to be renamed into place."""
        self.file.flush()
        os.fsync(self.file.fileno())
        os.fchmod(self.file.fileno(), mode)


@contextlib.contextmanager
def temporary_beside(path: Path) -> Iterator[Temporary]:
    """A temporary file beside `path`, made now (the leftovers of earlier writes of `path` removed
    first), open for writing; removed on the way out unless it was renamed or linked into place."""
    remove_stale(path.parent, path.name)
    temporary = temporary_path(path)
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(handle, "wb") as out:
            yield Temporary(out, temporary)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def replace_atomically(path: Path, write: Callable[[BinaryIO], object], mode: int = 0o644) -> None:
    """Write the file at `path` whole (`write` gets the open temporary), or leave the old one as it was."""
    with temporary_beside(path) as temporary:
        write(temporary.file)
        temporary.seal(mode)
        os.replace(temporary.path, path)
    sync_directory(path.parent)


def sync_directory(directory: Path) -> None:
    """Flush a directory's entries to disk (a rename into it), where the file system allows it."""
    try:
        handle = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):  # some file systems cannot flush a directory: nothing to do
            os.fsync(handle)
    finally:
        os.close(handle)


def is_temporary(name: str) -> bool:
    return NAMED.match(name) is not None


def stale(path: Path, now: float | None = None) -> bool:
    """Whether `path` is a temporary whose writer is gone."""
    found = NAMED.match(path.name)
    if found is None:
        return False
    if found["host"] == host_tag():
        return not _running(int(found["pid"]))
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return False
    return age > STALE_SECONDS


def remove_stale(directory: Path, name: str | None = None) -> list[Path]:
    """Remove the temporaries in `directory` whose writers are gone (only those of the file `name`,
    if given); the paths removed. A directory that is missing or cannot be written keeps them."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        found = NAMED.match(entry.name)
        if found is None or (name is not None and found["name"] != name):
            continue
        path = Path(entry.path)
        if stale(path, now):
            with contextlib.suppress(OSError):
                path.unlink()
                removed.append(path)
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another account's process: it runs
        return True
    return True
