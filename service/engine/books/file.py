"""The book file format: a header naming what the book is and where its values come from, then, for each
ply from 0 to the deepest, the keys of its positions (`arrays`: sorted, unsigned 64-bit,
little-endian) and one value byte per key (`values`), each array starting on an 8-byte boundary.

    bytes 0..12      b"SANMOKU BOOK\\n"
    bytes 13..4095   a JSON object, padded with spaces: format, variant, deepest (ply), entries (per
                     ply), sha256 (of every byte after the header), source (where the values come
                     from, their licence and how they were checked), built (UTC), build_seconds
    bytes 4096..     the plies' arrays

A position whose side to move can make a line at once is a win in 1 and is not stored (the Connect
Four book holds 7.0 million positions instead of 9.2). A file is written under a temporary name in its
directory, flushed, made read-only and renamed into place (`atomic_files`); it is read whole once per
process to check its checksum (a tenth of a second for the Connect Four book), and is never used when
anything fails to check out. The book keeps a descriptor of the file to watch its stamp (`file_stamps`):
a file written into after the check is not answered from (see `books`).
"""

from __future__ import annotations

import hashlib
import json
import mmap
import stat
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from ..atomic_files import replace_atomically
from ..errors import UnknownVariantError
from ..file_stamps import Watch, now_ns
from ..rules.values import Value, encode
from ..rules.variants import Variant, get_variant
from .arrays import Masks
from .retrograde import Bytes

FORMAT_VERSION = 1
MAGIC = b"SANMOKU BOOK\n"
HEADER_SIZE = 4096
SUFFIX = ".book"
READ_ONLY = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
KEY = np.dtype("<u8")
WIN_IN_ONE = encode(Value(1, 1))  # the value of every position not stored
Ply = tuple[Masks, Bytes]  # a ply's sorted keys and their values


class BookFileError(Exception):
    """A book file that cannot be used: `problem` is missing, unreadable, foreign, stale, truncated,
    corrupt or changing (written while it was checked)."""

    def __init__(self, path: Path, problem: str, detail: str) -> None:
        super().__init__(f"{path}: {problem}: {detail}")
        self.path, self.problem, self.detail = path, problem, detail


@dataclass(frozen=True)
class BookData:
    variant: Variant
    header: dict[str, Any]
    keys: tuple[Masks, ...]  # by ply
    values: tuple[Bytes, ...]
    path: Path
    size: int  # bytes on disk
    watch: Watch | None = None  # the file, at the stamp its bytes were checked at (None: made in memory)
    lasting: bool = True  # False: checked moments after a write, to be checked again (see `file_stamps`)

    @property
    def deepest(self) -> int:
        return len(self.keys) - 1

    def unchanged(self) -> bool:
        """Whether the file is as it was when its bytes were checked (one fstat)."""
        return self.watch is None or self.watch.unchanged()


def file_name(variant: Variant) -> str:
    return variant.long_name + SUFFIX


