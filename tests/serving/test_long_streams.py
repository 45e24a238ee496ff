"""A /solve stream outlives gunicorn's worker timeout: the worker keeps its heartbeat while it streams
(the stream yields between pieces, which under gevent lets the heartbeat run)."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path

import pytest

from tests.serving import harness

TIMEOUT = 2  # seconds without a heartbeat before the master kills a worker (the service uses 30)
STREAM_SECONDS = 3 * TIMEOUT


@pytest.mark.slow
def test_a_stream_longer_than_the_worker_timeout_is_not_cut(tmp_path: Path) -> None:
    command = [*harness.gunicorn_command(), "--timeout", str(TIMEOUT)]
    server = harness.start_gunicorn(tmp_path, 1, command=command)
    try:
        harness.wait_ready(server)
        started, size = time.monotonic(), 0
        url = f"{server.url}/solve?variant=4x4k4&format=ndjson"
        with urllib.request.urlopen(url, timeout=30) as response:
            while time.monotonic() - started < STREAM_SECONDS:
                piece = response.read(1 << 20)
                assert piece, "the stream ended early"
                size += len(piece)
        assert size > 10_000_000
        time.sleep(0.5)
        assert "WORKER TIMEOUT" not in server.stderr.read_text()
    finally:
        server.kill()
