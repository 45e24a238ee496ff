"""Exposed directly, as the image runs it, the server keeps answering while slow clients trickle
their headers in (gevent workers: a slow client costs a greenlet, not a worker). The benchmark
(tests/bench/worker_bench.py) runs the same for 30 s and measures throughput against sync workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.serving import harness
from tests.serving.slow_clients import allowed_latency, probe, slow_clients

SLOW_CLIENTS = 16
SECONDS = 8.0


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_slow_clients_do_not_block_other_requests(tmp_path: Path) -> None:
    server = harness.start_gunicorn(tmp_path, workers=2)
    try:
        harness.wait_ready(server)
        limit = allowed_latency(f"{server.url}/analyze?board=X...O....", 0.250)  # blocked: seconds
        with slow_clients(server.port, SLOW_CLIENTS):
            measured = probe(f"{server.url}/analyze?board=X...O....", SECONDS)
    finally:
        server.kill()
    assert measured.failures == 0
    assert len(measured.latencies) > 100, "too few answers to speak of a p99"
    assert measured.p99 < limit, f"p99 {measured.p99 * 1000:.1f} ms with {SLOW_CLIENTS} slow clients"
