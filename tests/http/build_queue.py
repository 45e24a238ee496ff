"""What the API tests of background builds wait for."""

from __future__ import annotations

import time
from pathlib import Path


def queue_left(tables: Path, seconds: float = 10.0) -> list[Path]:
    """The build queue's entries once it has emptied, or after `seconds`. The builder takes a table off its
    queue just after the table's file is in place (a builder stopped between the two builds it again rather
    than lose it), so the queue empties a moment after the table answers."""
    deadline = time.monotonic() + seconds
    while (left := list((tables / "queue").iterdir())) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left
