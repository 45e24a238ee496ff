"""A worker that searches and still answers: GET /analyze on 3x3 (a table lookup) under wrk, with and
without two 1-second searches running in the same gevent worker, in interleaved rounds; and how long a
position the search proved before takes to answer from the cache of proven positions.

Run: python -m tests.bench.search_serving_bench [--rounds 3] [--duration 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.bench.wrk import wrk, wrk_arguments
from tests.serving import harness

LOOKUP = "/analyze?board=X...O....&variant=normal"
SEARCH = {"board": "." * 49, "variant": "7x7k5", "budget_ms": 1000}  # never proven in a second
PROVEN = {"board": "XO.X./.OX../O..../...../.....", "variant": "5x5k4"}


def post(url: str, payload: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url + "/analyze", json.dumps(payload).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def searching(url: str, stop: threading.Event, done: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        post(url, SEARCH)
        done.append(time.perf_counter() - started)


def with_searches(url: str, args: argparse.Namespace) -> tuple[float, float, int]:
    stop, done = threading.Event(), []
    threads = [threading.Thread(target=searching, args=(url, stop, done)) for _ in range(2)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    run = wrk(url + LOOKUP, args)
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return run.p50, run.p99, len(done)


def server_times(server: harness.Server, path: str, count: int) -> list[float]:
    """The last `count` access lines' durations (ms) for `path`: the time inside the service."""
    lines = [json.loads(x) for x in server.stdout.read_text().splitlines() if x.startswith("{")]
    return [line["duration_ms"] for line in lines if line.get("path") == path][-count:]


def main() -> None:
    parser: argparse.ArgumentParser = wrk_arguments(__doc__)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-search-bench-") as folder:
        workdir = Path(folder)
        settings = {"SANMOKU_TABLES_DIR": str(workdir / "tables"), "SANMOKU_TABLES_AT_START": '["normal"]'}
        server = harness.start_gunicorn(workdir, workers=1, settings=settings)
        try:
            harness.wait_ready(server)
            print("| GET /analyze (3x3, a table), one gevent worker | p50 | p99 | searches done |")
            print("|---|---|---|---|")
            quiet, busy = [], []
            for _ in range(args.rounds):
                alone = wrk(server.url + LOOKUP, args)
                quiet.append((alone.p50, alone.p99))
                busy.append(with_searches(server.url, args))
            q50, q99 = (statistics.median(x[i] for x in quiet) for i in (0, 1))
            b50, b99 = (statistics.median(x[i] for x in busy) for i in (0, 1))
            print(f"| alone | {q50 * 1000:.2f} ms | {q99 * 1000:.2f} ms | - |")
            searches = sum(x[2] for x in busy)
            print(f"| while two 1 s searches run | {b50 * 1000:.2f} ms | {b99 * 1000:.2f} ms | {searches} |")
            print(f"\np99 with searches / alone: {b99 / q99:.2f} (median of {args.rounds} rounds)")
            first = post(server.url, PROVEN)
            for _ in range(200):
                assert post(server.url, PROVEN)["source"] == "cache"
            cached = server_times(server, "/analyze", 200)
            print(
                f"a proven 5x5k4 position: searched in {first['search']['time_ms']:.1f} ms the first time; "
                f"then from the store in {statistics.median(cached):.2f} ms median, "
                f"{max(cached):.2f} ms max (inside the service, 200 requests)"
            )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
