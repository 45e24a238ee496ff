"""Solved tables as files: written once, atomically; checked when opened; then only read, through mmap.

A table file is a 4096-byte header and the table's bytes (see `layout` and `values`):

    bytes 0..13      b"SANMOKU TABLE\\n"
    bytes 14..4095   a JSON object, padded with spaces: format, variant and its parameters, solver,
                     entries (3**cells), positions (reachable ones), sha256 (of the table's bytes),
                     built (UTC time), build_seconds
    bytes 4096..     the table: entries bytes

A file is written under a temporary name in the same directory and renamed into place, so that a
crashed or concurrent build never leaves a half-written file under a table's name. Opening checks the
magic, the format, the variant, the solver version, the length and the checksum; a file that fails is
never used: `TableStore` logs why, builds the table again and replaces it. The mapping is read-only and
shared by every process that opens the same file (every gunicorn worker on a host).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import mmap
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from .solver import SOLVER_VERSION, solve
from .table import Table
from .variants import Variant, get_variant

FORMAT_VERSION = 1
MAGIC = b"SANMOKU TABLE\n"
HEADER_SIZE = 4096
SUFFIX = ".table"
ENVIRONMENT_VARIABLE = "SANMOKU_TABLES_DIR"
Progress = Callable[[int, int], None]

log = logging.getLogger(__name__)


class TableFileError(Exception):
    """A table file that cannot be used; `problem` is missing, foreign, stale, truncated or corrupt."""

    def __init__(self, path: Path, problem: str, detail: str) -> None:
        super().__init__(f"{path}: {problem}: {detail}")
        self.path, self.problem, self.detail = path, problem, detail


def default_directory() -> Path:
    """$SANMOKU_TABLES_DIR, else the user's cache directory (platformdirs)."""
    given = os.environ.get(ENVIRONMENT_VARIABLE)
    return Path(given) if given else Path(platformdirs.user_cache_dir("sanmoku")) / "tables"


def file_name(variant: Variant) -> str:
    return variant.long_name + SUFFIX


def variant_fields(variant: Variant) -> dict[str, Any]:
    return {
        "variant": variant.long_name,
        "rows": variant.rows,
        "cols": variant.cols,
        "k": variant.k,
        "misere": variant.misere,
        "torus": variant.torus,
    }


def write_table(path: Path, variant: Variant, values: np.ndarray[Any, Any], build_seconds: float) -> None:
    payload = np.ascontiguousarray(values, dtype=np.uint8).data
    header = {
        "format": FORMAT_VERSION,
        **variant_fields(variant),
        "solver": SOLVER_VERSION,
        "entries": len(payload),
        "positions": int(np.count_nonzero(values)),
        "sha256": hashlib.sha256(payload).hexdigest(),
        "built": datetime.now(UTC).isoformat(timespec="seconds"),
        "build_seconds": round(build_seconds, 3),
    }
    text = MAGIC + json.dumps(header).encode()
    if len(text) >= HEADER_SIZE:
        raise ValueError("table header too long")
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(text.ljust(HEADER_SIZE - 1) + b"\n")
            out.write(payload)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def read_header(path: Path) -> dict[str, Any]:
    """The header of a table file, or TableFileError if it is not one of ours or not readable."""
    try:
        with path.open("rb") as source:
            head = source.read(HEADER_SIZE)
    except FileNotFoundError:
        raise TableFileError(path, "missing", "no such file") from None
    if not head.startswith(MAGIC):
        raise TableFileError(path, "foreign", "not a Sanmoku table file (no magic line)")
    if len(head) < HEADER_SIZE:
        raise TableFileError(path, "truncated", f"the header has {len(head)} of {HEADER_SIZE} bytes")
    try:
        header: dict[str, Any] = json.loads(head[len(MAGIC) :])
    except ValueError as error:
        raise TableFileError(path, "corrupt", f"the header is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise TableFileError(path, "corrupt", "the header is not a JSON object")
    return header


def open_table(path: Path, variant: Variant) -> Table:
    """Map a table file read-only after checking it; raise TableFileError saying what is wrong."""
    header = read_header(path)
    if header.get("format") != FORMAT_VERSION:
        raise TableFileError(path, "stale", f"format {header.get('format')!r}, not {FORMAT_VERSION}")
    expected = variant_fields(variant)
    found = {key: header.get(key) for key in expected}
    if found != expected:
        raise TableFileError(path, "foreign", f"a table of {found['variant']!r}, not {variant.long_name!r}")
    if header.get("solver") != SOLVER_VERSION:
        raise TableFileError(path, "stale", f"solver {header.get('solver')!r}, not {SOLVER_VERSION}")
    entries = 3**variant.cells
    size = path.stat().st_size
    if header.get("entries") != entries or size != HEADER_SIZE + entries:
        raise TableFileError(path, "truncated", f"{size - HEADER_SIZE} table bytes, not {entries}")
    with path.open("rb") as source:
        mapped = mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ)
    payload = memoryview(mapped)[HEADER_SIZE:]
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        payload.release()
        mapped.close()
        raise TableFileError(path, "corrupt", "the table's bytes do not match the header's checksum")
    return Table(variant, payload, header, path)


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
