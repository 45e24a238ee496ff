"""gunicorn's worker class: gevent (what the image runs) against sync (what it ran before), on loopback.

Run: python -m tests.bench.worker_bench [--rounds 3] [--duration 5] [--slow-seconds 30] [--slow-clients 16]

Both servers run service/gunicorn_conf.py with 2 workers; the sync one only adds `-k sync` on the
command line. First the slow-client test at full length: 16 clients send their headers a byte at a
time while a probe asks GET /analyze one request after another (p99, failures). Then throughput:
wrk against both, interleaved rounds (the machine is shared and noisy), medians and the ratio
gevent / sync for each request kind.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from tests.bench.ceiling_app import BOARD
from tests.bench.wrk import GZIP, POST, Run, wrk, wrk_arguments
from tests.serving import harness
from tests.serving.harness import Server
from tests.serving.slow_clients import Probe, probe, slow_clients

CLASSES = ("sync", "gevent")
KINDS = {  # request kind -> (path, wrk arguments)
    "GET /analyze": (f"/analyze?board={BOARD}", ()),
    "POST /analyze": ("/analyze", POST),
    "GET /analyze, a new connection each": (f"/analyze?board={BOARD}", ("-H", "Connection: close")),
    "GET /solve, gzip": ("/solve", GZIP),
}


@contextmanager
def servers(workdir: Path, workers: int) -> Iterator[dict[str, Server]]:
    with ExitStack() as stack:
        started = {
            "sync": harness.start_gunicorn(
                workdir, workers, command=[*harness.gunicorn_command(), "-k", "sync"]
            ),
            "gevent": harness.start_gunicorn(workdir, workers),
        }
        for server in started.values():
            stack.callback(server.kill)
        for server in started.values():
            harness.wait_ready(server)
        yield started


def slow_round(found: dict[str, Server], args: argparse.Namespace) -> dict[str, Probe]:
    measured = {}
    for name, server in found.items():
        with slow_clients(server.port, args.slow_clients):
            measured[name] = probe(f"{server.url}/analyze?board={BOARD}", args.slow_seconds)
        print(f"  slow clients: {name}: {len(measured[name].latencies)} answers", file=sys.stderr)
    return measured


def throughput_rounds(found: dict[str, Server], args: argparse.Namespace) -> dict[tuple[str, str], list[Run]]:
    runs: dict[tuple[str, str], list[Run]] = {(c, k): [] for k in KINDS for c in CLASSES}
    for path, extra in KINDS.values():  # warm-up
        for name in CLASSES:
            wrk(found[name].url + path, args, extra, duration=1)
    for round_ in range(args.rounds):
        for kind, (path, extra) in KINDS.items():
            for name in CLASSES:  # A, B, A, B: each pair shares the machine's mood
                run = wrk(found[name].url + path, args, extra)
                runs[(name, kind)].append(run)
                print(f"  round {round_ + 1}: {name} {kind}: {run.rps:,.0f} req/s", file=sys.stderr)
    return runs


def report(slow: dict[str, Probe], runs: dict[tuple[str, str], list[Run]], args: argparse.Namespace) -> None:
    print(
        f"\n{args.slow_clients} slow clients for {args.slow_seconds:.0f} s, GET /analyze probed meanwhile:\n"
    )
    print("| workers | answered | failed (refused or over 2 s) | p50 | p99 |")
    print("|---|---:|---:|---:|---:|")
    for name, measured in slow.items():
        p50 = f"{statistics.median(measured.latencies) * 1000:.1f} ms" if measured.latencies else "-"
        p99 = "-" if measured.p99 == float("inf") else f"{measured.p99 * 1000:.1f} ms"
        print(f"| {name} | {len(measured.latencies):,} | {measured.failures} | {p50} | {p99} |")
    settings = f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s --latency"
    print(f"\nthroughput, {settings}, 2 workers each, median of {args.rounds} interleaved rounds:\n")
    print("| request | sync req/s | gevent req/s | gevent / sync | sync p99 | gevent p99 |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in KINDS:
        rps = {c: statistics.median(r.rps for r in runs[(c, kind)]) for c in CLASSES}
        p99 = {c: statistics.median(r.p99 for r in runs[(c, kind)]) * 1000 for c in CLASSES}
        print(
            f"| {kind} | {rps['sync']:,.0f} | {rps['gevent']:,.0f} | {rps['gevent'] / rps['sync']:.2f} "
            f"| {p99['sync']:.2f} ms | {p99['gevent']:.2f} ms |"
        )


def main() -> None:
    parser = wrk_arguments(__doc__)
    parser.add_argument("--slow-seconds", type=float, default=30.0)
    parser.add_argument("--slow-clients", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-workers-") as tmp, servers(Path(tmp), 2) as found:
        slow = slow_round(found, args)
        runs = throughput_rounds(found, args)
    report(slow, runs, args)


if __name__ == "__main__":
    main()
