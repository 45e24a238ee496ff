"""The goals of the boxes (3-D boards), measured on positions played at random, each searched as a request
is (every move's value, the search's default budget of 1 s unless --budget):

- 3x3x3k3: how many positions are exact (every move's result and remoteness proven), at every count of
  marks from 0 to 20, and the slowest answer;
- Qubic (4x4x4k4) after 16 random marks: how many have their result proven, how many are exact, and
  whether each proven result agrees with the result of the position after its best move (the only check
  at hand where no table or brute force reaches: a wrong value shows as a position and its best child
  that disagree).

Run: python -m tests.bench.shape_goals [--positions 40] [--budget 1.0]
"""

from __future__ import annotations

import argparse
import random
import time

from service.engine import Position, get_variant
from service.engine.rules.values import Result
from service.engine.search import Budget, Searcher

OPPOSITE = {Result.WIN: Result.LOSS, Result.DRAW: Result.DRAW, Result.LOSS: Result.WIN}  # the child's


def random_position(name: str, marks: int, rng: random.Random) -> Position:
    """A position of `marks` random marks with no line yet."""
    variant = get_variant(name)
    while True:
        position = Position.empty(variant)
        for _ in range(marks):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over:
                break
        if not position.is_over:
            return position


def cube(positions: int, budget: float, rng: random.Random) -> None:
    searcher = Searcher(get_variant("3x3x3k3"))
    exact, slowest, asked = 0, 0.0, 0
    for marks in range(21):
        for _ in range(max(1, positions // 21)):
            position = random_position("3x3x3k3", marks, rng)
            started = time.perf_counter()
            report = searcher.analyze(position, Budget(seconds=budget))
            slowest = max(slowest, time.perf_counter() - started)
            exact += report.exact
            asked += 1
    print(f"3x3x3k3: {exact}/{asked} positions exact (0 to 20 marks), slowest {slowest:.3f} s")


def qubic(positions: int, budget: float, rng: random.Random) -> None:
    searcher = Searcher(get_variant("4x4x4k4"))
    proven = exact = disagree = 0
    took = []
    for _ in range(positions):
        position = random_position("4x4x4k4", 16, rng)
        started = time.perf_counter()
        report = searcher.analyze(position, Budget(seconds=budget))
        took.append(time.perf_counter() - started)
        exact += report.exact
        if report.result is None:
            continue
        proven += 1
        best = max(report.moves, key=lambda m: m.lower)
        child = position.play(best.cell)
        if child.is_over:
            continue
        reply = searcher.analyze(child, Budget(seconds=budget))
        if reply.result is not None and reply.result != OPPOSITE[report.result]:
            disagree += 1
    took.sort()
    print(
        f"4x4x4k4 after 16 marks: {proven}/{positions} results proven, {exact}/{positions} exact,"
        f" {disagree} disagreeing with their best child; median {took[len(took) // 2]:.2f} s,"
        f" slowest {took[-1]:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument(
        "--budget", type=float, default=1.0, help="seconds per search (default 1, a request's)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cube(args.positions * 5, args.budget, rng)
    qubic(args.positions, args.budget, rng)


if __name__ == "__main__":
    main()
