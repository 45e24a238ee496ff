"""HTTP benchmark on loopback: wrk against gunicorn, every target with the same settings.

Run: python -m tests.bench.http_bench [--rounds 3] [--duration 5] [--workers 2] [--samples 5] [--stream]

1. Throughput. POST /analyze on a 3x3 and on a 4x4 position, each against the bare Flask app sending
   the very same body (tests/bench/ceiling_app.py: `bare`), and against the ceiling of this stack (the
   service's app with one endpoint that sends those bytes). Rounds are interleaved (the machine is
   shared and noisy) and medians reported, with ratios.
2. Start-up: `sanmoku serve` from process start to the first 200 from POST /analyze on a 3x3 board,
   with an empty tables directory and with a filled one.
3. With --stream: GET /solve?variant=4x4k4&format=ndjson read to the end (about 6 GB): the rate, and
   the server's peak memory from /usr/bin/time -v around gunicorn.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from service.engine import PRESETS, TableStore, default_directory
from tests.bench.ceiling_app import REQUESTS
from tests.bench.wrk import POST, Run, wrk, wrk_arguments
from tests.serving import harness
from tests.serving.harness import Server


@dataclass(frozen=True)
class Target:
    name: str
    server: str  # "ceiling", "bare" or "service"
    board: str  # a key of REQUESTS
    post: bool = True

    def path(self) -> str:
        if self.server != "service":
            return f"/ceiling/{self.board}"
        board, variant = REQUESTS[self.board]
        return "/analyze" if self.post else f"/analyze?board={board}&variant={variant}"


TARGETS = (
    Target("bare Flask, 3x3 body", "bare", "3x3"),
    Target("bare Flask, 4x4 body", "bare", "4x4"),
    Target("this stack's ceiling, 3x3 body", "ceiling", "3x3"),
    Target("POST /analyze 3x3", "service", "3x3"),
    Target("POST /analyze 4x4", "service", "4x4"),
    Target("GET /analyze 3x3", "service", "3x3", post=False),
)


def measured(url: str, target: Target, args: argparse.Namespace, duration: int | None = None) -> Run:
    return wrk(url, args, POST if target.post else (), duration, request=target.board)


@contextmanager
def servers(workdir: Path, workers: int) -> Iterator[dict[str, Server]]:
    with ExitStack() as stack:
        started = {
            "ceiling": harness.start_gunicorn(workdir, workers, "tests.bench.ceiling_app:app"),
            "bare": harness.start_gunicorn(workdir, workers, "tests.bench.ceiling_app:bare"),
            "service": harness.start_gunicorn(workdir, workers),
        }
        for server in started.values():
            stack.callback(server.kill)
        harness.wait_ready(started["ceiling"], "/ceiling/3x3")
        harness.wait_ready(started["bare"], "/ceiling/3x3")
        harness.wait_ready(started["service"])
        yield started


def same_bodies(found: dict[str, Server]) -> None:
    """Each ceiling must move exactly the bytes /analyze moves, or the ratios mean nothing."""
    for name, (board, variant) in REQUESTS.items():
        request = urllib.request.Request(
            found["service"].url + "/analyze",
            data=json.dumps({"board": board, "variant": variant}).encode(),
            headers={"Content-Type": "application/json"},
        )
        bodies = {
            urllib.request.urlopen(found["ceiling"].url + f"/ceiling/{name}", timeout=10).read(),
            urllib.request.urlopen(found["bare"].url + f"/ceiling/{name}", timeout=10).read(),
            urllib.request.urlopen(request, timeout=10).read(),
        }
        if len(bodies) != 1:
            raise RuntimeError(f"the ceiling's {name} body differs from the /analyze body")


def http_rounds(args: argparse.Namespace) -> dict[str, list[Run]]:
    runs: dict[str, list[Run]] = {t.name: [] for t in TARGETS}
    with (
        tempfile.TemporaryDirectory(prefix="sanmoku-bench-") as tmp,
        servers(Path(tmp), args.workers) as found,
    ):
        same_bodies(found)
        for target in TARGETS:  # warm-up: the first requests page in the shared tables
            measured(found[target.server].url + target.path(), target, args, duration=1)
        for round_ in range(args.rounds):
            for target in TARGETS:
                run = measured(found[target.server].url + target.path(), target, args)
                runs[target.name].append(run)
                print(f"  round {round_ + 1}: {target.name}: {run.rps:,.0f} req/s", file=sys.stderr)
    return runs


def first_answer(port: int, process: subprocess.Popen[bytes], timeout: float = 30) -> float:
    """Seconds until POST /analyze on the empty 3x3 board answers 200."""
    started = time.monotonic()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/analyze",
        data=b'{"board":"........."}',
        headers={"Content-Type": "application/json"},
    )
    while time.monotonic() - started < timeout:
        if process.poll() is not None:
            raise RuntimeError("sanmoku serve exited")
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.01)
    raise TimeoutError("no answer")


Starter = Path | list[str]


def serve_command(checkout: Path) -> list[str]:
    """`sanmoku serve` as the checkout's console script runs it: its entry point in its pyproject.toml."""
    scripts = tomllib.loads((checkout / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts["sanmoku"].split("#")[0].strip().split(":")
    entry = f"import sys; from {module} import {function}; sys.exit({function}())"
    return [sys.executable, "-c", entry, "serve"]


def start_to_first_answer(tables: Path, workers: int, starter: Starter = harness.REPO) -> float:
    """`starter`: a checkout, started by its `sanmoku serve`, or a command run here (a reference)."""
    command, cwd = (serve_command(starter), starter) if isinstance(starter, Path) else (starter, harness.REPO)
    port = harness.free_port()
    env = {**os.environ, "SANMOKU_TABLES_DIR": str(tables), "SANMOKU_BIND": f"127.0.0.1:{port}"}
    env["WEB_CONCURRENCY"] = str(workers)
    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=cwd,  # where `service` is imported from
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        first_answer(port, process)
        return time.monotonic() - started
    finally:
        os.killpg(process.pid, 9)
        process.wait(timeout=15)
        time.sleep(0.5)  # let a background build started by that server finish or die with it


def start_ups(
    samples: int, workers: int, checkouts: dict[str, Starter] | None = None
) -> dict[str, list[float]]:
    """Seconds to the first answer, `samples` starts with each tables directory; with `checkouts` (name:
    a folder or a command, as start_to_first_answer takes), each one's starts interleaved with the
    others', keyed "<name>, empty" and so on."""
    filled = default_directory()
    store = TableStore(filled)
    for variant in PRESETS:
        store.get(variant)
    checkouts = checkouts or {"": harness.REPO}
    for checkout in checkouts.values():
        if isinstance(checkout, Path):  # as `pip install .` leaves it: PYTHONDONTWRITEBYTECODE would
            # otherwise have every start compile whatever changed since the last cache was written
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "service")], check=True)
    out: dict[str, list[float]] = {}
    for _ in range(samples):
        for name, checkout in checkouts.items():
            prefix = f"{name}, " if name else ""
            with tempfile.TemporaryDirectory(prefix="sanmoku-empty-") as empty:
                one = start_to_first_answer(Path(empty), workers, checkout)
                out.setdefault(f"{prefix}empty", []).append(one)
            out.setdefault(f"{prefix}filled", []).append(start_to_first_answer(filled, workers, checkout))
    return out


