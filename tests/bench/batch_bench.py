"""Large /analyze/batch requests beside short ones: GET /analyze under wrk while
one client posts batches of 1,000 random 4x4 positions with their main lines, on loopback.

Run: python -m tests.bench.batch_bench [--rounds 3] [--duration 10] [--baseline REF]

Targets, each a fresh gunicorn with ONE worker (service/gunicorn_conf.py, WEB_CONCURRENCY=1: the batch
and wrk's requests share it, as they do in a worker of any size), in interleaved rounds, medians:
- no batches: wrk alone, the baseline of every ratio;
- before: the same beside the batch client, served by the code of REF (default: main), checked out
  into a temporary folder (git archive);
- after: this checkout beside the batch client.
Then what the pause costs the batch itself: batches posted one after another with nothing else
running, before and after.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.bench.ceiling_app import BOARD
from tests.bench.stream_bench import WRK_TIMEOUT, baseline_checkout
from tests.bench.wrk import Run, wrk, wrk_arguments
from tests.serving import harness
from tests.serving.slow_clients import Batch, batch_poster

ALONE_SECONDS = 5  # batches posted alone, per target and round


@dataclass(frozen=True)
class Measured:
    run: Run | None  # None: batches alone
    batches: list[Batch]


def measure(checkout: Path, args: argparse.Namespace, workdir: Path, beside: bool, alone: bool) -> Measured:
    """wrk beside the batch client (`beside`), wrk alone, or the batch client alone (`alone`)."""
    server = harness.start_gunicorn(workdir, 1, cwd=checkout)
    try:
        harness.wait_ready(server)
        url = f"{server.url}/analyze?board={BOARD}"
        wrk(url, args, WRK_TIMEOUT, duration=1)  # warm: the kept bodies
        if not beside and not alone:
            return Measured(wrk(url, args, WRK_TIMEOUT), [])
        with batch_poster(server.url + "/analyze/batch") as batches:
            if alone:
                time.sleep(ALONE_SECONDS)
                return Measured(None, batches)
            time.sleep(0.5)  # the first batch is under way
            return Measured(wrk(url, args, WRK_TIMEOUT), batches)
    finally:
        server.kill()


def main() -> None:
    parser = wrk_arguments(__doc__)
    parser.set_defaults(duration=10)
    parser.add_argument("--baseline", default="main", help="the git ref served as 'before'")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-batches-") as tmp:
        workdir = Path(tmp)
        before = baseline_checkout(args.baseline, Path(tempfile.mkdtemp(dir=tmp)))
        targets = {
            "no batches": (harness.REPO, False),
            f"batches, before ({args.baseline})": (before, True),
            "batches, after": (harness.REPO, True),
        }
        results: dict[str, list[Measured]] = {name: [] for name in targets}
        alone: dict[str, list[Measured]] = {f"before ({args.baseline})": [], "after": []}
        for round_ in range(args.rounds):
            for name, (checkout, beside) in targets.items():
                measured = measure(checkout, args, workdir, beside, alone=False)
                results[name].append(measured)
                assert measured.run is not None
                print(f"  round {round_ + 1}: {name}: p99 {measured.run.p99 * 1000:.1f} ms", file=sys.stderr)
            for name, checkout in zip(alone, (before, harness.REPO), strict=True):
                alone[name].append(measure(checkout, args, workdir, beside=False, alone=True))
        report(results, alone, args)


def median_batch(measured: list[Measured]) -> str:
    seconds = [b.seconds for m in measured for b in m.batches if b.status == 200]
    return f"{statistics.median(seconds):.2f} s ({len(seconds)})" if seconds else "-"


def report(
    results: dict[str, list[Measured]], alone: dict[str, list[Measured]], args: argparse.Namespace
) -> None:
    settings = f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s --latency"
    print(f"\nGET /analyze?board={BOARD} ({settings}) beside one client posting batches of 1,000 random 4x4")
    print(f"positions with main lines, gunicorn 1 worker, median of {args.rounds} interleaved rounds:\n")
    print("| target | req/s | p50 | p99 | p99 / no batches | a batch, median (batches) |")
    print("|---|---:|---:|---:|---:|---:|")
    base = statistics.median(m.run.p99 for m in results["no batches"] if m.run)
    for name, measured in results.items():
        runs = [m.run for m in measured if m.run]
        rps, p50, p99 = (statistics.median(getattr(r, f) for r in runs) for f in ("rps", "p50", "p99"))
        print(
            f"| {name} | {rps:,.0f} | {p50 * 1000:.1f} ms | {p99 * 1000:.1f} ms | {p99 / base:.1f} "
            f"| {median_batch(measured)} |"
        )
    print(f"\nBatches alone ({ALONE_SECONDS} s per round, one after another):\n")
    print("| server | a batch, median (batches) |")
    print("|---|---:|")
    for name, measured in alone.items():
        print(f"| {name} | {median_batch(measured)} |")


if __name__ == "__main__":
    main()
