"""Format 3 (one entry per class of symmetric positions) against format 2 (one per position), in one run.

Run: python -m tests.bench.table_formats [--samples 3] [--variants 4x4k4,4x5k4] [--threads 2]

For each variant, builds of both formats alternate (`sanmoku tables build NAME --format F` into an
empty directory under /usr/bin/time -v: wall time with the process's start, peak memory; the median of
--samples each), then the file's size, and the time of `Table.lookup` (a position's value and every
move's) on the same 10,000 positions of random games, both tables in turn for each position: the median
of each and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from service.engine import TableStore, get_variant
from tests.bench.table_build import random_positions, timed


def build(name: str, fmt: int, threads: int, directory: Path) -> tuple[float, int]:
    """(wall seconds, peak KB) of building the table afresh into `directory`."""
    for old in directory.glob("*.table*"):
        old.unlink()
    command = ["sanmoku", "tables", "build", name, "--dir", str(directory), "--format", str(fmt)]
    wall, peak, _ = timed([*command, "--threads", str(threads)])
    return wall, peak


def lookup_times(directories: dict[int, Path], name: str, count: int) -> dict[int, float]:
    """The median seconds of a lookup in each format's table, the two interleaved."""
    variant = get_variant(name)
    tables = {fmt: TableStore(directory).get(variant) for fmt, directory in directories.items()}
    times: dict[int, list[float]] = {fmt: [] for fmt in tables}
    for position in random_positions(variant, count):
        for fmt, table in tables.items():
            begun = time.perf_counter()
            table.lookup(position)
            times[fmt].append(time.perf_counter() - begun)
    return {fmt: statistics.median(spent) for fmt, spent in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--variants", default="4x4k4,4x5k4")
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--positions", type=int, default=10_000)
    args = parser.parse_args()
    print(f"| variant | format | size on disk | build ({args.threads} threads) | peak memory | lookup |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="sanmoku-formats-") as kept:
        for name in args.variants.split(","):
            directories = {fmt: Path(kept) / f"{name}-{fmt}" for fmt in (2, 3)}
            runs: dict[int, list[tuple[float, int]]] = {2: [], 3: []}
            for _ in range(args.samples):
                for fmt, directory in directories.items():
                    directory.mkdir(exist_ok=True)
                    runs[fmt].append(build(name, fmt, args.threads, directory))
            lookups = lookup_times(directories, name, args.positions)
            for fmt, directory in directories.items():
                size = next(directory.glob("*.table")).stat().st_size
                wall = statistics.median(w for w, _ in runs[fmt])
                peak = statistics.median(p for _, p in runs[fmt])
                print(
                    f"| {name} | {fmt} | {size / 1e6:,.1f} MB | {wall:.1f} s | {peak / 1024:,.0f} MB "
                    f"| {lookups[fmt] * 1e6:.1f} µs |",
                    flush=True,
                )
            print(f"| {name} | 3 / 2 | | | | {lookups[3] / lookups[2]:.2f} |", flush=True)


if __name__ == "__main__":
    main()