def _aligned(size: int) -> int:
    return -(-size // 8) * 8


def _layout(entries: list[int]) -> list[tuple[int, int]]:
    """The offsets (after the header) of each ply's keys and values."""
    offsets, at = [], 0
    for count in entries:
        offsets.append((at, at + count * KEY.itemsize))
        at += _aligned(count * KEY.itemsize) + _aligned(count)
    return offsets


def stored(keys: list[Masks], values: list[Bytes]) -> list[Ply]:
    """What a book stores of each ply's positions: all but the wins in 1."""
    return [(k[v != WIN_IN_ONE], v[v != WIN_IN_ONE]) for k, v in zip(keys, values, strict=True)]


def write_book(
    path: Path, variant: Variant, plies: list[Ply], source: dict[str, Any], seconds: float
) -> dict[str, Any]:
    """Write the book atomically; its header."""
    path.parent.mkdir(exist_ok=True)  # not its parents: a tables directory removed meanwhile stays so
    digest = hashlib.sha256()
    header: dict[str, Any] = {}

    def write(out: BinaryIO) -> None:
        out.write(b"\0" * HEADER_SIZE)
        for keys, values in plies:
            for data in (np.ascontiguousarray(keys, dtype=KEY), np.ascontiguousarray(values, np.uint8)):
                piece = data.tobytes() + b"\0" * (_aligned(data.nbytes) - data.nbytes)
                digest.update(piece)
                out.write(piece)
        header.update(
            {
                "format": FORMAT_VERSION,
                "variant": variant.long_name,
                "deepest": len(plies) - 1,
                "entries": [len(keys) for keys, _ in plies],
                "sha256": digest.hexdigest(),
                "source": source,
                "built": datetime.now(UTC).isoformat(timespec="seconds"),
                "build_seconds": round(seconds, 1),
            }
        )
        text = MAGIC + json.dumps(header).encode()
        if len(text) >= HEADER_SIZE:
            raise ValueError("book header too long")
        out.seek(0)
        out.write(text.ljust(HEADER_SIZE - 1) + b"\n")

    replace_atomically(path, write, READ_ONLY)
    return header


def read_book(path: Path, variant: Variant | None = None) -> BookData:
    """The book in the file, checked whole (magic, format, variant, length, checksum) and mapped
    read-only, through one descriptor kept to watch the file; BookFileError saying what is wrong."""
    try:
        watch = Watch.of(path)
    except FileNotFoundError:
        raise BookFileError(path, "missing", "no such file") from None
    except OSError as error:
        raise BookFileError(path, "unreadable", str(error)) from None
    try:
        return _checked(path, variant, watch)
    except BaseException:
        watch.close()
        raise


def _checked(path: Path, variant: Variant | None, watch: Watch) -> BookData:
    began = now_ns()
    try:
        mapped = mmap.mmap(watch.descriptor, 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as error:  # unreadable, a directory, or empty (nothing to map)
        raise BookFileError(path, "unreadable", str(error)) from None
    header = _header(path, mapped[:HEADER_SIZE])
    try:
        found = get_variant(str(header.get("variant")))
    except UnknownVariantError as error:
        raise BookFileError(path, "corrupt", f"no such variant: {error}") from None
    if variant is not None and found != variant:
        raise BookFileError(path, "foreign", f"a book of {found.name}, not {variant.name}")
    entries = [int(n) for n in header.get("entries", [])]
    offsets = _layout(entries)
    expected = HEADER_SIZE + (offsets[-1][1] + _aligned(entries[-1]) if entries else 0)
    if len(mapped) != expected:
        raise BookFileError(path, "truncated", f"{len(mapped)} bytes, not {expected}")
    digest = hashlib.sha256(memoryview(mapped)[HEADER_SIZE:]).hexdigest()
    if not watch.unchanged():
        raise BookFileError(path, "changing", "the file changed while its checksum was computed")
    if digest != header.get("sha256"):
        raise BookFileError(path, "corrupt", "the bytes do not match the header's checksum")
    keys, values = [], []
    for count, (at_keys, at_values) in zip(entries, offsets, strict=True):
        keys.append(np.frombuffer(mapped, KEY, count, HEADER_SIZE + at_keys))
        values.append(np.frombuffer(mapped, np.uint8, count, HEADER_SIZE + at_values))
    lasting = watch.stamp.quiet(began)
    return BookData(found, header, tuple(keys), tuple(values), path, len(mapped), watch, lasting)


def _header(path: Path, head: bytes) -> dict[str, Any]:
    if not head.startswith(MAGIC):
        raise BookFileError(path, "foreign", "not a Sanmoku book file (no magic line)")
    if len(head) < HEADER_SIZE:
        raise BookFileError(path, "truncated", f"the header has {len(head)} of {HEADER_SIZE} bytes")
    try:
        header = json.loads(head[len(MAGIC) :])
    except ValueError as error:
        raise BookFileError(path, "corrupt", f"the header is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise BookFileError(path, "corrupt", "the header is not a JSON object")
    if header.get("format") != FORMAT_VERSION:
        raise BookFileError(path, "stale", f"format {header.get('format')!r}, not {FORMAT_VERSION}")
    return header
