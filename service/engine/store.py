"""The tables of a directory: opened on first use, built (once per host, under a file lock) when a
file is missing or does not check out, and never used for an answer unless it checks out.

`TableStore` logs why a file was not used, builds the table again and replaces the file; the file
format and its checks are in `table_file`.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from .solver import solve
from .table import Table
from .table_file import TableFileError, checked_header, open_table, read_header, write_table
from .variants import Variant, get_variant

SUFFIX = ".table"
ENVIRONMENT_VARIABLE = "SANMOKU_TABLES_DIR"
Progress = Callable[[int, int], None]

log = logging.getLogger(__name__)


def default_directory() -> Path:
    """$SANMOKU_TABLES_DIR, else the user's cache directory (platformdirs)."""
    given = os.environ.get(ENVIRONMENT_VARIABLE)
    return Path(given) if given else Path(platformdirs.user_cache_dir("sanmoku")) / "tables"


def file_name(variant: Variant) -> str:
    return variant.long_name + SUFFIX


@contextlib.contextmanager
def build_lock(path: Path, wait: bool = True) -> Iterator[bool]:
    """Hold the lock on building `path` (one builder per host); yield False if `wait` is off and another
    process holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@dataclass(frozen=True)
class TableInfo:
    """What `sanmoku tables list` shows of one file."""

    path: Path
    variant: str
    positions: int | None
    bytes_on_disk: int
    built: str | None
    problem: str | None  # None when the file checks out


class TableStore:
    """The tables of one directory: opened on first use, built (once per host) when missing or bad."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self._open: dict[Variant, Table] = {}

    def path(self, variant: Variant) -> Path:
        return self.directory / file_name(variant)

    def opened(self, variant: Variant) -> Table | None:
        return self._open.get(variant)

    def try_open(self, variant: Variant) -> Table | None:
        """The table if its file is there and checks out, else None (a bad file is logged)."""
        table = self._open.get(variant)
        if table is None:
            try:
                table = open_table(self.path(variant), variant)
            except TableFileError as error:
                if error.problem != "missing":
                    log.warning("table file not used, it will be rebuilt: %s", error)
                return None
            self._open[variant] = table
        return table

    def looks_built(self, variant: Variant) -> bool:
        """Whether the variant's file is there with the right header and length: a check that reads no
        table bytes (the checksum is checked when the table is opened)."""
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

    def is_building(self, variant: Variant) -> bool:
        """Whether some process on this host holds the lock on building the variant's table."""
        with build_lock(self.path(variant), wait=False) as held:
            return not held

    def build(self, variant: Variant, wait: bool = True, progress: Progress | None = None) -> bool:
        """Solve and write the table unless a good file is there; False if another builder holds the
        lock and `wait` is off."""
        path = self.path(variant)
        with build_lock(path, wait) as held:
            if not held:
                return False
            try:
                open_table(path, variant)
                return True  # another process built it while this one waited for the lock
            except TableFileError:
                pass
            started = time.perf_counter()
            values = solve(variant, progress)
            write_table(path, variant, values, time.perf_counter() - started)
        self._open.pop(variant, None)
        return True

    def list(self) -> list[TableInfo]:
        return [self._info(path) for path in sorted(self.directory.glob("*" + SUFFIX))]

    def _info(self, path: Path) -> TableInfo:
        size = path.stat().st_size
        try:
            header = read_header(path)
        except TableFileError as error:
            return TableInfo(path, path.stem, None, size, None, f"{error.problem}: {error.detail}")
        problem: str | None = None
        try:
            open_table(path, get_variant(str(header.get("variant")))).close()
        except TableFileError as error:
            problem = f"{error.problem}: {error.detail}"
        except ValueError as error:  # the header names no supported variant
            problem = f"foreign: {error}"
        positions, built = header.get("positions"), header.get("built")
        return TableInfo(path, str(header.get("variant")), positions, size, built, problem)
