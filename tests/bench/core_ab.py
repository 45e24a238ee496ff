"""Two builds of the compiled core on the same searches, interleaved in one run: every search's node
counts (its fingerprint: a change that leaves the search as it was leaves every one unchanged) and the
processor time of each build, round by round, the order of the builds alternating.

Run: python -m tests.bench.core_ab --base DIR [--base-python PY] [--rounds 3] [--workloads a,b]
     python -m tests.bench.core_ab --save FILE | --compare FILE      (this checkout alone, no timing)

DIR is a checkout of the other build with its core compiled (`pip install -e .` in a venv of its own:
--base-python names that venv's python); this checkout is the new build. The worker's code is passed on
the command line and uses only calls both builds have (native.py's prove, estimate, score_all and
prove_moves, proof_number.ask, budget.Spending), so the other checkout needs nothing of this file.

The workloads:
- alphabeta: positions after random plies (seed 1) on flat, torus, misère and gravity boards, those of
  the column bitboards (connect4, 8x8k4-gravity, 6x6k5-gravity) and those without (misère or torus
  under gravity): each proven to its score within a node cap on a table of its own, its heuristic
  estimate to a depth, and the moves of a later position narrowed to their results in one call;
- connect4: the 300 positions of tests/data/connect4_pons.csv, every move's exact score with no limit,
  a table kept over each 100 (as connect4_bench runs ours);
- provers: provers_nodes.py's 60 proof-number questions (its fingerprints).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

WORKER = r"""
import csv, json, random, sys, time
from service.engine import get_variant
from service.engine.search import Board, native
from service.engine.search.budget import Spending

WHOLE = (native.SCORE_MIN, native.SCORE_MAX)

def limits(nodes):
    return Spending(0.0, nodes or None, None).share()

def random_position(board, plies, rng):
    while True:
        mine = theirs = 0
        for _ in range(plies):
            moves = [c for c in range(board.cells) if board.playable(mine | theirs) >> c & 1]
            mine, theirs = theirs, mine | 1 << rng.choice(moves)
            if board.geometry.holds_line(theirs):
                break
        else:
            return mine, theirs

# (board, plies, positions, node cap of each proof)
BOARDS = [
    ("5x5k4", 8, 5, 300_000), ("6x6k5", 14, 4, 300_000), ("7x7k5", 12, 3, 300_000),
    ("5x5k4-torus", 4, 3, 300_000), ("6x6k4-misere", 12, 3, 300_000),
    ("4x5k4-gravity-misere", 6, 3, 300_000), ("6x6k4-torus-gravity", 4, 3, 300_000),
    ("8x8k4-gravity", 14, 3, 300_000), ("6x6k5-gravity", 10, 3, 300_000), ("connect4", 12, 4, 300_000),
]

