"""Provers benchmark: the goals' table, every row measured in one run on one machine.

Run: python -m tests.bench.provers_bench [--positions 10] [--seed 1] [--cap 60] [--boards 7x7k5,8x8k5]
     [--tables 1,2,3]

1. The empty 6x6k5 and 7x7k5 boards: every move's result proven (a draw: every move's value), from a
   cold start (new tables), within --cap seconds.
2. Positions after 4, 8 and 12 random plies on 6x6k5, 7x7k5 and 8x8k5, and 5x5k4 and 6x6k4 (four in a
   row: where alpha-beta is strong): how many have every move's value (exact) and every move's result
   proven within the service's default budget (1 s, estimates on, as the analyst asks), the provers
   leading (PROVERS_SHARE of the results' budget first) and alpha-beta alone, whatever the searcher's rule
   (provers_share) would choose; the two runs of each position interleaved, each cold. A row is a
   sample of the rate the goal speaks of: its 95 % interval is printed beside it.
3. The n,n,n boards 5x5k5 ... 8x8k8 and the other boards whose empty position a pairing settles: the
   time to prove every move a draw.
Times are wall times on a shared machine: compare the rows of one run, not runs.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from statistics import NormalDist
from typing import NamedTuple

from service.engine import Position, Variant, get_variant
from service.engine.search import Budget, Searcher
from service.engine.search import narrowing as narrowing_module
from service.engine.search.narrowing import PROVERS_SHARE
from service.engine.search.native import TranspositionTable
from service.engine.search.proof_number import applies, thread_table
from service.http.schemas import DEFAULT_BUDGET_MS
from tests.engine.search.positions import position_of
from tests.engine.search.positions import random_play as random_position

DEFAULT_BUDGET = DEFAULT_BUDGET_MS / 1000
TABLE_BITS = 20
BOARDS = ["6x6k5", "7x7k5", "8x8k5", "5x5k4", "6x6k4"]
Z_95 = NormalDist().inv_cdf(0.975)  # the normal quantile of a two-sided 95 % interval


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson's score interval for a rate seen `successes` times in `trials`.

    A row of 30 or 100 positions is a sample: the goal (90 % exact) is a statement about the rate, and
    the interval says how far a row's count may lie from it. Wilson's rather than the normal
    approximation's, which leaves [0, 1] and is too narrow near 0 % and 100 %, where these rows lie.
    """
    if trials <= 0:
        raise ValueError(f"an interval needs at least one trial, got {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in 0..{trials}, got {successes}")
    rate = successes / trials
    scale = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / scale
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / scale
    # the interval always holds the rate: min and max only undo the rounding at 0 and `trials` successes
    return max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half))


@contextmanager
def provers_share(share: float) -> Iterator[None]:
    """Every board gets this share for the provers, whatever the searcher's rule says."""
    rule = narrowing_module.provers_share
    narrowing_module.provers_share = lambda variant: share if applies(variant) else 0.0
    try:
        yield
    finally:
        narrowing_module.provers_share = rule


class Run(NamedTuple):
    exact: bool  # every move's value (result and remoteness) proven
    results: bool  # every move's result proven
    seconds: float
    closed_by: dict[str, int]


def cold_analysis(position: Position, seconds: float) -> Run:
    """One analysis with new tables."""
    thread_table().clear()
    thread_table(second=True).clear()  # the provers' second thread's (proof_families.py)
    searcher = Searcher(position.variant, table=TranspositionTable(TABLE_BITS))
    searcher.second_table()  # made before the clock starts, as a server's warmed slots have theirs
    started = time.perf_counter()
    report = searcher.analyze(position, Budget(seconds=seconds), estimates=True)
    results = all(move.result is not None for move in report.moves)
    return Run(report.exact, results, time.perf_counter() - started, report.closed_by)


def empty_boards(names: list[str], cap: float) -> None:
    print("| empty board | every move proven | seconds | moves closed by |")
    print("|---|---|---|---|")
    for name in names:
        variant = get_variant(name)
        run = cold_analysis(Position.empty(variant), cap)
        shown = ", ".join(f"{prover} {n}" for prover, n in sorted(run.closed_by.items()))
        print(f"| {name} | {'yes' if run.exact else 'no'} | {run.seconds:.2f} | {shown or '-'} |", flush=True)


def shares(variants: list[Variant], plies: list[int], count: int, seed: int) -> None:
    print(
        "| board, plies | positions | exact: provers lead / alpha-beta alone"
        " | exact, provers lead: 95 % interval | every result proven: lead / alone | median s: lead / alone |"
    )
    print("|---|---|---|---|---|---|")
    for variant in variants:
        for ply in plies:
            rng = random.Random(seed)
            board = Searcher(variant, table_bits=10).board
            positions = [position_of(variant, *random_position(board, ply, rng)) for _ in range(count)]
            runs: dict[float, list[Run]] = {PROVERS_SHARE: [], 0.0: []}
            for position in positions:
                for share, done in runs.items():  # interleaved: the machine's noise hits both alike
                    with provers_share(share):
                        done.append(cold_analysis(position, DEFAULT_BUDGET))
            lead, alone = runs[PROVERS_SHARE], runs[0.0]
            exact = sum(r.exact for r in lead), sum(r.exact for r in alone)
            results = sum(r.results for r in lead), sum(r.results for r in alone)
            median = [sorted(r.seconds for r in done)[count // 2] for done in (lead, alone)]
            low, high = wilson_interval(exact[0], count)
            print(
                f"| {variant.name} after {ply} | {count} | {exact[0]} / {exact[1]} | {low:.0%} to {high:.0%}"
                f" | {results[0]} / {results[1]} | {median[0]:.2f} / {median[1]:.2f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=10, help="positions per row of table 2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=60.0, help="seconds for an empty board at most")
    parser.add_argument("--boards", default=",".join(BOARDS), help="the boards of table 2")
    parser.add_argument("--tables", default="1,2,3", help="which tables to measure")
    args = parser.parse_args()
    tables = args.tables.split(",")
    if "1" in tables:
        empty_boards(["6x6k5", "7x7k5"], args.cap)
        print()
    if "2" in tables:
        boards = [get_variant(name) for name in args.boards.split(",")]
        shares(boards, [4, 8, 12], args.positions, args.seed)
        print()
    if "3" in tables:
        empty_boards(["5x5k5", "6x6k6", "7x7k7", "8x8k8", "7x7k6", "8x8k6", "8x8k7", "4x8k5"], args.cap)


if __name__ == "__main__":
    main()
