"""The table file format: a header naming what the table is, then the table's bytes.

    bytes 0..13      b"SANMOKU TABLE\\n"
    bytes 14..4095   a JSON object, padded with spaces: format, layout ("ranked"), variant and its
                     parameters, solver, entries, tiers (the entries of each tier, from the empty board
                     up), positions (reachable ones), sha256 (of the table's bytes), built (UTC time),
                     build_seconds, threads (that solved it)
    bytes 4096..     the table: one byte per entry, in the order of `layout` (see `values`)

A file is written under a temporary name in the same directory (its space reserved first, so that a
full disk fails at once), each tier as the solver finishes it; then its checksum is computed, the header
written, the bytes flushed to disk, the file made read-only and renamed into place, so that a crashed or
concurrent build never leaves a half-written file under a table's name. A table is replaced only by
renaming a new file over it, never by writing into it: readers map it.

Opening checks the magic, the format, the variant, the solver version and the length, and maps the file
read-only (every process that opens it shares its pages): a few milliseconds whatever the size. The
checksum reads every byte (seconds for gigabytes), so it is checked when a table is written and by
`verify_table` (`sanmoku tables verify`), not by every worker that opens one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import stat
import tempfile
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..rules.variants import Variant
from .layout import layout_of
from .solver import SOLVER_VERSION, Tier
from .table import Table

FORMAT_VERSION = 2  # 1 was a dense base-3 index of 3**cells entries
LAYOUT = "ranked"
MAGIC = b"SANMOKU TABLE\n"
HEADER_SIZE = 4096
READ_ONLY = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
HASH_PIECE = 1 << 24  # bytes read at a time when checksumming


class TableFileError(Exception):
    """A table file that cannot be used; `problem` is missing, foreign, stale, truncated or corrupt."""

    def __init__(self, path: Path, problem: str, detail: str) -> None:
        super().__init__(f"{path}: {problem}: {detail}")
        self.path, self.problem, self.detail = path, problem, detail


def variant_fields(variant: Variant) -> dict[str, Any]:
    return {
        "variant": variant.long_name,
        "rows": variant.rows,
        "cols": variant.cols,
        "k": variant.k,
        "misere": variant.misere,
        "torus": variant.torus,
    }


def file_size(variant: Variant) -> int:
    return HEADER_SIZE + layout_of(variant.cells).size


def write_tiers(
    path: Path, variant: Variant, tiers: Iterable[Tier], started: float, threads: int = 1
) -> dict[str, Any]:
    """Write the table whose tiers come in any order as (tier, values); `started` is the build's start
    (time.perf_counter) and `threads` how many solved it. Returns the header."""
    layout = layout_of(variant.cells)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.posix_fallocate(handle, 0, HEADER_SIZE + layout.size)
        positions = 0
        for tier, values in tiers:
            positions += int(np.count_nonzero(values))
            _write_at(handle, np.ascontiguousarray(values).data, HEADER_SIZE + layout.tier_offset[tier])
        header = {
            "format": FORMAT_VERSION,
            "layout": LAYOUT,
            **variant_fields(variant),
            "solver": SOLVER_VERSION,
            "entries": layout.size,
            "tiers": [layout.tier_size(t) for t in range(variant.cells + 1)],
            "positions": positions,
            "sha256": _checksum(handle, layout.size),
            "built": datetime.now(UTC).isoformat(timespec="seconds"),
            "build_seconds": round(time.perf_counter() - started, 3),
            "threads": threads,
        }
        text = MAGIC + json.dumps(header).encode()
        if len(text) >= HEADER_SIZE:
            raise ValueError("table header too long")
        _write_at(handle, memoryview(text.ljust(HEADER_SIZE - 1) + b"\n"), 0)
        os.fsync(handle)  # the bytes are on disk before the name is: a crash leaves no bad table behind
        os.fchmod(handle, READ_ONLY)
        os.close(handle)
        handle = -1
        os.replace(temporary, path)
    except BaseException:
        if handle >= 0:
            os.close(handle)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    return header


def write_table(path: Path, variant: Variant, values: npt.NDArray[np.uint8]) -> dict[str, Any]:
    """Write a table solved whole (see `solver.solve`)."""
    layout = layout_of(variant.cells)
    tiers = ((t, values[layout.tier_offset[t] : layout.tier_offset[t + 1]]) for t in range(variant.cells + 1))
    return write_tiers(path, variant, tiers, time.perf_counter())


def _write_at(handle: int, data: memoryview, offset: int) -> None:
    data = data.cast("B")
    while data:
        written = os.pwrite(handle, data, offset)
        data, offset = data[written:], offset + written


def _checksum(handle: int, size: int) -> str:
    digest = hashlib.sha256()
    for offset in range(HEADER_SIZE, HEADER_SIZE + size, HASH_PIECE):
        digest.update(os.pread(handle, min(HASH_PIECE, HEADER_SIZE + size - offset), offset))
    return digest.hexdigest()


def read_header(path: Path) -> dict[str, Any]:
    """The header of a table file, or TableFileError if it is not one of ours or not readable."""
    try:
        with path.open("rb") as source:
            head = source.read(HEADER_SIZE)
    except FileNotFoundError:
        raise TableFileError(path, "missing", "no such file") from None
    except OSError as error:  # a directory, or a file this account may not read
        raise TableFileError(path, "unreadable", error.strerror or str(error)) from None
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
    """Map a table file read-only after checking its header and length (not its checksum: see
    `verify_table`); raise TableFileError saying what is wrong."""
    header = checked_header(path, variant)
    with path.open("rb") as source:
        identity = os.fstat(source.fileno())
        if identity.st_size != file_size(variant):  # replaced between the check and the open
            raise TableFileError(path, "truncated", f"{identity.st_size} bytes, not {file_size(variant)}")
        mapped = mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ)
    return Table(variant, memoryview(mapped)[HEADER_SIZE:], header, path, (identity.st_dev, identity.st_ino))


def mapped_file(table: Table) -> memoryview | None:
    """The whole file, header included, that `open_table` mapped for `table`; None for a table made in
    memory. A file renamed over it or removed since changes none of these bytes (the mapping keeps the
    ones it was opened on), so they always go with the table's header."""
    source = getattr(table.values.base, "obj", None)  # the table's bytes are a view into the mapping
    return memoryview(source) if isinstance(source, mmap.mmap) else None


