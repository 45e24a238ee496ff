"""The service's cost over bare Flask, before and after a change, in one run.

Run: python -m tests.bench.overhead_bench [--baseline main] [--rounds 5] [--duration 5] [--starts 5]

Every server runs `service/gunicorn_conf.py` (2 gevent workers, --preload), all started at once:
- bare Flask sending the very /analyze body of a 3x3 board (tests/bench/ceiling_app.py: `bare`);
- this checkout's service, with its JSON access line on and off (SANMOKU_ACCESS_LOG);
- the same two for REF (git archive into a temporary folder, this checkout's compiled core).
wrk POSTs (and GETs) /analyze on a 3x3 board with 8 connections, every target once per round, rounds
interleaved; each round's req/s is divided by bare Flask's in that round, and the median of those
ratios is reported with their spread (the machine is shared: its load average is printed). So is the
workers' CPU time per request (/proc), and bare Flask's over it: on a shared machine req/s follow the
other processes' load, while the CPU a request costs moves far less. Then
`sanmoku serve` from process start to the first 200, with an empty and a filled tables directory,
each checkout's starts interleaved with those of a bare Flask app under the same gunicorn settings
(`tests/bench/bare_app.py`, the reference: `http_bench.start_ups`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.bench.ceiling_app import REQUESTS
from tests.bench.http_bench import Starter, start_ups
from tests.bench.layer_profile import workers_cpu
from tests.bench.stream_bench import baseline_checkout
from tests.bench.wrk import POST, wrk, wrk_arguments
from tests.serving import harness
from tests.serving.harness import Server

BOARD, VARIANT = REQUESTS["3x3"]
BARE = "bare Flask"


@dataclass(frozen=True)
class Target:
    name: str
    server: str  # a key of the servers below
    post: bool

    @property
    def method(self) -> str:
        return "POST" if self.post else "GET"

    def path(self) -> str:
        if self.server == BARE:
            return "/ceiling/3x3"
        return "/analyze" if self.post else f"/analyze?board={BOARD}&variant={VARIANT}"


def targets(baseline: str) -> list[Target]:
    out = [Target(f"{BARE}, POST", BARE, True), Target(f"{BARE}, GET", BARE, False)]
    for checkout in ("after", f"before ({baseline})"):
        out += [
            Target(f"{checkout}: POST /analyze", f"{checkout}, access line", True),
            Target(f"{checkout}: GET /analyze", f"{checkout}, access line", False),
            Target(f"{checkout}: POST /analyze, no access line", f"{checkout}, no access line", True),
        ]
    return out


@contextmanager
def servers(workdir: Path, before: Path, baseline: str) -> Iterator[dict[str, Server]]:
    off = {"SANMOKU_ACCESS_LOG": "false"}
    with ExitStack() as stack:
        started = {BARE: harness.start_gunicorn(workdir, 2, "tests.bench.ceiling_app:bare")}
        for name, checkout in (("after", harness.REPO), (f"before ({baseline})", before)):
            started[f"{name}, access line"] = harness.start_gunicorn(workdir, 2, cwd=checkout)
            started[f"{name}, no access line"] = harness.start_gunicorn(
                workdir, 2, settings=off, cwd=checkout
            )
        for server in started.values():
            stack.callback(server.kill)
        for name, server in started.items():
            harness.wait_ready(server, "/ceiling/3x3" if name == BARE else "/readyz")
        yield started


@dataclass(frozen=True)
class Sample:
    rps: float
    cpu_us: float  # the workers' CPU per request
    ratio: float  # req/s over bare Flask's, same method, same round
    cpu_ratio: float  # bare Flask's CPU per request over this one's: the req/s ratio on a quiet machine


def rounds(args: argparse.Namespace, before: Path, workdir: Path) -> dict[str, list[Sample]]:
    """Each target's samples, round by round."""
    wanted = targets(args.baseline)
    runs: dict[str, list[Sample]] = {t.name: [] for t in wanted}
    with servers(workdir, before, args.baseline) as found:

        def measure(target: Target, duration: int | None = None) -> tuple[float, float]:
            server = found[target.server]
            extra = POST if target.post else ()
            used = workers_cpu(server)
            rps = wrk(server.url + target.path(), args, extra, duration).rps
            cpu = workers_cpu(server) - used
            return rps, cpu / (rps * (duration or args.duration)) * 1e6

        for target in wanted:  # warm-up: the kept bodies, and the workers' searches readied
            measure(target, duration=2)
        for number in range(args.rounds):
            measured = {t.name: measure(t) for t in wanted}
            for target in wanted:
                (rps, cpu), (bare_rps, bare_cpu) = measured[target.name], measured[f"{BARE}, {target.method}"]
                runs[target.name].append(Sample(rps, cpu, rps / bare_rps, bare_cpu / cpu))
            load = os.getloadavg()[0]
            print(f"round {number + 1}: load average {load:.1f}", flush=True)
    return runs


def report(runs: dict[str, list[Sample]], starts: dict[str, list[float]], args: argparse.Namespace) -> None:
    print(f"\nwrk -t{args.threads} -c{args.connections} -d{args.duration}s, {args.rounds} interleaved rounds")
    print("| target | req/s | ratio to bare Flask (lowest-highest) | workers' CPU per request | CPU ratio |")
    print("|---|---:|---:|---:|---:|")
    for name, samples in runs.items():
        ratios, cpu_ratios = [x.ratio for x in samples], [x.cpu_ratio for x in samples]
        rate, cpu = statistics.median(x.rps for x in samples), statistics.median(x.cpu_us for x in samples)
        spread = f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        cpu_spread = f"{statistics.median(cpu_ratios):.2f} ({min(cpu_ratios):.2f}-{max(cpu_ratios):.2f})"
        print(f"| {name} | {rate:,.0f} | {spread} | {cpu:.0f} µs | {cpu_spread} |")
    print("\n| `sanmoku serve` to the first 200 | median | lowest-highest | starts |")
    print("|---|---:|---:|---:|")
    for name, times in starts.items():
        median, lowest, highest = statistics.median(times), min(times), max(times)
        print(f"| {name} | {median:.2f} s | {lowest:.2f}-{highest:.2f} s | {len(times)} |")


def main() -> None:
    parser = wrk_arguments(__doc__)
    parser.add_argument("--baseline", default="main", help="the git ref measured as 'before'")
    parser.add_argument(
        "--starts", type=int, default=5, help="starts of each checkout, each tables directory"
    )
    parser.add_argument("--no-http", action="store_true", help="the start-ups only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-overhead-") as tmp:
        before = baseline_checkout(args.baseline, Path(tempfile.mkdtemp(dir=tmp)))
        runs = {} if args.no_http else rounds(args, before, Path(tmp))
        bare = harness.gunicorn_command("tests.bench.bare_app:app")
        checkouts: dict[str, Starter] = {
            "after": harness.REPO,
            f"before ({args.baseline})": before,
            BARE: bare,
        }
        starts = start_ups(args.starts, 2, checkouts) if args.starts else {}
    report(runs, starts, args)


if __name__ == "__main__":
    main()
