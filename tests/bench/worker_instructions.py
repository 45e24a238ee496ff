"""Instructions a gunicorn worker spends per request, counted by callgrind: the HTTP comparison that this
shared, noisy machine cannot blur.

Run: python -m tests.bench.worker_instructions [--baseline main] [--requests 400]

Each target is served by gunicorn with `service/gunicorn_conf.py` and one gevent worker, the whole server
under `valgrind --tool=callgrind`, twice: once answering WARM_UP requests, once WARM_UP + `requests`,
one after another on one keep-alive connection, then stopped (SIGTERM); the difference between the two
workers' counts (their dumps at exit), divided by `requests`, is what a request costs (after its first
answer, each worker is left to finish what it readies then: see serving.sources.Warming). That is the
worker's whole path
(gunicorn parsing the request, gevent, the middleware, Flask, the view, writing the answer) in user
space; the system calls' time inside the kernel is not counted (the same calls for every target: one
read, two sends). On an idle machine, where the worker is what limits req/s, the ratio of instructions
is the ratio of req/s.

Targets: bare Flask sending the /analyze body (tests/bench/ceiling_app.py: `bare`), and this checkout's
service and REF's (git archive), each with the access line on and off, POST /analyze (3x3) and GET.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.bench.ceiling_app import REQUESTS
from tests.bench.stream_bench import baseline_checkout
from tests.serving import harness

BOARD, VARIANT = REQUESTS["3x3"]
BODY = json.dumps({"board": BOARD, "variant": VARIANT}, separators=(",", ":")).encode()
WARM_UP = 50


@dataclass(frozen=True)
class Target:
    name: str
    app: str
    checkout: Path
    access_log: bool
    post: bool

    def request(self, connection: http.client.HTTPConnection) -> None:
        if self.app.endswith(":bare"):
            path = "/ceiling/3x3"
        else:
            path = "/analyze" if self.post else f"/analyze?board={BOARD}&variant={VARIANT}"
        headers = {"Content-Type": "application/json", "User-Agent": "bench"}
        connection.request("POST" if self.post else "GET", path, BODY if self.post else None, headers)
        response = connection.getresponse()
        response.read()
        assert response.status == 200, response.status


def wait_for(connection_port: int, target: Target, timeout: float = 900) -> None:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            connection = http.client.HTTPConnection(harness.HOST, connection_port, timeout=60)
            target.request(connection)
            connection.close()
            return
        except (OSError, http.client.HTTPException):
            time.sleep(1)
    raise TimeoutError(f"{target.name} did not answer")


def wait_idle(pid: str, quiet_seconds: float = 3) -> None:
    """Until the process has used no CPU for `quiet_seconds` (its threads' work after a first answer)."""
    used, still = -1, 0.0
    while still < quiet_seconds:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        now = int(fields[11]) + int(fields[12])
        still = still + 0.5 if now == used else 0.0
        used = now
        time.sleep(0.5)


def worker_total(target: Target, requests: int, workdir: Path) -> int:
    """The instructions of a worker that answered `requests` and stopped (its callgrind dump at exit,
    which counts what the master did before the fork as well)."""
    port = harness.free_port()
    dumps = workdir / f"cg-{port}"
    dumps.mkdir()
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={dumps}/callgrind.out.%p",
        *harness.gunicorn_command(target.app, target.checkout),
    ]
    settings = {"SANMOKU_ACCESS_LOG": "true" if target.access_log else "false", "PYTHONHASHSEED": "0"}
    env = {"SANMOKU_BIND": f"{harness.HOST}:{port}", "WEB_CONCURRENCY": "1", **settings}
    server = harness.spawn(command, workdir, f"cg-{port}", env, port, target.checkout)
    try:
        wait_for(port, target)  # the worker's first request
        master = server.process.pid
        worker = Path(f"/proc/{master}/task/{master}/children").read_text().split()[0]
        wait_idle(worker)  # what a worker readies after its first answer, done in both runs alike
        connection = http.client.HTTPConnection(harness.HOST, port, timeout=120)
        for _ in range(requests - 1):
            target.request(connection)
        connection.close()
    finally:
        server.stop()  # SIGTERM: the worker exits, and callgrind writes its dump
    found = re.search(r"^(?:summary|totals): (\d+)", (dumps / f"callgrind.out.{worker}").read_text(), re.M)
    if found is None:
        raise RuntimeError(f"no count in the dump of {target.name}")
    return int(found.group(1))


def instructions(target: Target, requests: int, workdir: Path) -> float:
    """The worker's instructions per request: a run of WARM_UP + `requests` less one of WARM_UP."""
    return (
        worker_total(target, WARM_UP + requests, workdir) - worker_total(target, WARM_UP, workdir)
    ) / requests


def targets(before: Path, baseline: str) -> list[Target]:
    bare = "tests.bench.ceiling_app:bare"
    out = [Target("bare Flask, same body", bare, harness.REPO, True, True)]
    for name, checkout in (("after", harness.REPO), (f"before ({baseline})", before)):
        out += [
            Target(f"{name}: POST /analyze", harness.APP, checkout, True, True),
            Target(f"{name}: POST /analyze, no access line", harness.APP, checkout, False, True),
            Target(f"{name}: GET /analyze", harness.APP, checkout, True, False),
        ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default="main", help="the git ref measured as 'before'")
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-instructions-") as tmp:
        before = baseline_checkout(args.baseline, Path(tempfile.mkdtemp(dir=tmp)))
        for checkout in (harness.REPO, before):  # no run may compile what the other finds compiled
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", "service", "tests"], cwd=checkout, check=True
            )
        counts = {}
        for target in targets(before, args.baseline):
            counts[target.name] = instructions(target, args.requests, Path(tmp))
            print(f"{target.name}: {counts[target.name]:,.0f} instructions per request", flush=True)
    bare = counts["bare Flask, same body"]
    print(f"\none gunicorn gevent worker under callgrind, {args.requests} requests on one connection")
    print(
        "| target | instructions per request | bare Flask's over this (the req/s ratio on an idle machine) |"
    )
    print("|---|---:|---:|")
    for name, count in counts.items():
        print(f"| {name} | {count:,.0f} | {bare / count:.2f} |")


if __name__ == "__main__":
    main()
