"""A large /analyze/batch under gunicorn's gevent workers: the worker's other
connections are answered while it works through the batch's items. One worker, so that the batch
and the probe share it; bounded: a few seconds of requests on loopback."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from tests.serving import harness
from tests.serving.slow_clients import allowed_latency, batch_poster, probe

PROBE_SECONDS = 4.0
P99_LIMIT = 0.050  # seconds; before the pause between items: 41 answers in 4 s, p99 214 ms (a batch)


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_a_batch_of_1000_main_lines_leaves_short_requests_fast(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = harness.start_gunicorn(tmp_path, workers=1)
    try:
        harness.wait_ready(server)
        limit = allowed_latency(f"{server.url}/analyze?board=X...O....", P99_LIMIT)
        with batch_poster(server.url + "/analyze/batch") as batches:
            time.sleep(0.5)  # the first batch is under way
            measured = probe(f"{server.url}/analyze?board=X...O....", PROBE_SECONDS)
    finally:
        server.kill()
    seconds = statistics.median(b.seconds for b in batches)
    with capsys.disabled():
        print(
            f"\nGET /analyze beside batches of 1,000 4x4 main lines ({len(batches)} batches, median "
            f"{seconds:.2f} s): {len(measured.latencies)} answers, p99 {measured.p99 * 1000:.1f} ms"
        )
    assert {b.status for b in batches} == {200}
    assert len(batches) >= 2, "the batches were not running beside the probe"
    assert measured.failures == 0
    assert measured.p99 <= limit, f"p99 {measured.p99 * 1000:.1f} ms beside batches"
    assert len(measured.latencies) > 100, "too few answers to speak of a p99"
