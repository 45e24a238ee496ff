"""The HTTP benchmark's reading of wrk's output (the benchmark itself is not part of the test run)."""

from __future__ import annotations

import pytest

from tests.bench.wrk import parse_wrk

WRK = """Running 5s test @ http://127.0.0.1:40000/ceiling
  2 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.61ms  616.59us  12.32ms   80.31%
    Req/Sec     2.48k   129.61     2.75k    72.00%
  Latency Distribution
     50%    1.49ms
     75%    1.88ms
     90%    2.32ms
     99%    3.26ms
  24697 requests in 5.02s, 24.03MB read
Requests/sec:   4921.86
Transfer/sec:      4.79MB
"""


def test_reads_requests_per_second_and_percentiles() -> None:
    run = parse_wrk(WRK)
    assert run.rps == 4921.86
    assert run.p50 == pytest.approx(0.00149)
    assert run.p99 == pytest.approx(0.00326)


def test_microseconds_and_seconds_are_read_too() -> None:
    text = WRK.replace("1.49ms", "870.00us").replace("3.26ms", "1.02s")
    run = parse_wrk(text)
    assert run.p50 == pytest.approx(0.00087)
    assert run.p99 == pytest.approx(1.02)


def test_error_answers_make_the_run_fail() -> None:
    with pytest.raises(RuntimeError, match="failures"):
        parse_wrk(WRK.replace("Requests/sec", "  Non-2xx or 3xx responses: 12\nRequests/sec"))
