"""The table file format: a header naming what the table is, then the table's bytes.

    bytes 0..13      b"SANMOKU TABLE\n"
    bytes 14..4095   a JSON object, padded with spaces: format (3), layout ("classes"), variant and its
                     parameters, solver, symmetries (folded), entries, tiers (the entries of each tier,
                     from the empty board up), positions (entries of positions play reaches), sha256 (of
                     the table's bytes)
    bytes 4096..     the table: one byte per entry, in the order of `classes` (see `values`)

The header holds what the table is and nothing about how it was built, so a build gives the same bytes
wherever it runs (on one host or on a Ray cluster); when, how long and on what are in a record beside the
file (`NAME.table.build.json`). Files of format 2 (layout "ranked", every position: see `layout`; the
header had the build's time) are still read and answered from; a build writes format 3.

A file is written under a temporary name in the same directory (`partial`: its space reserved first, so
that a full disk fails at once), each tier as it is solved; then its checksum is computed, the header
written, the bytes flushed to disk, the file made read-only and renamed into place, so that a stopped or
concurrent build never leaves a half-written file under a table's name. A table is replaced only by
renaming a new file over it, never by writing into it: readers map it.

Opening checks the magic, the format, the variant, the solver version and the length, and maps the file
read-only (every process that opens it shares its pages): a few milliseconds whatever the size. The
checksum reads every byte (seconds for gigabytes): `check_opened` computes it over an open table, and the
store records the file's stamp once it checked out (`checked`), so that the other processes need not;
a table keeps watching its file's stamp and refuses to answer from bytes written after the check.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import stat
from pathlib import Path
from typing import Any

from ..file_stamps import Stamp, Watch, now_ns, stamp_of
from ..rules.variants import Variant
from .classes import class_layout_of
from .layout import layout_of
from .orbits import class_counts
from .solver import SOLVER_VERSION
from .table import Layouts, Table

FORMAT_VERSION = 3  # 1 was a dense base-3 index of 3**cells entries, 2 the ranked layout of every position
LAYOUT = "classes"
RANKED_FORMAT, RANKED_LAYOUT = 2, "ranked"  # read, no longer written
LAYOUTS = {FORMAT_VERSION: LAYOUT, RANKED_FORMAT: RANKED_LAYOUT}
BUILD_RECORD = ".build.json"  # the record of a table's build, beside it: NAME.table.build.json
MAGIC = b"SANMOKU TABLE\n"
HEADER_SIZE = 4096
READ_ONLY = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
HASH_PIECE = 1 << 24  # bytes read at a time when checksumming


class TableFileError(Exception):
    """A table file that cannot be used; `problem` is missing, unreadable, foreign, stale, truncated,
    corrupt (its bytes do not match its checksum) or changing (written while it was checked)."""

    def __init__(self, path: Path, problem: str, detail: str, stamp: Stamp | None = None) -> None:
        super().__init__(f"{path}: {problem}: {detail}")
        self.path, self.problem, self.detail = path, problem, detail
        self.stamp = stamp  # of the file found so, when known


def variant_fields(variant: Variant) -> dict[str, Any]:
    return {
        "variant": variant.long_name,
        "rows": variant.rows,
        "cols": variant.cols,
        "k": variant.k,
        "misere": variant.misere,
        "torus": variant.torus,
    }


def entries(variant: Variant, format_version: int = FORMAT_VERSION) -> int:
    """The table's entries in that format, from the counts alone (no layout is built)."""
    return sum(class_counts(variant, reduce=format_version == FORMAT_VERSION))


def file_size(variant: Variant, format_version: int = FORMAT_VERSION) -> int:
    return HEADER_SIZE + entries(variant, format_version)


def header_of(
    variant: Variant, tiers: list[int], positions: int, sha256: str, reduce: bool = True
) -> dict[str, Any]:
    """A table's header: what it is, nothing of how it was built (the same bytes from every build)."""
    format_version = FORMAT_VERSION if reduce else RANKED_FORMAT
    return {
        "format": format_version,
        "layout": LAYOUTS[format_version],
        **variant_fields(variant),
        "solver": SOLVER_VERSION,
        "symmetries": len(class_layout_of(variant, reduce).group),
        "entries": sum(tiers),
        "tiers": tiers,
        "positions": positions,
        "sha256": sha256,
    }


def header_bytes(header: dict[str, Any]) -> bytes:
    text = MAGIC + json.dumps(header).encode()
    if len(text) >= HEADER_SIZE:
        raise ValueError("table header too long")
    return text.ljust(HEADER_SIZE - 1) + b"\n"


def write_at(handle: int, data: memoryview, offset: int) -> None:
    data = data.cast("B")
    while data:
        written = os.pwrite(handle, data, offset)
        data, offset = data[written:], offset + written


def record_path(path: Path) -> Path:
    return path.with_name(path.name + BUILD_RECORD)


