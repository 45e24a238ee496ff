"""HTTP benchmark on loopback: wrk against gunicorn, every target with the same settings.

Run: python -m tests.bench.http_bench [--rounds 3] [--duration 5] [--workers 2]

Targets: the ceiling of this stack (tests/bench/ceiling_app.py: the service's app with one bare
endpoint sending the same /analyze bytes), the bare Flask reference (the same endpoint in an app with
no middleware), POST /analyze, GET /analyze and GET /solve with gzip. Rounds are interleaved (the
machine is shared and noisy) and the medians reported, each with its ratio to the ceiling's req/s
and to the bare reference's. Then the cold
solve of both variants (tests/bench/engine_cold_solve.py's measurement) and the time from starting
gunicorn to the first 200 from /readyz.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.bench.ceiling_app import BOARD
from tests.bench.engine_cold_solve import ENGINE, sample
from tests.serving import harness
from tests.serving.harness import Server

BENCH = Path(__file__).resolve().parent
UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0}


@dataclass(frozen=True)
class Target:
    name: str
    server: str  # "ceiling", "bare" or "service"
    path: str
    wrk_args: tuple[str, ...] = ()

    @property
    def posts(self) -> bool:
        return self.wrk_args == POST


POST = ("-s", str(BENCH / "analyze_post.lua"))
GZIP = ("-H", "Accept-Encoding: gzip")
CEILINGS = (
    Target("ceiling: bare endpoint, this stack, GET", "ceiling", "/ceiling"),
    Target("ceiling: bare endpoint, this stack, POST", "ceiling", "/ceiling", POST),
)
REFERENCES = (
    Target("reference: bare Flask app, no middleware, GET", "bare", "/ceiling"),
    Target("reference: bare Flask app, no middleware, POST", "bare", "/ceiling", POST),
)
MEASURED = (
    Target("POST /analyze", "service", "/analyze", POST),
    Target("GET /analyze", "service", f"/analyze?board={BOARD}"),
    Target("GET /solve, gzip", "service", "/solve", GZIP),
)
TARGETS = CEILINGS + REFERENCES + MEASURED


def baseline(target: Target, among: tuple[Target, ...]) -> Target:
    """The target in `among` sent the same kind of request: a GET, or the same POST with its body."""
    return next(t for t in among if t.posts == target.posts)


@dataclass(frozen=True)
class Run:
    rps: float
    p50: float  # seconds
    p99: float


def seconds(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    if match is None:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match.group(1)) * UNITS[match.group(2)]


def parse_wrk(output: str) -> Run:
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors or "Socket errors" in output:
        raise RuntimeError(f"wrk saw failures:\n{output}")
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.M)
    if not (rps and p50 and p99):
        raise ValueError(f"unexpected wrk output:\n{output}")
    return Run(float(rps.group(1)), seconds(p50.group(1)), seconds(p99.group(1)))


def wrk(url: str, args: argparse.Namespace, extra: tuple[str, ...], duration: int | None = None) -> Run:
    """One wrk run; the same threads, connections and duration for every target."""
    duration = duration or args.duration
    command = [
        "wrk",
        f"-t{args.threads}",
        f"-c{args.connections}",
        f"-d{duration}s",
        "--latency",
        *extra,
        url,
    ]
    env = {**os.environ, "BOARD": BOARD}  # analyze_post.lua reads the board from here
    done = subprocess.run(command, capture_output=True, text=True, timeout=duration + 30, env=env, check=True)
    return parse_wrk(done.stdout)


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
        harness.wait_ready(started["ceiling"], "/ceiling")
        harness.wait_ready(started["bare"], "/ceiling")
        harness.wait_ready(started["service"])
        yield started


def same_body(found: dict[str, Server]) -> None:
    """The ceiling must move exactly the bytes /analyze moves, or the ratio means nothing."""
    bodies = [
        urllib.request.urlopen(found["ceiling"].url + "/ceiling", timeout=10).read(),
        urllib.request.urlopen(found["bare"].url + "/ceiling", timeout=10).read(),
        urllib.request.urlopen(f"{found['service'].url}/analyze?board={BOARD}", timeout=10).read(),
    ]
    if len(set(bodies)) != 1:
        raise RuntimeError("the ceiling's body differs from the /analyze body")


def http_rounds(args: argparse.Namespace) -> dict[str, list[Run]]:
    runs: dict[str, list[Run]] = {t.name: [] for t in TARGETS}
    with (
        tempfile.TemporaryDirectory(prefix="sanmoku-bench-") as tmp,
        servers(Path(tmp), args.workers) as found,
    ):
        same_body(found)
        for target in TARGETS:  # warm-up: the first requests page in the shared tables
            wrk(found[target.server].url + target.path, args, target.wrk_args, duration=1)
        for round_ in range(args.rounds):
            for target in TARGETS:
                run = wrk(found[target.server].url + target.path, args, target.wrk_args)
                runs[target.name].append(run)
                print(f"  round {round_ + 1}: {target.name}: {run.rps:,.0f} req/s", file=sys.stderr)
    return runs


def start_to_first_answer(samples: int, workers: int) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory(prefix="sanmoku-start-") as tmp:
        for _ in range(samples):
            server = harness.start_gunicorn(Path(tmp), workers)
            try:
                times.append(harness.wait_ready(server))
            finally:
                server.kill()
    return times


def report(
    runs: dict[str, list[Run]], cold: list[float], starts: list[float], args: argparse.Namespace
) -> None:
    def rps(target: Target) -> float:
        return statistics.median(r.rps for r in runs[target.name])

    settings = f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s --latency"
    print(f"\n{settings}, gunicorn {args.workers} workers (gunicorn_conf.py), median of {args.rounds} rounds")
    print("(each ratio is against the ceiling or reference sent the same request: GET, or the same POST)\n")
    print("| target | req/s | p50 | p99 | ratio to ceiling | ratio to bare Flask |")
    print("|---|---|---|---|---|---|")
    for target in TARGETS:
        p50 = statistics.median(r.p50 for r in runs[target.name]) * 1000
        p99 = statistics.median(r.p99 for r in runs[target.name]) * 1000
        ceiling, bare = rps(baseline(target, CEILINGS)), rps(baseline(target, REFERENCES))
        ratios = f"{rps(target) / ceiling:.2f} | {rps(target) / bare:.2f}"
        print(f"| {target.name} | {rps(target):,.0f} | {p50:.2f} ms | {p99:.2f} ms | {ratios} |")
    print()
    print(f"cold solve, both variants: {statistics.median(cold) * 1000:.1f} ms (median of {len(cold)})")
    start = statistics.median(starts)
    print(f"start to first answer (gunicorn start to /readyz 200): {start:.2f} s (median of {len(starts)})")


def wrk_arguments(description: str | None) -> argparse.ArgumentParser:
    """The options every wrk benchmark takes (rounds, and what wrk() reads); exits if wrk is missing."""
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=description, formatter_class=formatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=5, help="seconds per wrk run")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=8)
    return parser


def main() -> None:
    parser = wrk_arguments(__doc__)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--samples", type=int, default=5, help="cold solves and starts")
    args = parser.parse_args()
    runs = http_rounds(args)
    cold = [sample(ENGINE)[0] for _ in range(args.samples)]
    starts = start_to_first_answer(args.samples, args.workers)
    report(runs, cold, starts, args)


if __name__ == "__main__":
    main()
