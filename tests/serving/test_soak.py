"""A bounded soak: 30 s of mixed GET and POST load through nginx (deploy/nginx.conf on loopback) in
front of two gunicorn backends, one of them stopped (SIGTERM to master and workers) and started again
on its port every 10 s. Every request must be answered 200 with its whole body; the latency
percentiles are printed (README, Performance).

SIGTERM, gunicorn's graceful stop, as a restart or a scale-down sends it: the worker finishes what it
is answering. A SIGKILL can cut the one answer a worker is writing at that instant (nginx has passed
its head on already), which no proxy can retry; test_failover.py covers that case and allows it.

Always the same one: under this load a restart takes several seconds, so stopping the other one
10 s later could leave no backend at all for a moment; a deployment restarts one replica at a time
too. (nginx no longer keeps a failed backend aside, max_fails=0: a request the stopped one cannot
take goes to the other at once.)"""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.serving import harness
from tests.serving.harness import HOST, Server

SECONDS = 30.0
KILL_EVERY = 10.0
CLIENTS = 4
BOARDS = ["X...O....", "........X", "XO.......", ".........", "XOX.O....", "X.O.X.O.."]
JSON = {"Content-Type": "application/json"}


def request(i: int) -> tuple[str, str, bytes | None, dict[str, str]]:
    """Method, path, body and headers of the i-th request: six kinds in turn, half of them POSTs."""
    board = BOARDS[i % len(BOARDS)]
    kind = i % 6
    if kind == 0:
        return "GET", f"/analyze?board={board}", None, {}  # mostly nginx cache hits
    if kind == 1:
        return "POST", "/analyze", json.dumps({"board": board}).encode(), JSON
    if kind == 2:
        return "GET", "/variants", None, {}  # never cached: a backend answers
    if kind == 3:
        return "POST", "/move", json.dumps({"board": board, "policy": "perfect"}).encode(), JSON
    if kind == 4:
        return "GET", "/solve?variant=misere&format=csv", None, {"Accept-Encoding": "gzip"}
    return "POST", "/analyze/batch", json.dumps({"positions": [{"board": b} for b in BOARDS]}).encode(), JSON


@dataclass
class Load:
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def client(self, port: int, first: int, deadline: float) -> None:
        i = first
        while time.monotonic() < deadline:
            method, path, body, headers = request(i)
            started = time.perf_counter()
            outcome = ""
            try:
                connection = http.client.HTTPConnection(HOST, port, timeout=10)
                try:
                    connection.request(method, path, body=body, headers=headers)
                    response = connection.getresponse()
                    data = response.read()  # IncompleteRead if the body was cut
                    if response.status != 200 or not data:
                        outcome = f"{method} {path}: {response.status} {data[:80]!r}"
                finally:
                    connection.close()
            except (OSError, http.client.HTTPException) as error:
                outcome = f"{method} {path}: {error!r}"
            elapsed = time.perf_counter() - started
            with self.lock:
                if outcome:
                    self.failures.append(outcome)
                else:
                    self.latencies.append(elapsed)
            i += CLIENTS


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_soak_with_a_backend_restarted_every_10_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    harness.require_nginx()
    load = Load()
    kills = 0
    with harness.gunicorns(tmp_path, count=2) as backends, harness.nginx([b.port for b in backends]) as proxy:
        started = time.monotonic()
        deadline = started + SECONDS
        clients = [
            threading.Thread(target=load.client, args=(proxy.port, n, deadline), daemon=True)
            for n in range(CLIENTS)
        ]
        for thread in clients:
            thread.start()
        try:
            for n in range(1, int(SECONDS / KILL_EVERY)):
                time.sleep(max(0.0, started + n * KILL_EVERY - time.monotonic()))
                victim: Server = backends[0]
                victim.stop()
                kills += 1
                backends[0] = harness.start_gunicorn(tmp_path, workers=1, port=victim.port)
                harness.wait_ready(backends[0])
        finally:  # the restarted backends replace the victims in the list that gunicorns() stops
            for thread in clients:
                thread.join(timeout=SECONDS + 30)
    answered = len(load.latencies)
    p50, p99 = (statistics.quantiles(load.latencies, n=100)[i] * 1000 for i in (49, 98))
    with capsys.disabled():
        print(
            f"\nsoak: {answered:,} requests in {SECONDS:.0f} s through nginx, "
            f"{kills} backend restarts, {len(load.failures)} failed; "
            f"latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(load.latencies) * 1000:.0f} ms"
        )
    assert load.failures == []
    assert kills == int(SECONDS / KILL_EVERY) - 1
    assert answered > 1000, "too little load to call it a soak"
