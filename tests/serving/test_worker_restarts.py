"""Workers that die and are respawned leave no metrics files behind (each one left made every scrape
slower) and the counts stay right; a graceful reload (SIGHUP) keeps the counts too
(service/serving/worker_metrics.py)."""

from __future__ import annotations

import os
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.serving import harness
from tests.serving.harness import Server, totals

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
    replaced(server, old, WORKERS, f"gunicorn did not respawn its workers after {sig.name}")


def reload(server: Server, workers: int) -> None:
    """gunicorn's graceful reload: new workers start, then the old ones are stopped."""
    old = workers_of(server.process.pid)
    os.kill(server.process.pid, signal.SIGHUP)
    replaced(server, old, workers, "gunicorn did not replace its workers after SIGHUP")


def replaced(server: Server, old: set[int], workers: int, failure: str) -> None:
    """Wait until `workers` workers run, none of them in `old`, and the server answers."""
    deadline = time.monotonic() + 20  # gunicorn never kills a worker that ignores SIGTERM by itself
    while time.monotonic() < deadline:
        current = workers_of(server.process.pid)
        if len(current) == workers and not current & old:
            harness.wait_ready(server)
            return
        time.sleep(0.05)
    raise TimeoutError(failure)


def send(server: Server, count: int) -> None:
    for i in range(count):
        try:
            urllib.request.urlopen(
                server.url + ("/analyze?board=X...O...." if i % 2 else "/nowhere"), timeout=10
            )
        except urllib.error.HTTPError as error:
            assert error.code == 404


@pytest.mark.slow
def test_restarted_workers_leave_no_files_and_counts_right(tmp_path: Path) -> None:
    server = harness.start_gunicorn(tmp_path, WORKERS)
    folder = tmp_path / f"metrics-{server.port}"
    try:
        harness.wait_ready(server)
        send(server, REQUESTS)
        files_before = sorted(p.name for p in folder.glob("*.db"))
        for restart in range(RESTARTS):
            replace_workers(server, signal.SIGKILL if restart % 2 else signal.SIGTERM)
            send(server, REQUESTS)
        counted = totals(server)
        files_after = sorted(p.name for p in folder.glob("*.db"))
    finally:
        server.kill()
    sent = REQUESTS * (RESTARTS + 1)
    # each readiness wait asked /readyz until it answered 200 at least once: only lower bounds there
    assert counted["404"] == sent / 2
    assert counted["200"] >= sent / 2 + RESTARTS + 1
    # What made scrapes slow was a file per dead worker, read at every scrape: none is left. (Timing
    # the scrapes here flaked on this machine's noise: a 4.6 ms scrape against a 4.53 ms limit.)
    assert files_after == files_before == ["counter_w0.db", "histogram_w0.db"], "files left behind"


@pytest.mark.slow
def test_a_reload_keeps_the_counts(tmp_path: Path) -> None:
    """SIGHUP makes gunicorn read its configuration again and replace every worker. Before, reading
    gunicorn_conf.py emptied the metrics folder, and every counter went back to 0;
    now the old workers' files stay and the new workers take other slots."""
    reloads, workers = 2, 2
    server = harness.start_gunicorn(tmp_path, workers)
    folder = tmp_path / f"metrics-{server.port}"
    try:
        harness.wait_ready(server)
        send(server, REQUESTS)
        for _ in range(reloads):
            reload(server, workers)
            send(server, REQUESTS)
        counted = totals(server)
        files = {p.name for p in folder.glob("*.db")}
    finally:
        server.kill()
    assert counted["404"] == REQUESTS / 2 * (reloads + 1)
    assert counted["200"] >= REQUESTS / 2 * (reloads + 1) + reloads + 1  # and the readiness waits
    # the old workers' slots and the new ones': at most two sets of files per worker, however many reloads
    slots = {f"{kind}_w{n}.db" for kind in ("counter", "histogram") for n in range(2 * workers)}
    assert files <= slots, files