def build_record(path: Path) -> dict[str, Any]:
    """How the table at `path` was built (when, in how long, on what), {} if that is not known."""
    try:
        found = json.loads(record_path(path).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def checksum(handle: int, size: int) -> str:
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
    return parsed_header(path, head)


def parsed_header(path: Path, head: bytes) -> dict[str, Any]:
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
    `check_opened`); raise TableFileError saying what is wrong. Header, length and bytes come from one
    descriptor, which the table keeps to watch the file's stamp (`Table.unchanged`)."""
    try:
        watch = Watch.of(path)
        head = os.pread(watch.descriptor, HEADER_SIZE, 0)
    except FileNotFoundError:
        raise TableFileError(path, "missing", "no such file") from None
    except OSError as error:  # a directory, or a file this account may not read
        raise TableFileError(path, "unreadable", error.strerror or str(error)) from None
    try:
        header = fields_checked(path, parsed_header(path, head), variant, watch.stamp.size)
        mapped = mmap.mmap(watch.descriptor, 0, access=mmap.ACCESS_READ)
    except BaseException:
        watch.close()
        raise
    layout = layout_in(variant, header)
    return Table(variant, memoryview(mapped)[HEADER_SIZE:], header, path, watch.stamp, layout, watch)


def check_opened(table: Table) -> bool:
    """Check the checksum of every byte of an opened table, as mapped; TableFileError if they do not
    match the header's ("corrupt") or the file changed meanwhile ("changing"). Whether the check lasts:
    False when the file had changed moments before it began (see `file_stamps`), so that a write in the
    same tick could follow unseen."""
    assert table.watch is not None and table.path is not None
    began = now_ns()
    found = hashlib.sha256(table.payload).hexdigest()
    if not table.unchanged():
        raise TableFileError(table.path, "changing", "the file changed while its checksum was computed")
    if found != table.header.get("sha256"):
        raise TableFileError(table.path, "corrupt", "the table's bytes do not match the header's checksum")
    return table.watch.stamp.quiet(began)


def layout_in(variant: Variant, header: dict[str, Any]) -> Layouts:
    """The layout a file's header names: the classes (format 3) or every position (format 2)."""
    if header.get("format") == RANKED_FORMAT:
        return layout_of(variant.cells)
    return class_layout_of(variant)


def mapped_file(table: Table) -> memoryview | None:
    """The whole file, header included, that `open_table` mapped for `table`; None for a table made in
    memory. A file renamed over it or removed since changes none of these bytes (the mapping keeps the
    ones it was opened on), so they always go with the table's header."""
    source = getattr(table.values.base, "obj", None)  # the table's bytes are a view into the mapping
    return memoryview(source) if isinstance(source, mmap.mmap) else None


def verify_table(path: Path, variant: Variant) -> dict[str, Any]:
    """Everything `open_table` checks, and the checksum of every byte; the header if all check out."""
    return check_file(path, variant)[0]


def check_file(path: Path, variant: Variant) -> tuple[dict[str, Any], Stamp, bool]:
    """As `verify_table`, read through one descriptor: the header, the stamp the bytes were checked at,
    and whether the check lasts (see `check_opened`)."""
    try:
        with path.open("rb") as source:
            began, before = now_ns(), stamp_of(source.fileno())
            head = os.pread(source.fileno(), HEADER_SIZE, 0)
            header = fields_checked(path, parsed_header(path, head), variant, before.size)
            found = checksum(source.fileno(), int(header["entries"]))
            after = stamp_of(source.fileno())
    except FileNotFoundError:
        raise TableFileError(path, "missing", "no such file") from None
    except OSError as error:
        raise TableFileError(path, "unreadable", error.strerror or str(error)) from None
    if after != before:
        raise TableFileError(path, "changing", "the file changed while its checksum was computed")
    if found != header.get("sha256"):
        raise TableFileError(path, "corrupt", "the table's bytes do not match the header's checksum", before)
    return header, before, before.quiet(began)


def checked_header(path: Path, variant: Variant) -> dict[str, Any]:
    """The header of a file that is `variant`'s table of a format this code reads (3, or 2) and of the
    current solver, and as long as it should be."""
    header = read_header(path)
    return fields_checked(path, header, variant, path.stat().st_size)


def fields_checked(path: Path, header: dict[str, Any], variant: Variant, size: int) -> dict[str, Any]:
    """`header`, if it is `variant`'s table's in a format this code reads, of the current solver, in a
    file of `size` bytes as long as it should be; else TableFileError."""
    format_version = header.get("format")
    if format_version not in LAYOUTS or header.get("layout") != LAYOUTS[format_version]:
        found = f"format {format_version!r}, layout {header.get('layout')!r}"
        raise TableFileError(path, "stale", f"{found}, not {FORMAT_VERSION}, {LAYOUT!r}")
    expected = variant_fields(variant)
    found_fields = {key: header.get(key) for key in expected}
    if found_fields != expected:
        named = found_fields["variant"]
        raise TableFileError(path, "foreign", f"a table of {named!r}, not {variant.long_name!r}")
    if header.get("solver") != SOLVER_VERSION:
        raise TableFileError(path, "stale", f"solver {header.get('solver')!r}, not {SOLVER_VERSION}")
    wanted = entries(variant, format_version)
    if header.get("entries") != wanted or size != HEADER_SIZE + wanted:
        raise TableFileError(path, "truncated", f"{size - HEADER_SIZE} table bytes, not {wanted}")
    return header
