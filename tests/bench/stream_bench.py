"""Whole-table /solve streams beside short requests: GET /analyze under wrk while clients
stream the 4x4 k=4 table, on loopback.

Run: python -m tests.bench.stream_bench [--rounds 3] [--duration 10] [--streams 10] [--baseline REF]
                                       [--stalled 50]

Targets, each a fresh gunicorn (service/gunicorn_conf.py, 2 workers), in interleaved rounds (the machine
is shared and noisy), medians:
- no streams: wrk alone, the baseline of every ratio;
- before: the same with `--streams` readers of GET /solve?variant=4x4k4&format=ndjson, served by the
  code of REF (default: main), checked out into a temporary folder (git archive);
- after, every stream admitted: this checkout with SOLVE_STREAMS_PER_WORKER raised to `--streams`;
- after, default cap: this checkout as it ships (SOLVE_STREAMS_PER_WORKER streams per worker; the
  readers refused ask again a second later).
Each stream reader is curl in a process of its own, reading as fast as it can, again and again.

Then stalled readers: `--stalled` clients ask for the same stream and never read, against the
baseline and this checkout (STREAM_STALL_SECONDS set to 5 for the run); the workers' resident memory
(VmRSS, summed) before, 3 s after they connect, and 8 s after (past the stall limit).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from service.app import DEFAULTS
from tests.bench.ceiling_app import BOARD
from tests.bench.wrk import Run, wrk, wrk_arguments
from tests.serving import harness
from tests.serving.slow_clients import Attempt, never_reading, stream_readers, streams_at_once

STREAM = "/solve?variant=4x4k4&format=ndjson"
WRK_TIMEOUT = ("--timeout", "30s")  # before the change answers took seconds: wrk's 2 s would drop them
CORE = "service/engine/search/_core.abi3.so"  # built by pip install, not in git: the baseline borrows it


@dataclass(frozen=True)
class Target:
    name: str
    streams: bool
    checkout: Path
    env: dict[str, str]


@dataclass(frozen=True)
class Measured:
    run: Run
    attempts: list[Attempt]


def baseline_checkout(ref: str, folder: Path) -> Path:
    """`ref` of this repository, exported to `folder`, with this checkout's compiled search core."""
    archive = subprocess.run(["git", "archive", ref], cwd=harness.REPO, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    if (harness.REPO / CORE).exists():
        shutil.copy(harness.REPO / CORE, folder / CORE)
    return folder


def measure(target: Target, args: argparse.Namespace, workdir: Path) -> Measured:
    server = harness.start_gunicorn(workdir, 2, settings=target.env, cwd=target.checkout)
    try:
        harness.wait_ready(server)
        url = f"{server.url}/analyze?board={BOARD}"
        wrk(url, args, WRK_TIMEOUT, duration=1)  # warm: the kept bodies of both workers
        if not target.streams:
            return Measured(wrk(url, args, WRK_TIMEOUT), [])
        with stream_readers(server.url + STREAM, args.streams, args.duration + 3, workdir) as attempts:
            time.sleep(2)  # every reader has started its stream (or been refused)
            run = wrk(url, args, WRK_TIMEOUT)
        return Measured(run, attempts)
    finally:
        server.kill()


def workers_rss(server: harness.Server) -> float:
    """The resident memory of the server's workers, summed, in MB."""
    master = server.process.pid
    total = 0
    for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        status = Path(f"/proc/{pid}/status").read_text()
        total += int(status.split("VmRSS:")[1].split()[0])
    return total / 1024


def stalled(checkout: Path, count: int, workdir: Path) -> tuple[float, float, float]:
    """Workers' RSS (MB) before `count` never-reading clients, with them, and after the stall limit."""
    env = {"SANMOKU_STREAM_STALL_SECONDS": "5"}
    server = harness.start_gunicorn(workdir, 2, settings=env, cwd=checkout)
    try:
        harness.wait_ready(server)
        before = workers_rss(server)
        with never_reading(server.port, STREAM, count):
            time.sleep(3)
            during = workers_rss(server)
            time.sleep(5)
            after = workers_rss(server)
        return before, during, after
    finally:
        server.kill()


def streamed(attempts: list[Attempt]) -> int:
    return sum(a.size for a in attempts if a.status == 200)


def report(results: dict[str, list[Measured]], args: argparse.Namespace) -> None:
    settings = f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s --latency"
    print(f"\nGET /analyze?board={BOARD} ({settings}) beside {args.streams} readers of GET {STREAM},")
    print(f"gunicorn 2 workers, median of {args.rounds} interleaved rounds:\n")
    columns = "req/s | p50 | p99 | p99 / no streams | streams at once | streamed, all readers | refused (503)"
    print(f"| target | {columns} |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    base = statistics.median(m.run.p99 for m in results["no streams"])
    for name, measured in results.items():
        rps = statistics.median(m.run.rps for m in measured)
        p50 = statistics.median(m.run.p50 for m in measured)
        p99 = statistics.median(m.run.p99 for m in measured)
        running = statistics.median(streams_at_once(m.attempts, args.duration + 3) for m in measured)
        rate = statistics.median(streamed(m.attempts) / (args.duration + 3) / 1e6 for m in measured)
        refused = statistics.median(sum(a.status == 503 for a in m.attempts) for m in measured)
        print(
            f"| {name} | {rps:,.0f} | {p50 * 1000:.1f} ms | {p99 * 1000:.1f} ms | {p99 / base:.1f} "
            f"| {running:.1f} | {rate:.0f} MB/s | {refused:.0f} |"
        )


def main() -> None:
    parser = wrk_arguments(__doc__)
    parser.set_defaults(duration=10)
    parser.add_argument("--streams", type=int, default=10)
    parser.add_argument("--baseline", default="main", help="the git ref served as 'before'")
    parser.add_argument("--stalled", type=int, default=50, help="never-reading clients (0: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-streams-") as tmp:
        workdir = Path(tmp)
        before = baseline_checkout(args.baseline, Path(tempfile.mkdtemp(dir=tmp)))
        cap = DEFAULTS["SOLVE_STREAMS_PER_WORKER"]
        targets = [
            Target("no streams", False, harness.REPO, {}),
            Target(f"before ({args.baseline})", True, before, {}),
            Target(
                "after, every stream admitted",
                True,
                harness.REPO,
                {"SANMOKU_SOLVE_STREAMS_PER_WORKER": str(args.streams)},
            ),
            Target(f"after, default cap ({cap} per worker)", True, harness.REPO, {}),
        ]
        results: dict[str, list[Measured]] = {t.name: [] for t in targets}
        for round_ in range(args.rounds):
            for target in targets:
                measured = measure(target, args, workdir)
                results[target.name].append(measured)
                print(
                    f"  round {round_ + 1}: {target.name}: p99 {measured.run.p99 * 1000:.1f} ms, "
                    f"{streams_at_once(measured.attempts, args.duration + 3):.1f} streams at once",
                    file=sys.stderr,
                )
        report(results, args)
        if args.stalled:
            print(
                f"\n{args.stalled} clients that never read GET {STREAM}, gunicorn 2 workers, workers' RSS:\n"
            )
            print("| server | before | 3 s after they connect | 8 s after (stall limit 5 s) |")
            print("|---|---:|---:|---:|")
            for name, checkout in ((f"before ({args.baseline})", before), ("after", harness.REPO)):
                rss = stalled(checkout, args.stalled, workdir)
                print(f"| {name} | {rss[0]:.0f} MB | {rss[1]:.0f} MB | {rss[2]:.0f} MB |")


if __name__ == "__main__":
    main()
