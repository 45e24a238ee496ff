"""What watching a table's file costs: `Table.lookup` with the look at the file after its reads (one
fstat) against the same lookup over the same mapping without it, and `TableStore.opened` (one fstat,
and a stat of the name every RECHECK_SECONDS) against a dictionary read, in one run.

Run: python -m tests.bench.table_watch_bench [--variants 3x3k3,4x4k4] [--positions 10000] [--rounds 10]

Each round times every position's lookup without the watch and with it, and the two others, in turn
(in the reverse order every other round: the first of a round ran slower), so that a busy host slows
all alike; the table prints each one's median over the rounds, and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable

from service.engine import Position, Table, TableStore, get_variant
from tests.bench.table_build import random_positions


def per_call(call: Callable[[Position], object], positions: list[Position]) -> float:
    """Seconds per call over all the positions, in one tight loop."""
    begun = time.perf_counter()
    for position in positions:
        call(position)
    return (time.perf_counter() - begun) / len(positions)


def measure(store: TableStore, name: str, positions: int, rounds: int) -> dict[str, float]:
    """The median over the rounds of each way's seconds per call; the ways alternate within a round."""
    variant = get_variant(name)
    watched = store.get(variant)
    bare = Table(variant, watched.payload, watched.header, layout=watched.layout)  # the same bytes, no watch
    sample = random_positions(variant, positions)
    held = {variant: watched}
    ways: dict[str, Callable[[Position], object]] = {
        "bare": bare.lookup,
        "watched": watched.lookup,
        "opened": lambda position: store.opened(position.variant),
        "dict": lambda position: held.get(position.variant),
    }
    spent: dict[str, list[float]] = {way: [] for way in ways}
    for round_ in range(rounds):
        order = list(ways.items())
        for way, call in order[::-1] if round_ % 2 else order:  # neither goes first every time
            spent[way].append(per_call(call, sample))
    return {way: statistics.median(times) for way, times in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", default="3x3k3,4x4k4")
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print("| variant | lookup, unwatched | lookup, watched | ratio | opened() | a dict read |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="sanmoku-watch-") as directory:
        store = TableStore(directory)
        for name in args.variants.split(","):
            found = measure(store, name, args.positions, args.rounds)
            print(
                f"| {name} | {found['bare'] * 1e6:.2f} µs | {found['watched'] * 1e6:.2f} µs "
                f"| {found['watched'] / found['bare']:.3f} | {found['opened'] * 1e6:.2f} µs "
                f"| {found['dict'] * 1e6:.2f} µs |",
                flush=True,
            )


if __name__ == "__main__":
    main()
