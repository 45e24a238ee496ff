"""Solved-table benchmark: building, opening and reading tables, against the old recursive solver.

Run: python -m tests.bench.table_build [--samples 3] [--no-baseline]

1. `sanmoku tables build VARIANT` into an empty directory, under /usr/bin/time -v (process start
   included): wall time and peak memory, median of --samples, and the file's size. The baseline in the
   same run is the recursive solver the service had before (tests/bench/recursive_solver.py) on 4x4
   k=4, also under /usr/bin/time -v (about a minute).
2. Both 3x3 variants solved from nothing in a fresh process (the solve calls only).
3. Opening an existing 4x4 table (checks included: header, length, checksum), median of 20.
4. The analysis of a 4x4 position from an opened table (its value and every move's), median over
   10,000 positions of random games.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service.engine import Position, TableStore, get_variant
from service.engine.table_file import open_table

BUILDS = ("normal", "misere", "3x4k3", "4x4k3", "4x4k4")
SOLVE_3X3 = """
import time
from service.engine import MISERE, NORMAL, solve
started = time.perf_counter()
solve(NORMAL), solve(MISERE)
print(time.perf_counter() - started)
"""


def timed(command: list[str]) -> tuple[float, int]:
    """(wall seconds, peak KB) of a command, from /usr/bin/time -v."""
    done = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True, check=True)
    wall = re.search(
        r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", done.stderr
    )
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if wall is None or peak is None:
        raise RuntimeError(done.stderr)
    hours, minutes, secs = wall.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(secs), int(peak.group(1))


def build(name: str, samples: int) -> tuple[float, int, int]:
    walls, peaks, size = [], [], 0
    for _ in range(samples):
        with tempfile.TemporaryDirectory(prefix="sanmoku-build-") as empty:
            wall, peak = timed(["sanmoku", "tables", "build", name, "--dir", empty])
            walls.append(wall)
            peaks.append(peak)
            size = next(Path(empty).glob("*.table")).stat().st_size
    return statistics.median(walls), int(statistics.median(peaks)), size


def open_time(directory: Path, repeats: int = 20) -> float:
    variant = get_variant("4x4k4")
    path = TableStore(directory).path(variant)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        open_table(path, variant).close()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def analysis_time(directory: Path, positions: int = 10_000) -> float:
    variant = get_variant("4x4k4")
    table = TableStore(directory).get(variant)
    rng = random.Random(1)
    sample = []
    while len(sample) < positions:
        position = Position.empty(variant)
        for _ in range(rng.randrange(variant.cells)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        sample.append(position)
    times = []
    for position in sample:
        started = time.perf_counter()
        table.analyze(position)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true", help="skip the recursive solver (a minute)")
    args = parser.parse_args()
    print("| sanmoku tables build | wall (process start included) | peak memory | size on disk |")
    print("|---|---|---|---|")
    results = {}
    for name in BUILDS:
        wall, peak, size = results[name] = build(name, args.samples)
        print(f"| {name} | {wall:.2f} s | {peak / 1024:.0f} MB | {size / 1e6:.2f} MB |", flush=True)
    if not args.no_baseline:
        wall, peak = timed([sys.executable, "-m", "tests.bench.recursive_solver", "4x4k4"])
        ours = results["4x4k4"]
        print(f"| recursive solver (before), 4x4k4 | {wall:.1f} s | {peak / 1024:.0f} MB | - |")
        ratios = f"time {ours[0] / wall:.3f}, memory {ours[1] / peak:.2f}"
        print(f"\n4x4k4: tables build / recursive solver: {ratios}")
    solves = [
        float(
            subprocess.run(
                [sys.executable, "-c", SOLVE_3X3], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(5)
    ]
    median = statistics.median(solves) * 1000
    print(f"both 3x3 variants solved from nothing: {median:.1f} ms (median of 5 processes)")
    with tempfile.TemporaryDirectory(prefix="sanmoku-open-") as directory:
        TableStore(directory).get(get_variant("4x4k4"))
        opening = open_time(Path(directory)) * 1000
        print(f"open an existing 4x4 table (checksum included): {opening:.1f} ms (median of 20)")
        analysis = analysis_time(Path(directory)) * 1e6
        print(f"analysis of a 4x4 position, value and every move: {analysis:.1f} µs (median of 10,000)")


if __name__ == "__main__":
    main()
