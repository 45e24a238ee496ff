"""Searcher benchmark: prints a markdown table.

Run: python -m tests.bench.search_bench [--positions 50] [--seed 1] [--cap 20] [--share-positions 10]

1. The empty 5x5k4 board: its result proven at the root, then every move's value.
2. Every move's value in positions of random games: 5x5k4 after 8 plies (results only, then with the
   remoteness), 6x6k5 after 16 plies. Each position gets a fresh transposition table (a cold search)
   and at most --cap seconds; a position not finished within it counts as not proven.
3. Nodes per second over each row's searches (Python's share of the time included, except on the root
   row: the core alone).
4. The share of positions whose every move's value is proven within the service's default budget
   (1 s), after 4, 8 and 12 random plies on 5x5k4, 6x6k5 and 7x7k5.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from service.engine import Mark, Position, Variant
from service.engine.search import Budget, Searcher
from service.engine.search.native import GOAL_RESULT, SCORE_MAX, SCORE_MIN, Limits, prove
from service.http.schemas import DEFAULT_BUDGET_MS
from tests.engine.search.positions import random_play

DEFAULT_BUDGET = DEFAULT_BUDGET_MS / 1000  # seconds: the service's default budget


@dataclass
class Row:
    what: str
    seconds: list[float]
    nodes: int
    exact: int

    def cells(self) -> list[str]:
        times = sorted(self.seconds)
        median = statistics.median(times)
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        rate = self.nodes / max(sum(times), 1e-9) / 1e6
        return [
            self.what,
            str(len(times)),
            f"{median * 1000:.1f}",
            f"{p90 * 1000:.1f}",
            f"{times[-1] * 1000:.1f}",
            f"{self.exact}/{len(times)}",
            f"{rate:.2f}",
        ]


def empty_board_root(variant: Variant) -> Row:
    searcher = Searcher(variant, table_bits=20)
    board = searcher.board
    outcome = prove(searcher.game, searcher.table, 0, 0, GOAL_RESULT, Limits(0.0, 0), SCORE_MIN, SCORE_MAX)
    result = "draw" if outcome.lower == outcome.upper == 0 else f"bounds {outcome.lower}..{outcome.upper}"
    return Row(
        f"{board.name} empty board, result at the root ({result})", [outcome.seconds], outcome.nodes, 1
    )


def analyses(
    what: str, variant: Variant, plies: int, count: int, rng: random.Random, remoteness: bool, cap: float
) -> Row:
    searcher = Searcher(variant, table_bits=20)
    board = searcher.board
    row = Row(what, [], 0, 0)
    positions = [(0, 0)] if plies == 0 else [random_play(board, plies, rng) for _ in range(count)]
    for mine, theirs in positions:
        searcher.table.clear()
        searcher.second_table().clear()  # the second thread's (a cold search on both)
        position = (
            Position(variant, mine, theirs, Mark.X)
            if plies % 2 == 0
            else Position(variant, theirs, mine, Mark.O)
        )
        analysis = searcher.analyze(position, Budget(seconds=cap), remoteness=remoteness)
        row.seconds.append(analysis.seconds)
        row.nodes += analysis.nodes
        exact = analysis.exact if remoteness else all(move.result is not None for move in analysis.moves)
        row.exact += exact
    return row


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=float, default=20.0, help="seconds per position at most")
    parser.add_argument("--share-positions", type=int, default=10, help="positions per row of table 4")
    args = parser.parse_args()
    five, six = Variant(5, 5, 4), Variant(6, 6, 5)
    n, cap = args.positions, args.cap
    rows = [
        empty_board_root(five),
        analyses("5x5k4 empty board, every move's value", five, 0, 1, random.Random(args.seed), True, cap),
    ]
    for what, variant, plies, remoteness in (
        ("5x5k4 after 8 plies, results only", five, 8, False),
        ("5x5k4 after 8 plies, with remoteness", five, 8, True),
        ("6x6k5 after 16 plies, results only", six, 16, False),
        ("6x6k5 after 16 plies, with remoteness", six, 16, True),
    ):
        rows.append(analyses(what, variant, plies, n, random.Random(args.seed), remoteness, cap))
    print_table(["search", "positions", "median ms", "p90 ms", "max ms", "proven", "M nodes/s"], rows)
    print()
    shares = []
    for variant in (five, six, Variant(7, 7, 5)):
        for plies in (4, 8, 12):
            what = f"{variant.name} after {plies} plies, 1 s budget"
            rng = random.Random(args.seed)
            shares.append(analyses(what, variant, plies, args.share_positions, rng, True, DEFAULT_BUDGET))
    print_table(["search", "positions", "median ms", "p90 ms", "max ms", "exact", "M nodes/s"], shares)


def print_table(header: list[str], rows: list[Row]) -> None:
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |")


if __name__ == "__main__":
    main()
