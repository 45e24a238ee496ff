"""Workers that die and are respawned leave no metrics files behind: scrapes stay as fast as before
and the counts stay right (service/worker_metrics.py)."""

from __future__ import annotations

import os
import signal
import statistics
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.serving import harness
from tests.serving.harness import Server
from tests.serving.test_gunicorn import totals

WORKERS = 1  # one slot: the same files before and after, whichever worker answered
RESTARTS = 6  # the worker killed each time, SIGTERM and SIGKILL in turn
REQUESTS = 20  # between two restarts: half 200, half 404


def workers_of(master: int) -> set[int]:
    """The master's children, from /proc (the 4th field of stat is the parent's pid)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended while we looked
            continue
        if int(fields[1]) == master:
            found.add(int(stat.parent.name))
    return found


def replace_workers(server: Server, sig: signal.Signals) -> None:
    """Kill every worker and wait for gunicorn to respawn them all. The signal comes right after the
    server is ready, when a worker may not have installed its own handlers yet: a SIGTERM must not
    be lost then (gunicorn_conf.post_fork)."""
    old = workers_of(server.process.pid)
    for pid in old:
        os.kill(pid, sig)
    deadline = time.monotonic() + 20  # gunicorn never kills a worker that ignores SIGTERM by itself
    while time.monotonic() < deadline:
        current = workers_of(server.process.pid)
        if len(current) == WORKERS and not current & old:
            harness.wait_ready(server)
            return
        time.sleep(0.05)
    raise TimeoutError(f"gunicorn did not respawn its workers after {sig.name}")


def send(server: Server, count: int) -> None:
    for i in range(count):
        try:
            urllib.request.urlopen(
                server.url + ("/analyze?board=X...O...." if i % 2 else "/nowhere"), timeout=10
            )
        except urllib.error.HTTPError as error:
            assert error.code == 404


def scrape_seconds(server: Server, samples: int = 15) -> float:
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
            response.read()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def test_restarted_workers_leave_scrapes_fast_and_counts_right(tmp_path: Path) -> None:
    server = harness.start_gunicorn(tmp_path, WORKERS)
    folder = tmp_path / f"metrics-{server.port}"
    try:
        harness.wait_ready(server)
        send(server, REQUESTS)
        before = scrape_seconds(server)
        files_before = sorted(p.name for p in folder.glob("*.db"))
        for restart in range(RESTARTS):
            replace_workers(server, signal.SIGKILL if restart % 2 else signal.SIGTERM)
            send(server, REQUESTS)
        after = scrape_seconds(server)
        counted = totals(server)
        files_after = sorted(p.name for p in folder.glob("*.db"))
    finally:
        server.kill()
    sent = REQUESTS * (RESTARTS + 1)
    # each readiness wait asked /readyz until it answered 200 at least once: only lower bounds there
    assert counted["404"] == sent / 2
    assert counted["200"] >= sent / 2 + RESTARTS + 1
    assert files_after == files_before == ["counter_w0.db", "histogram_w0.db"], "files left behind"
    assert after < before * 1.5 + 0.002, (
        f"scrape {after * 1000:.1f} ms after restarts, {before * 1000:.1f} before"
    )
