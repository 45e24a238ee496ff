"""A table file under construction, which outlives the process that builds it: a build that is stopped
(Ctrl-C, SIGTERM, a killed process, a machine that goes down) starts again from the last tier it wrote
and flushed.

The file, `.NAME.table.partial` beside the table's name, has the table's final length from the start
(its space reserved, so that a full disk fails at once); each tier is written to its place as it is
solved, and once flushed to disk (every 4 MB: a small table's tiers at the end) counted as done in the
record `.NAME.table.partial.json` (replaced whole, by rename). A tier being solved when the build
stopped is not in the record and is solved again. A record that does not match (another solver,
another format, another length) is a build of something else: it is started afresh. Once tier 0 is
done the file gets its checksum and header, is flushed, made read-only and renamed to the table's name
(see `table_file`); the build's record beside it keeps each tier's seconds and positions.
"""

from __future__ import annotations

import json
import os
import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..atomic_files import replace_atomically, sync_directory
from ..rules.variants import Variant
from .classes import ClassLayout
from .orbits import class_counts, positions_in_tier
from .solver import SOLVER_VERSION
from .table_file import (
    FORMAT_VERSION,
    HEADER_SIZE,
    LAYOUTS,
    RANKED_FORMAT,
    READ_ONLY,
    checksum,
    header_bytes,
    header_of,
    record_path,
    variant_fields,
    write_at,
)

ByteArray = npt.NDArray[np.uint8]
SYNC_BYTES = 1 << 22  # a small table is flushed once, at the end; a large one tier by tier


def partial_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.partial")


def record_of_partial(path: Path) -> Path:
    return path.with_name(f".{path.name}.partial.json")


def fields_of(variant: Variant, reduce: bool, entries: int) -> dict[str, Any]:
    """What a partial file must be a build of, for a build to go on with it."""
    format_version = FORMAT_VERSION if reduce else RANKED_FORMAT
    return {
        "format": format_version,
        "layout": LAYOUTS[format_version],
        **variant_fields(variant),
        "solver": SOLVER_VERSION,
        "entries": entries,
    }


def _record(path: Path, fields: dict[str, Any], size: int) -> dict[str, Any] | None:
    """The record of the partial file of the table at `path` if it is a build of `fields`, with its
    data file of `size` bytes."""
    try:
        record = json.loads(record_of_partial(path).read_text())
        found = record.get("fields")
        if "layout_digest" not in fields:  # a plan's look, without the layout: the rest must match
            found = {key: value for key, value in found.items() if key != "layout_digest"}
        matches = found == fields and partial_path(path).stat().st_size == size
    except (OSError, ValueError, AttributeError):
        return None
    return record if matches else None


