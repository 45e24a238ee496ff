"""Solved-table benchmark: building, opening and reading ranked tables, against the dense solver the
service had before and a naive compiled solver, in the same run.

Run: python -m tests.bench.table_build [--samples 1] [--no-dense] [--variants 4x4k4,3x6k3,...]

1. `sanmoku tables build VARIANT` into an empty directory, under /usr/bin/time -v (process start
   included), on every processor and on one: wall time and peak memory (median of --samples), and the
   file's size. In the same run, where it fits in memory, the dense solver
   (tests/engine/tables/dense_solver.py: 3**cells bytes) solving the same variant in a fresh process,
   also under /usr/bin/time -v.
2. The naive compiled solver (tests/bench/naive_solver.c, built here with cc -O2: a memoised negamax
   over a dense table) on 4x4k4, the baseline of the 4x4 build time.
3. Opening an existing table in a fresh process (header and length), checking every byte (`verify`),
   and the analysis of a position (its value and every move's), median over 10,000 positions of random
   games, for 4x4k4 and 4x5k4.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service.engine import Position, TableStore, Variant, get_variant
from service.engine.tables.build_plan import available_memory
from service.engine.tables.table_file import build_record, read_header

BUILDS = ("4x4k4", "3x6k3", "4x5k4", "3x7k4", "2x11k4")
DENSE = """
import sys
from service.engine import get_variant
from tests.engine.tables.dense_solver import dense_solve
dense_solve(get_variant(sys.argv[1]))
"""
OPEN = """
import sys, time
from service.engine import TableStore, get_variant
from service.engine.tables.table_file import open_table
variant = get_variant(sys.argv[2])
path = TableStore(sys.argv[1]).path(variant)
started = time.perf_counter()
open_table(path, variant)
print(time.perf_counter() - started)
"""
HERE = Path(__file__).resolve().parent


def timed(command: list[str]) -> tuple[float, int, str]:
    """(wall seconds, peak KB, stdout) of a command, from /usr/bin/time -v."""
    done = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True, check=True)
    wall = re.search(
        r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", done.stderr
    )
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if wall is None or peak is None:
        raise RuntimeError(done.stderr)
    hours, minutes, secs = wall.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(secs), int(peak.group(1)), done.stdout


def build(name: str, samples: int, threads: int, keep: Path | None = None) -> tuple[float, int, int, float]:
    """(wall, peak KB, bytes on disk, the build's own seconds from the file's header: solving and
    writing, without the process's start)."""
    walls, peaks, solves, size = [], [], [], 0
    for _ in range(samples):
        with tempfile.TemporaryDirectory(prefix="sanmoku-build-") as empty:
            command = ["sanmoku", "tables", "build", name, "--dir", empty, "--threads", str(threads)]
            wall, peak, _ = timed(command)
            walls.append(wall)
            peaks.append(peak)
            made = next(Path(empty).glob("*.table"))
            solves.append(float(build_record(made)["build_seconds"]))
            size = made.stat().st_size
            if keep is not None:
                shutil.move(made, keep / made.name)
    return statistics.median(walls), int(statistics.median(peaks)), size, statistics.median(solves)


def dense(name: str) -> tuple[float, int] | None:
    """The dense solver in a fresh process, or None where its 3**cells bytes cannot fit."""
    needed = 3 ** get_variant(name).cells * 1.2
    free = available_memory()
    if free is not None and needed > free:
        return None
    wall, peak, _ = timed([sys.executable, "-c", DENSE, name])
    return wall, peak


def naive(name: str) -> tuple[float, int, str]:
    variant = get_variant(name)
    with tempfile.TemporaryDirectory(prefix="sanmoku-naive-") as folder:
        program = Path(folder) / "naive_solver"
        subprocess.run(["cc", "-O2", "-o", str(program), str(HERE / "naive_solver.c")], check=True)
        args = [str(variant.rows), str(variant.cols), str(variant.k)] + (["misere"] if variant.misere else [])
        return timed([str(program), *args])


def lookups(directory: Path, name: str, positions: int = 10_000) -> tuple[float, float, float]:
    """(open in a fresh process, verify, median analysis) in seconds."""
    variant = get_variant(name)
    opens = [
        float(subprocess.run([sys.executable, "-c", OPEN, str(directory), name], capture_output=True,
                             text=True, check=True).stdout)
        for _ in range(5)
    ]  # fmt: skip
    store = TableStore(directory)
    started = time.perf_counter()
    assert store.verify(variant) is None
    verify = time.perf_counter() - started
    table = store.get(variant)
    times = []
    for position in random_positions(variant, positions):
        begun = time.perf_counter()
        table.lookup(position)
        times.append(time.perf_counter() - begun)
    return statistics.median(opens), verify, statistics.median(times)


def random_positions(variant: Variant, count: int, seed: int = 1) -> list[Position]:
    """Positions of random games, stopped after a random number of moves (or at the end)."""
    rng = random.Random(seed)
    sample = []
    while len(sample) < count:
        position = Position.empty(variant)
        for _ in range(rng.randrange(variant.cells)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        sample.append(position)
    return sample


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--samples", type=int, default=1)
    parser.add_argument("--no-dense", action="store_true", help="skip the dense solver (minutes, gigabytes)")
    parser.add_argument("--variants", default=",".join(BUILDS))
    args = parser.parse_args()
    threads = len(os.sched_getaffinity(0))
    names = args.variants.split(",")
    print(
        f"| variant | entries | build, {threads} threads | peak | 1 thread | speed-up | size on disk "
        "| dense solver (before) | peak | time ratio | memory ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="sanmoku-bench-") as kept:
        keep = Path(kept)
        results = {}
        for name in names:
            wall, peak, size, _ = results[name] = build(name, args.samples, threads, keep)
            single = build(name, args.samples, 1)[0]
            old = None if args.no_dense else dense(name)
            before = "does not fit" if old is None else f"{old[0]:.1f} s | {old[1] / 1024:,.0f} MB"
            ratios = "- | -" if old is None else f"{wall / old[0]:.2f} | {peak / old[1]:.2f}"
            if old is None and args.no_dense:
                before = "- | -"
            entries = read_header(keep / f"{get_variant(name).long_name}.table")["entries"]
            print(
                f"| {name} | {entries:,} | {wall:.1f} s | {peak / 1024:,.0f} MB | {single:.1f} s "
                f"| {single / wall:.2f} | {size / 1e6:,.1f} MB | {before} | {ratios} |",
                flush=True,
            )
        if "4x4k4" in results:
            wall, peak, out = naive("4x4k4")
            solved = float(out.split("seconds=")[1])
            print(f"\nnaive compiled solver, 4x4k4: {wall:.2f} s, {peak / 1024:.0f} MB ({out.strip()})")
            ours = results["4x4k4"][3]
            ratio = (
                f"{ours:.2f} s (solve and write) / naive compiled solve {solved:.2f} s: {ours / solved:.2f}"
            )
            print(f"4x4k4: build {ratio}")
        for name in ("4x4k4", "4x5k4"):
            if name in results:
                opening, verify, analysis = lookups(keep, name)
                print(
                    f"{name}: open in a fresh process {opening * 1000:.1f} ms (median of 5), verify "
                    f"{verify:.2f} s, analysis {analysis * 1e6:.1f} µs (median of 10,000)"
                )


if __name__ == "__main__":
    main()