def alphabeta():
    found = []
    for name, plies, count, cap in BOARDS:
        variant, rng = get_variant(name), random.Random(1)
        board = Board.of(variant)
        game = native.Game(board)
        for _ in range(count):
            mine, theirs = random_position(board, plies, rng)
            table = native.TranspositionTable(16)
            o = native.prove(game, table, mine, theirs, native.GOAL_SCORE, limits(cap), *WHOLE)
            found.append([name, "prove", o.lower, o.upper, o.best_move, o.nodes, o.depth, o.cutoffs,
                          o.tt_hits, o.stopped])
            e = native.estimate(game, native.TranspositionTable(14), mine, theirs, 6, limits(cap // 4))
            found.append([name, "estimate", e.estimate, e.depth, e.best_move, e.nodes, e.cutoffs, e.tt_hits])
            later_mine, later_theirs = mine, theirs
            for _ in range(4):
                moves = [c for c in range(board.cells) if board.playable(later_mine | later_theirs) >> c & 1]
                child = (later_theirs, later_mine | 1 << rng.choice(moves))
                if board.is_over(*child):
                    break
                later_mine, later_theirs = child
            occupied = later_mine | later_theirs
            ending = native.threats(game, later_mine, later_theirs)
            playable = board.playable(occupied) & ~ending
            cells = [c for c in range(board.cells) if playable >> c & 1 and occupied | 1 << c != board.full]
            moves = {c: WHOLE for c in cells}
            bounds, spent = native.prove_moves(
                game, table, later_mine, later_theirs, moves, native.GOAL_RESULT, limits(cap))
            found.append([name, "moves", sorted(bounds.items()), spent.nodes, spent.depth, spent.cutoffs,
                          spent.tt_hits])
    return found

def connect4():
    variant = get_variant("connect4")
    game = native.Game(Board.of(variant))
    found = []
    with open("tests/data/connect4_pons.csv") as sample:
        rows = list(csv.DictReader(sample))
    for i, row in enumerate(rows):
        if i % 100 == 0:
            table = native.TranspositionTable(21)
        heights, mine, theirs = [0] * variant.cols, 0, 0
        for column in row["moves"]:
            col = int(column) - 1
            mine, theirs = theirs, mine | 1 << ((variant.rows - 1 - heights[col]) * variant.cols + col)
            heights[col] += 1
        cells, scores, spent = native.score_all(game, table, mine, theirs)
        found.append([cells, scores, spent.nodes, spent.cutoffs, spent.tt_hits])
    return found

def provers():
    from tests.bench.provers_nodes import fingerprints
    return fingerprints()[0]

name = sys.argv[1]
started = time.process_time()
found = {"alphabeta": alphabeta, "connect4": connect4, "provers": provers}[name]()
seconds = time.process_time() - started
print(json.dumps({"found": found, "seconds": seconds}))
"""

WORKLOADS = ("alphabeta", "connect4", "provers")


def run(checkout: Path, python: str, workload: str) -> dict[str, Any]:
    """One workload in a fresh process of the build at `checkout`: its fingerprints and processor time."""
    environment = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run(
        [python, "-c", WORKER, workload], cwd=checkout, env=environment, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, help="the other build's checkout")
    parser.add_argument("--base-python", default=sys.executable, help="the other build's python")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--save", help="write this checkout's fingerprints to this JSON file")
    parser.add_argument("--compare", help="compare this checkout's fingerprints with this JSON file")
    args = parser.parse_args()
    here, workloads = Path.cwd(), args.workloads.split(",")
    if args.base is None:
        found = {workload: run(here, sys.executable, workload)["found"] for workload in workloads}
        if args.save:
            Path(args.save).write_text(json.dumps(found))
        if args.compare:
            saved = json.loads(Path(args.compare).read_text())
            for workload in workloads:
                same = sum(a == b for a, b in zip(found[workload], saved[workload], strict=True))
                print(f"{workload}: {same} of {len(found[workload])} fingerprints the same")
        return
    builds = {"base": (args.base, args.base_python), "this": (here, sys.executable)}
    seconds: dict[tuple[str, str], list[float]] = {}
    fingerprints: dict[tuple[str, str], Any] = {}
    for round_ in range(args.rounds):
        order = ["base", "this"] if round_ % 2 == 0 else ["this", "base"]
        for workload in workloads:
            for build in order:
                result = run(*builds[build], workload)
                seconds.setdefault((build, workload), []).append(result["seconds"])
                fingerprints[build, workload] = result["found"]
                took = result["seconds"]
                print(f"round {round_ + 1} {workload} {build}: {took:.2f} processor-s", flush=True)
    print("| workload | fingerprints | base (s, median) | this (s, median) | this / base |")
    print("|---|---|---|---|---|")
    for workload in workloads:
        base, this = fingerprints["base", workload], fingerprints["this", workload]
        same = sum(a == b for a, b in zip(base, this, strict=True))
        old = statistics.median(seconds["base", workload])
        new = statistics.median(seconds["this", workload])
        print(f"| {workload} | {same} of {len(base)} the same | {old:.2f} | {new:.2f} | {new / old:.3f} |")


if __name__ == "__main__":
    main()
