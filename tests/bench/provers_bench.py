"""Provers benchmark (issue 26): the goals' table, every row measured in one run on one machine.

Run: python -m tests.bench.provers_bench [--positions 10] [--seed 1] [--cap 60]

1. The empty 6x6k5 and 7x7k5 boards: every move's result proven (a draw: every move's value), from a
   cold start (new tables), within --cap seconds.
2. Positions after 4, 8 and 12 random plies on 6x6k5, 7x7k5 and 8x8k5, and 5x5k4 (four in a row: where
   alpha-beta is strong): the share whose every move's value is proven within the service's default
   budget (1 s, estimates on, as the analyst asks), with the provers (the engine as it is) and without
   (alpha-beta alone: PROVERS_SHARE = 0); the two runs of each position interleaved, each cold.
3. The n,n,n boards 5x5k5 ... 8x8k8 and the other boards whose empty position a pairing settles: the
   time to prove every move a draw.
Times are wall times on a shared machine: compare the rows of one run, not runs.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

from service.engine import Position, Variant, get_variant
from service.engine.search import Budget, SearchEngine
from service.engine.search import engine as engine_module
from service.engine.search.native import TranspositionTable
from service.engine.search.proof_number import thread_table
from service.http.schemas import DEFAULT_BUDGET_MS
from tests.bench.search_bench import random_position
from tests.search.positions import position_of

DEFAULT_BUDGET = DEFAULT_BUDGET_MS / 1000
TABLE_BITS = 20


@contextmanager
def alpha_beta_only() -> Iterator[None]:
    share = engine_module.PROVERS_SHARE
    engine_module.PROVERS_SHARE = 0.0
    try:
        yield
    finally:
        engine_module.PROVERS_SHARE = share


def cold_analysis(position: Position, seconds: float) -> tuple[bool, float, dict[str, int]]:
    """(exact, seconds, moves closed per prover) of one analysis with new tables."""
    thread_table().clear()
    engine = SearchEngine(position.variant, table=TranspositionTable(TABLE_BITS))
    started = time.perf_counter()
    report = engine.analyze(position, Budget(seconds=seconds), estimates=True)
    return report.exact, time.perf_counter() - started, report.closed_by


def empty_boards(names: list[str], cap: float) -> None:
    print("| empty board | every move proven | seconds | moves closed by |")
    print("|---|---|---|---|")
    for name in names:
        variant = get_variant(name)
        exact, seconds, closed = cold_analysis(Position.empty(variant), cap)
        shown = ", ".join(f"{prover} {n}" for prover, n in sorted(closed.items()))
        print(f"| {name} | {'yes' if exact else 'no'} | {seconds:.2f} | {shown or '-'} |", flush=True)


def shares(variants: list[Variant], plies: list[int], count: int, seed: int) -> None:
    print(
        "| board, plies | positions | exact with the provers | exact, alpha-beta alone"
        " | median s with / without |"
    )
    print("|---|---|---|---|---|")
    for variant in variants:
        for ply in plies:
            rng = random.Random(seed)
            board = SearchEngine(variant, table_bits=10).board
            positions = [position_of(variant, *random_position(board, ply, rng)) for _ in range(count)]
            with_provers, without, times_with, times_without = 0, 0, [], []
            for position in positions:
                exact, seconds, _ = cold_analysis(position, DEFAULT_BUDGET)
                with_provers += exact
                times_with.append(seconds)
                with alpha_beta_only():
                    exact, seconds, _ = cold_analysis(position, DEFAULT_BUDGET)
                without += exact
                times_without.append(seconds)
            median = sorted(times_with)[count // 2], sorted(times_without)[count // 2]
            print(
                f"| {variant.name} after {ply} | {count} | {with_provers}/{count} | {without}/{count}"
                f" | {median[0]:.2f} / {median[1]:.2f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=10, help="positions per row of table 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds for an empty board at most")
    args = parser.parse_args()
    empty_boards(["6x6k5", "7x7k5"], args.cap)
    print()
    boards = [Variant(6, 6, 5), Variant(7, 7, 5), Variant(8, 8, 5), Variant(5, 5, 4)]
    shares(boards, [4, 8, 12], args.positions, args.seed)
    print()
    empty_boards(["5x5k5", "6x6k6", "7x7k7", "8x8k8", "7x7k6", "8x8k6", "8x8k7", "4x8k5"], args.cap)


if __name__ == "__main__":
    main()