class PartialTable:
    def __init__(self, path: Path, variant: Variant, layout: ClassLayout, reduce: bool = True) -> None:
        self.path, self.variant, self.layout, self.reduce = path, variant, layout, reduce
        self.data = partial_path(path)
        self.record_file = record_of_partial(path)
        self.fields = {**fields_of(variant, reduce, layout.size), "layout_digest": layout.digest()}
        self.done: dict[int, dict[str, float | int]] = {}  # tier -> its seconds and positions
        self._pending: dict[int, dict[str, float | int]] = {}  # written, not yet flushed
        self._unsynced = 0

    @property
    def size(self) -> int:
        return HEADER_SIZE + self.layout.size

    @staticmethod
    def matches(path: Path, variant: Variant, reduce: bool) -> bool:
        """Whether a stopped build of this table left a file to go on with (without building the layout)."""
        entries = sum(class_counts(variant, reduce))
        return _record(path, fields_of(variant, reduce, entries), HEADER_SIZE + entries) is not None

    def _record(self) -> dict[str, Any] | None:
        return _record(self.path, self.fields, self.size)

    def open(self) -> dict[int, dict[str, float | int]]:
        """The tiers already done (and their figures), after making the file if there is none to go on."""
        record = self._record()
        if record is None:
            self.data.parent.mkdir(parents=True, exist_ok=True)
            self.data.unlink(missing_ok=True)
            handle = os.open(self.data, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                os.posix_fallocate(handle, 0, self.size)
            except BaseException:
                os.close(handle)
                self.data.unlink(missing_ok=True)
                raise
            os.close(handle)
            record = {"fields": self.fields, "done": {}}
            self._save(record)
        self.done = {int(tier): figures for tier, figures in record["done"].items()}
        return self.done

    def next_tier(self) -> int:
        """The tier to solve next: the one below the lowest done, the full board's if none is."""
        return min(self.done, default=self.variant.cells + 1) - 1

    def tier(self, tier: int) -> ByteArray:
        """A tier's values read back from the file (to go on from it)."""
        begin = HEADER_SIZE + self.layout.tier_offset[tier]
        with self.data.open("rb") as source:
            source.seek(begin)
            return np.fromfile(source, dtype=np.uint8, count=self.layout.tier_size(tier))

    def write_tier(self, tier: int, values: ByteArray, seconds: float) -> None:
        """Write a solved tier to its place; once SYNC_BYTES are written since the last time (and at the
        end), flush them to disk and only then count their tiers as done."""
        handle = os.open(self.data, os.O_RDWR)
        try:
            write_at(handle, np.ascontiguousarray(values).data, HEADER_SIZE + self.layout.tier_offset[tier])
            self._unsynced += len(values)
            if self._unsynced >= SYNC_BYTES:
                os.fdatasync(handle)
        finally:
            os.close(handle)
        self._pending[tier] = {
            "seconds": round(seconds, 3),
            "positions": positions_in_tier(self.layout, tier, values),
        }
        if self._unsynced >= SYNC_BYTES:
            self._unsynced = 0
            self._record_pending()

    def _record_pending(self) -> None:
        self.done.update(self._pending)
        self._pending.clear()
        self._save({"fields": self.fields, "done": {str(t): f for t, f in sorted(self.done.items())}})

    def finish(self, record: dict[str, Any]) -> dict[str, Any]:
        """Checksum, header, flush, read-only, rename into place; `record` (how it was built) is written
        beside it with the seconds of every tier. Returns the header."""
        self.done.update(self._pending)  # flushed with the header below
        tiers = [self.layout.tier_size(t) for t in range(self.variant.cells + 1)]
        positions = sum(int(self.done[t]["positions"]) for t in range(self.variant.cells + 1))
        handle = os.open(self.data, os.O_RDWR)
        try:
            header = header_of(
                self.variant, tiers, positions, checksum(handle, self.layout.size), self.reduce
            )
            write_at(handle, memoryview(header_bytes(header)), 0)
            os.fsync(handle)  # the bytes are on disk before the name is: a crash leaves no bad table behind
            os.fchmod(handle, READ_ONLY)
        finally:
            os.close(handle)
        seconds = sum(float(self.done[t]["seconds"]) for t in self.done)
        record = {
            "built": datetime.now(UTC).isoformat(timespec="seconds"),
            "build_seconds": round(seconds, 3),
            "host": platform.node(),
            **record,
            "tier_seconds": [self.done[t]["seconds"] for t in range(self.variant.cells + 1)],
            "tier_positions": [self.done[t]["positions"] for t in range(self.variant.cells + 1)],
        }
        _replace_json(record_path(self.path), record)
        os.replace(self.data, self.path)
        sync_directory(self.path.parent)  # the rename outlives a crash too
        self.record_file.unlink(missing_ok=True)
        return header

    def discard(self) -> None:
        self.data.unlink(missing_ok=True)
        self.record_file.unlink(missing_ok=True)

    def _save(self, record: dict[str, Any]) -> None:
        _replace_json(self.record_file, record)


def _replace_json(path: Path, content: dict[str, Any]) -> None:
    """Write a small JSON file whole under a temporary name, then rename it into place."""
    text = json.dumps(content).encode()
    replace_atomically(path, lambda out: out.write(text))
