"""What the serving tests share beyond the session's fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.engine.tables.locks import file_lock


@pytest.fixture
def alone_on_the_host() -> Iterator[None]:
    """The tests that measure latency beside a load, one at a time across the session's workers: two
    side by side would each load both cores and measure the other's load as well as their own."""
    with file_lock(Path(os.environ["SANMOKU_TABLES_DIR"]) / ".latency-tests.lock"):
        yield
