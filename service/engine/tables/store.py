"""The tables of a directory: opened on first use, built (under a file lock per table) when a file is
missing or does not check out, never used for an answer unless it checks out, and reopened when a new
file is renamed over an open one or the open one is written into.

A file answers once its bytes checked out whole (their checksum) at its current stamp (`file_stamps`):
checked by a build, by `verify`, or by the first process that opened it at that stamp, which records
it beside the file (`checked`) for the others. A file with no such record (a table of an older
version, one changed in place) is checked when opened: on the caller's thread up to INLINE_CHECK_BYTES
(a few milliseconds), else through `check_later` when the store was given one (the service's
background threads; the table is not there meanwhile) or on the caller's thread (the command line).
An open table's file is looked at on every `opened` (one fstat): written into, it is dropped and
checked again; a file that does not check out is not served, and looks unbuilt to the supply, which
has it rebuilt.

`TableStore` logs why a file was not used, builds the table again and replaces the file; the file
format and its checks are in `table_file`, the queue of background builds in `builds`.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from ..atomic_files import is_temporary, remove_stale, temporary_path
from ..file_stamps import QUIET_NS, Stamp, stamp_at
from ..rules.variants import Variant, get_variant
from . import checked
from .build_plan import check_resources
from .building import BuildProgress, build_file, write_table
from .locks import build_lock
from .partial import partial_path, record_of_partial
from .table import Table
from .table_file import (
    TableFileError,
    build_record,
    check_file,
    check_opened,
    checked_header,
    open_table,
    read_header,
)

SUFFIX = ".table"
ENVIRONMENT_VARIABLE = "SANMOKU_TABLES_DIR"
RECHECK_SECONDS = 0.1  # how often an open table's name is looked at again (a stat): a file renamed over it
PROBE_SECONDS = 2.0  # how often whether the directory can be written is found out again
INLINE_CHECK_BYTES = 8 << 20  # a checksum on the caller's thread up to this: about 5 ms here
RETRY_SECONDS = QUIET_NS / 1e9  # a file found changing is looked at again after this
Later = Callable[[Callable[[], None]], None]

log = logging.getLogger(__name__)


def default_directory() -> Path:
    """$SANMOKU_TABLES_DIR, else ~/.cache/sanmoku/tables (platformdirs, on Linux)."""
    given = os.environ.get(ENVIRONMENT_VARIABLE)
    return Path(given) if given else Path(platformdirs.user_cache_dir("sanmoku")) / "tables"


def file_name(variant: Variant) -> str:
    return variant.long_name + SUFFIX


@dataclass(frozen=True)
class TableInfo:
    """What `sanmoku tables list` shows of one file (from its header: no table byte is read)."""

    path: Path
    variant: str
    positions: int | None
    bytes_on_disk: int
    built: str | None
    problem: str | None  # None when the header and length check out


class TableStore:
    """The tables of one directory: opened on first use, built when missing or bad."""

    def __init__(self, directory: Path | str | None = None, check_later: Later | None = None) -> None:
        """`check_later`: runs a checksum of more than INLINE_CHECK_BYTES off the caller's thread (the
        service passes its background threads); without it, checks run on the caller's thread."""
        self.directory = Path(directory) if directory is not None else default_directory()
        self.check_later = check_later
        self._open: dict[Variant, Table] = {}
        self._looked: dict[Variant, float] = {}  # when each open table's name was last looked at
        self._good: dict[Variant, Stamp] = {}  # files that checked out whole at that stamp
        self._bad: dict[Variant, Stamp] = {}  # files that did not (corrupt) at that stamp
        self._checking: dict[Variant, Stamp] = {}  # checks handed to check_later, under way
        self._retry: dict[Variant, float] = {}  # a file found changing: not opened again before this
        self._recheck: dict[Variant, float] = {}  # checked moments after a write: checked again after this
        self._reported: dict[Variant, str] = {}  # the last problem logged for each variant's file
        self._probed = (-PROBE_SECONDS, "")
        self._lock = threading.Lock()

    def path(self, variant: Variant) -> Path:
        return self.directory / file_name(variant)

    def opened(self, variant: Variant) -> Table | None:
        """The open table, unless its file has been written into (looked at every call: an fstat), or
        replaced or removed (looked at every RECHECK_SECONDS: a stat): then the file is opened again
        (and checked), or None."""
        table = self._open.get(variant)
        if table is None:
            return None
        if table.unchanged():
            now = time.monotonic()
            if now - self._looked.get(variant, 0.0) < RECHECK_SECONDS:
                return table
            self._looked[variant] = now
            found = stamp_at(self.path(variant))
            current = found is not None and table.identity is not None and found.inode == table.identity.inode
            due = self._recheck.get(variant)
            if current and (due is None or now < due):
                return table
            if current:  # checked moments after a write: checked again, now that the file is quiet
                del self._recheck[variant]
                log.info("checking the %s table's file again, now that it is quiet", variant.name)
        else:  # written into, or its last name removed (which changes its times too)
            log.info("the %s table's file was replaced, removed or written into: opened again", variant.name)
        # Requests under way keep the old mapping; it is let go when the last of them is done.
        self._open.pop(variant, None)
        self._good.pop(variant, None)
        return self.try_open(variant)

    def try_open(self, variant: Variant) -> Table | None:
        """The table if its file is there and checks out (header and length, and its checksum unless a
        check at its stamp is known), else None (a bad file is logged)."""
        table = self._open.get(variant)
        if table is not None:
            return table
        if time.monotonic() < self._retry.get(variant, 0.0):
            return None
        try:
            table = self._checked_open(variant)
        except TableFileError as error:
            self._report(variant, error)
            return None
        if table is None:
            return None
        self._open[variant] = table
        self._looked[variant] = time.monotonic()
        self._reported.pop(variant, None)
        return table

    def _checked_open(self, variant: Variant) -> Table | None:
        """The table mapped, once its bytes are known to check out at the file's stamp; None while a
        check runs through `check_later`."""
        path = self.path(variant)
        if (bad := self._bad.get(variant)) is not None and stamp_at(path) == bad:
            raise TableFileError(path, "corrupt", "the table's bytes do not match the header's checksum")
        table = open_table(path, variant)
        stamp = table.identity
        assert stamp is not None
        if self._good.get(variant) == stamp or checked.recorded(path, table.header.get("sha256")) == stamp:
            self._good[variant] = stamp
            return table
        if len(table.values) > INLINE_CHECK_BYTES and self.check_later is not None:
            with self._lock:
                due = self._checking.get(variant) != stamp
                self._checking[variant] = stamp
            if due:
                log.info("checking the %s table's file (%s) before it answers", variant.name, path)
                self.check_later(lambda: self._check_quietly(variant, table))
            return None
        return table if self._check(variant, table) else None

    def _check(self, variant: Variant, table: Table) -> bool:
        """Compute the checksum of an opened table's bytes, and remember (and record) how it came out;
        whether they checked out. A check made moments after a write answers, and is made again once
        the file is quiet (a write in the same tick of the clock would not move the file's times)."""
        stamp = table.identity
        assert stamp is not None and table.path is not None
        try:
            lasting = check_opened(table)
        except TableFileError as error:
            if error.problem == "corrupt":
                self._bad[variant] = stamp
            else:  # changing: looked at again once it is quiet
                self._retry[variant] = time.monotonic() + RETRY_SECONDS
            self._report(variant, error)
            return False
        finally:
            with self._lock:
                if self._checking.get(variant) == stamp:
                    del self._checking[variant]
        if lasting:
            self._remember(variant, table.path, stamp, table.header.get("sha256"))
        else:
            self._good[variant] = stamp
            self._recheck[variant] = time.monotonic() + RETRY_SECONDS
        return True

    def _check_quietly(self, variant: Variant, table: Table) -> None:
        """`_check` off the caller's thread: the next `try_open` serves the file if it checked out."""
        self._check(variant, table)

    def _remember(self, variant: Variant, path: Path, stamp: Stamp, sha256: object) -> None:
        """A check of the file at `stamp` came out good: remembered here, and recorded beside it."""
        self._good[variant] = stamp
        if self._bad.get(variant) == stamp:
            del self._bad[variant]
        try:
            checked.record(path, stamp, sha256)
        except OSError as error:  # a read-only directory: each process checks the file itself
            log.debug("the check of %s is not recorded: %s", path, error)

    def _report(self, variant: Variant, error: TableFileError) -> None:
        """Log why a file is not used, once per problem, not at every request that finds it again."""
        quiet = error.problem in ("missing", "changing")
        if not quiet and self._reported.get(variant) != str(error):
            log.warning("table file not used, it will be rebuilt if it can be: %s", error)
        self._reported[variant] = str(error)

    def looks_built(self, variant: Variant) -> bool:
        """Whether the variant's file is there with the right header and length, and not known to fail
        its checksum as it is now."""
        path = self.path(variant)
        try:
            checked_header(path, variant)
        except TableFileError:
            return False
        bad = self._bad.get(variant)
        return bad is None or stamp_at(path) != bad

    def get(self, variant: Variant) -> Table:
        """The table of `variant`, built first if its file is missing or does not check out."""
        table = self.try_open(variant)
        if table is None:
            self.build(variant)
            table = self.try_open(variant)
            if table is None and variant in self._retry:  # written moments ago: checked once quiet
                time.sleep(max(0.0, self._retry[variant] - time.monotonic()))
                table = self.try_open(variant)
            if table is None:
                raise RuntimeError(f"the table just built for {variant.name} does not check out")
        return table

    def unbuildable(self, variant: Variant) -> str | None:
        """Why the variant's table cannot be built in this directory, after what is wrong with the file
        there if anything (unreadable, stale...), or None."""
        path = self.path(variant)
        if path.exists() and not path.is_file():  # a directory, most likely
            return f"{path} is not a regular file (remove it, and the table can be built)"
        why = self.unwritable()
        if why is None:
            return None
        try:
            checked_header(path, variant)
        except TableFileError as error:
            if error.problem != "missing":
                return f"{error}; {why}"
        return why

    def unwritable(self) -> str | None:
        """Why no file can be made in this directory (a read-only file system, another account's
        directory), or None; found by making one, looked at again every PROBE_SECONDS."""
        now = time.monotonic()
        if now - self._probed[0] >= PROBE_SECONDS:
            why = ""
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                probe = temporary_path(self.directory / "write-test")  # a leftover is swept by its pid
                os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
                os.unlink(probe)
            except OSError as error:
                why = f"the tables directory {self.directory} cannot be written ({error.strerror or error})"
            self._probed = (now, why)
        return self._probed[1] or None

    def write_solved(self, variant: Variant, values: npt.NDArray[np.uint8], wait: bool = False) -> None:
        """Write the file of a table solved whole in this process (`values` in its class layout), unless
        a good file is there by now, or another process holds the lock on building it and not `wait`."""
        path = self.path(variant)
        with build_lock(path, wait) as held:
            if held and self.verify(variant) is not None:
                header = write_table(path, variant, values)
                self._written(variant, path, header)

    def _written(self, variant: Variant, path: Path, header: dict[str, object]) -> None:
        """A file this process has just written and renamed into place: its bytes are those its checksum
        was computed from (under the build's lock), at the stamp it has now."""
        stamp = stamp_at(path)
        if stamp is not None:
            self._remember(variant, path, stamp, header.get("sha256"))
        self._open.pop(variant, None)

    def is_building(self, variant: Variant) -> bool:
        """Whether some process on this host holds the lock on building the variant's table."""
        with build_lock(self.path(variant), wait=False) as held:
            return not held

    def build(
        self,
        variant: Variant,
        wait: bool = True,
        progress: BuildProgress | None = None,
        threads: int = 1,
        ray_address: str | None = None,
        reduce: bool = True,
    ) -> bool:
        """Solve and write the table unless a good file is there (going on with a stopped build of it);
        False if another builder holds the lock and `wait` is off. BuildRefusedError if the disk or the
        memory cannot hold it. `ray_address`: build on that Ray cluster; `reduce` off: format 2."""
        path = self.path(variant)
        with build_lock(path, wait) as held:
            if not held:
                return False
            if self.verify(variant) is None:
                return True  # another process built it while this one waited for the lock
            if path.is_dir():  # fail now, not after the solve, when the file is renamed into place
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
            check_resources(variant, self.directory, threads, reduce)
            header = build_file(path, variant, threads, progress, reduce, ray_address)
            self._written(variant, path, header)
        return True

    def remove_leftovers(self) -> list[Path]:
        """Remove what writes that did not finish left behind: temporaries whose writer is gone (see
        `atomic_files`; those of older versions, named without their writer, once their table's lock
        is free), in the directory, its queue and its books, and the partial file of a table whose
        file checks out (a build that will never go on with it). A partial file of a table still
        missing is kept: a build goes on with it."""
        removed = []
        for folder in (self.directory, self.directory / "queue", self.directory / "books"):
            removed += remove_stale(folder)
        for temporary in self.directory.glob(f".*{SUFFIX}.*.tmp"):
            if is_temporary(temporary.name):  # named after its writer: removed above once it is gone
                continue
            table = self.directory / (temporary.name[1:].split(f"{SUFFIX}.")[0] + SUFFIX)
            with build_lock(table, wait=False) as free:
                if free and temporary.exists():
                    temporary.unlink(missing_ok=True)
                    removed.append(temporary)
        for partial in self.directory.glob(f".*{SUFFIX}.partial"):
            table = self.directory / partial.name[1:].removesuffix(".partial")
            with build_lock(table, wait=False) as free:
                if free and self._good_file(table):
                    for leftover in (partial, record_of_partial(table)):
                        if leftover.exists():
                            leftover.unlink(missing_ok=True)
                            removed.append(leftover)
        return removed

    def _good_file(self, path: Path) -> bool:
        try:
            variant = get_variant(path.name.removesuffix(SUFFIX))
        except ValueError:
            return False
        return path == self.path(variant) and partial_path(path).exists() and self.verify(variant) is None

    def list(self) -> list[TableInfo]:
        return [self._info(path) for path in sorted(self.directory.glob("*" + SUFFIX))]

    def verify(self, variant: Variant) -> str | None:
        """None if the variant's file checks out to its last byte, else what is wrong with it (and a
        check that lasts is recorded, see `checked`)."""
        path = self.path(variant)
        try:
            header, stamp, lasting = check_file(path, variant)
        except TableFileError as error:
            if error.problem == "corrupt" and error.stamp is not None:
                self._bad[variant] = error.stamp
            return f"{error.problem}: {error.detail}"
        if lasting:
            self._remember(variant, path, stamp, header.get("sha256"))
        return None

    def _info(self, path: Path) -> TableInfo:
        size = path.stat().st_size
        try:
            header = read_header(path)
        except TableFileError as error:
            return TableInfo(path, path.stem, None, size, None, f"{error.problem}: {error.detail}")
        problem: str | None = None
        try:
            checked_header(path, get_variant(str(header.get("variant"))))
        except TableFileError as error:
            problem = f"{error.problem}: {error.detail}"
        except ValueError as error:  # the header names no supported variant
            problem = f"foreign: {error}"
        positions = header.get("positions")
        built = header.get("built") or build_record(path).get("built")  # format 2 kept it in the header
        return TableInfo(path, str(header.get("variant")), positions, size, built, problem)
