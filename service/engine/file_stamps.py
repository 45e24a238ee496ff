"""Whether a file is still the one whose bytes were checked: its stamp (inode, size, modification and
change times), which every write into it moves and a rename over its name replaces (another inode).

A table or a book is mapped, not copied: a file rewritten in place (opened for writing, or truncated and
written again by `cp`) changes the bytes under every process that maps it. So the bytes are checked
whole at a stamp, and a reader compares the file's stamp with it (one fstat of a descriptor kept open,
`Watch`) after reading them: a write that lands before that fstat has moved the times already (the
kernel updates them before it copies the data), and what was read is not used.

A check holds for the stamp it was taken at only if the file had been quiet for longer than the clock's
tick when the check began: a write within the same tick as the last one leaves the times unchanged. A
check of a file changed moments before (`quiet` false) proves nothing lasting (git calls such entries
"racily clean"), and is made again later.
"""

from __future__ import annotations

import os
import time
import weakref
from pathlib import Path
from typing import NamedTuple

# Longer than the tick of the file times of a local file system (Linux: a jiffy, 1 to 10 ms).
QUIET_NS = 100_000_000


class Stamp(NamedTuple):
    """What says that a file's bytes are those of a moment: any write moves the times, any chmod the
    change time, a new file under the name has another inode. (No device: a file shared between hosts
    has one number per host, and the others say enough.)"""

    inode: int
    size: int
    modified_ns: int
    changed_ns: int

    @classmethod
    def of(cls, found: os.stat_result) -> Stamp:
        return cls(found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)

    def quiet(self, since_ns: int) -> bool:
        """Whether a check that began at `since_ns` (time.time_ns) began after the file had been quiet
        for longer than the clock's tick: then a later write moves its times."""
        return since_ns - max(self.modified_ns, self.changed_ns) > QUIET_NS


def stamp_of(descriptor: int) -> Stamp:
    return Stamp.of(os.fstat(descriptor))


def stamp_at(path: Path) -> Stamp | None:
    """The stamp of the file under `path` now, None if there is none (or it cannot be looked at)."""
    try:
        return Stamp.of(os.stat(path))
    except OSError:
        return None


class Watch:
    """A descriptor of a file, kept open, and the stamp at which its bytes were checked: `unchanged`
    costs one fstat (about a microsecond here). Once changed, always changed: the reader lets go of it."""

    def __init__(self, descriptor: int, stamp: Stamp) -> None:
        self.stamp = stamp
        self._descriptor = descriptor
        self._changed = False
        self._closed = weakref.finalize(self, os.close, descriptor)

    @classmethod
    def of(cls, path: Path) -> Watch:
        """A watch of the file under `path` at its stamp now (OSError if it cannot be opened)."""
        descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        return cls(descriptor, stamp_of(descriptor))

    @property
    def descriptor(self) -> int:
        return self._descriptor

    def unchanged(self) -> bool:
        if self._changed:
            return False
        try:
            found = os.fstat(self._descriptor)
        except OSError:  # closed: nothing read through it can be vouched for
            self._changed = True
            return False
        stamp = self.stamp
        if (
            found.st_ctime_ns == stamp.changed_ns
            and found.st_mtime_ns == stamp.modified_ns
            and found.st_size == stamp.size
        ):
            return True
        self._changed = True
        return False

    def close(self) -> None:
        self._changed = True
        self._closed()


def now_ns() -> int:
    """The wall clock, as file times are (for `Stamp.quiet`)."""
    return time.time_ns()