def read_all(url: str) -> tuple[int, float]:
    """(bytes, seconds) to read a whole answer."""
    started, size = time.monotonic(), 0
    with urllib.request.urlopen(url, timeout=60) as response:
        while piece := response.read(1 << 20):
            size += len(piece)
    return size, time.monotonic() - started


def peak_of_workers(timer: int) -> int:
    """The largest VmHWM (peak resident set, KB) among the workers of the gunicorn under `timer`."""
    master = Path(f"/proc/{timer}/task/{timer}/children").read_text().split()[0]
    workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    peaks = [re.search(r"VmHWM:\s+(\d+)", Path(f"/proc/{w}/status").read_text()) for w in workers]
    return max(int(p.group(1)) for p in peaks if p)


def stream_rate(workers: int) -> tuple[float, float, int, tuple[float, int], tuple[int, int]]:
    """MB/s, seconds and the server's peak KB for the whole 4x4 k=4 table as NDJSON (the server under
    time -v); the table file's best download time of 3 and its size; the workers' peak KB before and
    after the stream."""
    port = harness.free_port()
    with tempfile.TemporaryDirectory(prefix="sanmoku-stream-") as tmp:
        env = {**os.environ, "SANMOKU_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers)}
        env["PROMETHEUS_MULTIPROC_DIR"] = tmp
        timing = Path(tmp) / "time.txt"
        command = ["/usr/bin/time", "-v", "-o", str(timing), *harness.gunicorn_command()]
        process = subprocess.Popen(
            command, env=env, cwd=harness.REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        server = Server(process, port, timing, timing)
        try:
            harness.wait_ready(server)
            file_size = read_all(f"{server.url}/variants/4x4k4/table")[0]  # opens the table in a worker
            download = min(read_all(f"{server.url}/variants/4x4k4/table")[1] for _ in range(3))
            before = peak_of_workers(process.pid)
            size, elapsed = read_all(f"{server.url}/solve?variant=4x4k4&format=ndjson")
            workers = (before, peak_of_workers(process.pid))
        finally:
            # SIGTERM to gunicorn's master (time's child): it stops its workers, then time reports
            master = int(Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()[0])
            os.kill(master, signal.SIGTERM)
            process.wait(timeout=30)
        peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timing.read_text()).group(1))  # type: ignore[union-attr]
    return size / elapsed / 1e6, elapsed, peak, (download, file_size), workers