def verify_table(path: Path, variant: Variant) -> dict[str, Any]:
    """Everything `open_table` checks, and the checksum of every byte; the header if all check out."""
    header = checked_header(path, variant)
    with path.open("rb") as source:
        found = _checksum(source.fileno(), int(header["entries"]))
    if found != header.get("sha256"):
        raise TableFileError(path, "corrupt", "the table's bytes do not match the header's checksum")
    return header


def checked_header(path: Path, variant: Variant) -> dict[str, Any]:
    """The header of a file that is `variant`'s table of the current format and solver, and as long as
    it should be."""
    header = read_header(path)
    if header.get("format") != FORMAT_VERSION or header.get("layout") != LAYOUT:
        found = f"format {header.get('format')!r}, layout {header.get('layout')!r}"
        raise TableFileError(path, "stale", f"{found}, not {FORMAT_VERSION}, {LAYOUT!r}")
    expected = variant_fields(variant)
    found_fields = {key: header.get(key) for key in expected}
    if found_fields != expected:
        named = found_fields["variant"]
        raise TableFileError(path, "foreign", f"a table of {named!r}, not {variant.long_name!r}")
    if header.get("solver") != SOLVER_VERSION:
        raise TableFileError(path, "stale", f"solver {header.get('solver')!r}, not {SOLVER_VERSION}")
    entries = layout_of(variant.cells).size
    size = path.stat().st_size
    if header.get("entries") != entries or size != HEADER_SIZE + entries:
        raise TableFileError(path, "truncated", f"{size - HEADER_SIZE} table bytes, not {entries}")
    return header
