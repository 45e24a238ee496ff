"""What an opening book buys on a board with no table: how long the search takes to prove every move
of the positions of each early ply (cold: a fresh transposition table each), the share proven within
the default budget, and what `sanmoku book build` costs for the plies that need it.

Run: python -m tests.bench.book_bench [--variant 5x5k4] [--plies 4] [--sample 60] [--build 2]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from service.engine import get_variant
from service.engine.books.build import book_positions, build_book
from service.engine.search import Budget, Searcher
from service.engine.search.proven import ProvenCache
from service.http.schemas import DEFAULT_BUDGET_MS


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="5x5k4")
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--sample", type=int, default=60, help="positions timed per ply (at most)")
    parser.add_argument("--build", type=int, default=2, help="build the book to this ply and time it")
    args = parser.parse_args()
    variant = get_variant(args.variant)
    layers = book_positions(variant, args.plies)
    budget = DEFAULT_BUDGET_MS / 1000
    within_budget = f"proven within {budget:.0f} s"
    print(f"| {variant.name}, ply | positions (up to symmetry) | timed | median | max | {within_budget} |")
    print("|---|---|---|---|---|---|")
    rng = random.Random(1)
    for ply, layer in enumerate(layers):
        sample = layer if len(layer) <= args.sample else rng.sample(layer, args.sample)
        times = []
        for position in sample:
            searcher = Searcher(variant)
            started = time.perf_counter()
            assert searcher.analyze(position, Budget()).exact
            times.append(time.perf_counter() - started)
        within = sum(t <= budget for t in times)
        median, most = statistics.median(times), max(times)
        counts = f"| {ply} | {len(layer):,} | {len(sample)} "
        print(f"{counts}| {median:.2f} s | {most:.2f} s | {within}/{len(sample)} |", flush=True)
    processes = len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory(prefix="sanmoku-book-") as folder:
        store = ProvenCache(Path(folder))
        started = time.perf_counter()
        counts = build_book(variant, args.build, store, processes)
        seconds = time.perf_counter() - started
        stats = store.stats()
        positions = sum(c.positions for c in counts)
        command = f"sanmoku book build {variant.name} --plies {args.build}"
        cost = f"{positions:,} positions in {seconds:.0f} s on {processes} processes"
        print(f"\n{command}: {cost}, {stats.bytes / 1e3:,.0f} kB in the store")


if __name__ == "__main__":
    main()
