"""The session's preset tables copied into a directory of a test's own: an app there starts ready, with
a cache of proven positions that no other test has written to."""

from __future__ import annotations

import shutil
from pathlib import Path

from service.engine import PRESETS, TableStore
from service.engine.tables.store import file_name


def copy_tables(store: TableStore, to: Path, leave_out: tuple[str, ...] = ()) -> Path:
    """The session's preset tables (each a valid file) copied into `to`, but those named. Only the
    presets: the session directory also holds tables other tests built (some of 700 MB), and copies of
    those filled CI's disk."""
    to.mkdir(parents=True, exist_ok=True)
    for variant in PRESETS:
        if variant.name not in leave_out:
            shutil.copy(store.directory / file_name(variant), to / file_name(variant))
    return to
