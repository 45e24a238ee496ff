"""The wider builds of the core (`_core_128` and `_core_wide`, two and eight words to a set of cells)
against the 64-cell build on the same searches of boards all play: the node counts of each (the same
unless a table fills) and the processor time, in one process, the order of the builds turning round by
round.

Run: python -m tests.bench.wide_rate [--rounds 3]

The workloads are core_ab's first two: positions after random plies on flat, torus, misère and gravity
boards, each proven to its score within a node cap on a table of its own; and every move's exact score
in the 300 Connect Four positions of tests/data/connect4_pons.csv, a table kept over each 100.
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import time
from pathlib import Path

from service.engine import get_variant
from service.engine.search import Board, native
from service.engine.search.native import NARROW, WIDE, WIDTH_128, Game, Limits, TranspositionTable
from tests.engine.search.positions import random_play

BOARDS = [  # (board, plies, positions, node cap of each proof): core_ab's
    ("5x5k4", 8, 5, 300_000),
    ("6x6k5", 14, 4, 300_000),
    ("7x7k5", 12, 3, 300_000),
    ("5x5k4-torus", 4, 3, 300_000),
    ("6x6k4-misere", 12, 3, 300_000),
    ("4x5k4-gravity-misere", 6, 3, 300_000),
    ("6x6k4-torus-gravity", 4, 3, 300_000),
    ("8x8k4-gravity", 14, 3, 300_000),
    ("6x6k5-gravity", 10, 3, 300_000),
    ("connect4", 12, 4, 300_000),
]
SAMPLE = Path(__file__).resolve().parents[1] / "data/connect4_pons.csv"


def alphabeta(width: native.Width) -> int:
    """The proofs of every board's positions on the build `width`: their nodes."""
    nodes = 0
    for name, plies, count, cap in BOARDS:
        board, rng = Board.of(get_variant(name)), random.Random(1)
        game = Game(board, width)
        for _ in range(count):
            mine, theirs = random_play(board, plies, rng)
            limits, whole = Limits(0.0, cap), (-game.big, game.big)
            table = TranspositionTable(16)
            nodes += native.prove(game, table, mine, theirs, native.GOAL_SCORE, limits, *whole).nodes
    return nodes


def connect4(width: native.Width) -> int:
    """Every move's exact score in the 300 positions on the build `width`: their nodes."""
    variant = get_variant("connect4")
    game = Game(Board.of(variant), width)
    nodes = 0
    with SAMPLE.open() as sample:
        rows = list(csv.DictReader(sample))
    for i, row in enumerate(rows):
        if i % 100 == 0:
            table = TranspositionTable(21)
        heights, mine, theirs = [0] * variant.cols, 0, 0
        for column in row["moves"]:
            col = int(column) - 1
            mine, theirs = theirs, mine | 1 << ((variant.rows - 1 - heights[col]) * variant.cols + col)
            heights[col] += 1
        nodes += native.score_all(game, table, mine, theirs)[2].nodes
    return nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    builds = {"64": NARROW, "128": WIDTH_128, "512": WIDE}
    names = list(builds)
    seconds: dict[tuple[str, str], list[float]] = {}
    nodes: dict[tuple[str, str], int] = {}
    for round_ in range(args.rounds):
        order = names[round_ % 3 :] + names[: round_ % 3]
        for workload, run in (("alphabeta", alphabeta), ("connect4", connect4)):
            for build in order:
                started = time.process_time()
                nodes[workload, build] = run(builds[build])
                took = time.process_time() - started
                seconds.setdefault((workload, build), []).append(took)
                print(f"round {round_ + 1} {workload} {build}: {took:.2f} processor-s", flush=True)
    print("| workload | build | nodes | processor-s (median) | / the 64-cell build's |")
    print("|---|---|---:|---:|---:|")
    for workload in ("alphabeta", "connect4"):
        base = statistics.median(seconds[workload, "64"])
        for build in names:
            took = statistics.median(seconds[workload, build])
            print(f"| {workload} | {build} | {nodes[workload, build]:,} | {took:.2f} | {took / base:.1f} |")


if __name__ == "__main__":
    main()
