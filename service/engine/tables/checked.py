"""The record, beside a table file, of the stamp at which its bytes were last checked whole
(`NAME.table.checked.json`), so that the processes that open it after that check need not read every
byte again (seconds for gigabytes): a file whose stamp is the recorded one is the file that was checked,
any write into it since has moved its times (see `file_stamps`).

Written by whoever checked the bytes: a build (it computed the checksum of the bytes it wrote), a
verification, a process that opened a file with no record (or another stamp) and checked it. Only a
check that began once the file had been quiet is recorded. A record that cannot be written (a
read-only directory) is not needed for serving: each process then checks the file itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..atomic_files import replace_atomically
from ..file_stamps import Stamp

RECORD = ".checked.json"


def record_path(path: Path) -> Path:
    return path.with_name(path.name + RECORD)


def recorded(path: Path, sha256: object) -> Stamp | None:
    """The stamp at which the file at `path`, of that checksum, was last checked whole, if recorded."""
    try:
        found: Any = json.loads(record_path(path).read_text())
        stamp = Stamp(*(int(part) for part in found["stamp"]))
        return stamp if found["sha256"] == sha256 else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def record(path: Path, stamp: Stamp, sha256: object) -> None:
    """Record that the file at `path` had the bytes of `sha256` at `stamp` (OSError if it cannot)."""
    text = json.dumps({"stamp": list(stamp), "sha256": sha256}).encode()
    replace_atomically(record_path(path), lambda out: out.write(text))
