"""The table file format: a header naming what the table is, then the table's bytes.

    bytes 0..13      b"SANMOKU TABLE\\n"
    bytes 14..4095   a JSON object, padded with spaces: format, variant and its parameters, solver,
                     entries (3**cells), positions (reachable ones), sha256 (of the table's bytes),
                     built (UTC time), build_seconds
    bytes 4096..     the table: entries bytes (see `layout` and `values`)

A file is written under a temporary name in the same directory and renamed into place, so that a
crashed or concurrent build never leaves a half-written file under a table's name (a crash of the whole
machine could; the checksum catches it). Opening checks the magic, the format, the variant, the solver
version, the length and the checksum, and maps the file read-only: every process that opens it shares
its pages.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .solver import SOLVER_VERSION
from .table import Table
from .variants import Variant

FORMAT_VERSION = 1
MAGIC = b"SANMOKU TABLE\n"
HEADER_SIZE = 4096


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
    header = checked_header(path, variant)
    with path.open("rb") as source:
        mapped = mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ)
    payload = memoryview(mapped)[HEADER_SIZE:]
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        payload.release()
        mapped.close()
        raise TableFileError(path, "corrupt", "the table's bytes do not match the header's checksum")
    return Table(variant, payload, header, path)


def checked_header(path: Path, variant: Variant) -> dict[str, Any]:
    """The header of a file that is `variant`'s table of the current format and solver, and as long as
    it should be; everything `open_table` checks but the checksum (which reads the whole file)."""
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
    return header