def report(runs: dict[str, list[Run]], starts: dict[str, list[float]], args: argparse.Namespace) -> None:
    def rps(name: str) -> float:
        return statistics.median(r.rps for r in runs[name])

    settings = f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s --latency"
    workers = f"gunicorn {args.workers} workers (service/gunicorn_conf.py)"
    print(f"\n{settings}, {workers}, median of {args.rounds} interleaved rounds\n")
    print("| target | req/s | p50 | p99 | ratio to bare Flask, same body |")
    print("|---|---|---|---|---|")
    for target in TARGETS:
        p50 = statistics.median(r.p50 for r in runs[target.name]) * 1000
        p99 = statistics.median(r.p99 for r in runs[target.name]) * 1000
        bare = rps(f"bare Flask, {target.board} body")
        ratio = rps(target.name) / bare
        print(f"| {target.name} | {rps(target.name):,.0f} | {p50:.2f} ms | {p99:.2f} ms | {ratio:.2f} |")
    three = rps("POST /analyze 3x3") / rps("bare Flask, 3x3 body")
    four = rps("POST /analyze 4x4") / rps("bare Flask, 4x4 body")
    print(f"\nPOST /analyze 4x4 against 3x3, each against bare Flask: {four:.2f} / {three:.2f}", end="")
    print(f" = {four / three:.2f}")
    print(
        f"POST /analyze 4x4 req/s over 3x3 req/s: {rps('POST /analyze 4x4') / rps('POST /analyze 3x3'):.2f}"
    )
    for kind, times in starts.items():
        print(
            f"sanmoku serve, start to the first POST /analyze 200, {kind} tables directory: "
            f"median {statistics.median(times):.2f} s, max {max(times):.2f} s ({len(times)} starts)"
        )


def main() -> None:
    parser = wrk_arguments(__doc__)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--samples", type=int, default=5, help="starts with each tables directory")
    parser.add_argument("--stream", action="store_true", help="also stream the whole 4x4 k=4 table")
    args = parser.parse_args()
    runs = http_rounds(args)
    starts = start_ups(args.samples, args.workers)
    report(runs, starts, args)
    if args.stream:
        rate, elapsed, peak, (download, size), (before, after) = stream_rate(args.workers)
        print(f"GET /solve?variant=4x4k4&format=ndjson: {rate:.0f} MB/s over {elapsed:.0f} s;", end="")
        print(f" peak RSS of the server {peak / 1024:.0f} MB (time -v); workers' peak (VmHWM)", end="")
        print(f" {before / 1024:.0f} MB before the stream, {after / 1024:.0f} MB after")
        print(f"GET /variants/4x4k4/table ({size / 1e6:.1f} MB): {download:.3f} s (best of 3)")


if __name__ == "__main__":
    main()
