"""The tables of a directory: opened on first use, built (under a file lock per table) when a file is
missing or does not check out, never used for an answer unless it checks out, and reopened when a new
file is renamed over an open one.

`TableStore` logs why a file was not used, builds the table again and replaces the file; the file
format and its checks are in `table_file`, the queue of background builds in `builds`.
"""

from __future__ import annotations

import errno
import logging
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from ..rules.variants import Variant, get_variant
from .build_plan import check_resources
from .building import BuildProgress, build_file, write_table
from .locks import build_lock
from .table import Table
from .table_file import TableFileError, build_record, checked_header, open_table, read_header, verify_table

SUFFIX = ".table"
ENVIRONMENT_VARIABLE = "SANMOKU_TABLES_DIR"
RECHECK_SECONDS = 2.0  # how often an open table's file is looked at again (a stat): replacements show

log = logging.getLogger(__name__)


def default_directory() -> Path:
    """$SANMOKU_TABLES_DIR, else the user's cache directory (platformdirs)."""
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

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self._open: dict[Variant, Table] = {}
        self._checked: dict[Variant, float] = {}
        self._reported: dict[Variant, str] = {}  # the last problem logged for each variant's file
        self._probed = (-RECHECK_SECONDS, "")

    def path(self, variant: Variant) -> Path:
        return self.directory / file_name(variant)

    def opened(self, variant: Variant) -> Table | None:
        """The open table, unless its file has been replaced or removed since (looked at every
        RECHECK_SECONDS): then the new file is opened, or None."""
        table = self._open.get(variant)
        if table is None:
            return None
        now = time.monotonic()
        if now - self._checked.get(variant, 0.0) < RECHECK_SECONDS:
            return table
        self._checked[variant] = now
        try:
            found = os.stat(self.path(variant))
            current = (found.st_dev, found.st_ino) == table.identity
        except OSError:
            current = False
        if current:
            return table
        # Requests under way keep the old mapping; it is let go when the last of them is done.
        del self._open[variant]
        return self.try_open(variant)

    def try_open(self, variant: Variant) -> Table | None:
        """The table if its file is there and checks out (header and length), else None (a bad file
        is logged)."""
        table = self._open.get(variant)
        if table is None:
            try:
                table = open_table(self.path(variant), variant)
            except TableFileError as error:
                # once per problem, not at every request that finds it again
                if error.problem != "missing" and self._reported.get(variant) != str(error):
                    log.warning("table file not used, it will be rebuilt if it can be: %s", error)
                self._reported[variant] = str(error)
                return None
            self._open[variant] = table
            self._checked[variant] = time.monotonic()
            self._reported.pop(variant, None)
        return table

    def looks_built(self, variant: Variant) -> bool:
        """Whether the variant's file is there with the right header and length."""
        try:
            checked_header(self.path(variant), variant)
        except TableFileError:
            return False
        return True

    def get(self, variant: Variant) -> Table:
        """The table of `variant`, built first if its file is missing or does not check out."""
        table = self.try_open(variant)
        if table is None:
            self.build(variant)
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
        directory), or None; found by making one, looked at again every RECHECK_SECONDS."""
        now = time.monotonic()
        if now - self._probed[0] >= RECHECK_SECONDS:
            why = ""
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                handle, probe = tempfile.mkstemp(dir=self.directory, prefix=".write-test-")
                os.close(handle)
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
                write_table(path, variant, values)

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
            build_file(path, variant, threads, progress, reduce, ray_address)
        self._open.pop(variant, None)
        return True

    def remove_leftovers(self) -> list[Path]:
        """Remove the temporary files of builds that died (their table's lock is free): what a killed
        builder leaves behind."""
        removed = []
        for temporary in self.directory.glob(f".*{SUFFIX}.*.tmp"):
            table = self.directory / (temporary.name[1:].split(f"{SUFFIX}.")[0] + SUFFIX)
            with build_lock(table, wait=False) as free:
                if free:
                    temporary.unlink(missing_ok=True)
                    removed.append(temporary)
        return removed

    def list(self) -> list[TableInfo]:
        return [self._info(path) for path in sorted(self.directory.glob("*" + SUFFIX))]

    def verify(self, variant: Variant) -> str | None:
        """None if the variant's file checks out to its last byte, else what is wrong with it."""
        try:
            verify_table(self.path(variant), variant)
        except TableFileError as error:
            return f"{error.problem}: {error.detail}"
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
