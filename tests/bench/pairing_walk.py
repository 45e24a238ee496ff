"""What the pairing prover (core/pairing.c) costs the proof-number search on five in a row, small boards
and gomoku's: per position, one question (can the side to move force a line?) from a new table within a
node cap, its processor time per node (and, where the build counts them, its pairing searches and their
walks' steps: all, and the most of one search), and one pairing search of the position alone at df-pn's
step budget, its median time per call.

Run: python -m tests.bench.pairing_walk [--rounds 1] [--json]
     python -m tests.bench.pairing_walk --base DIR [--base-python PY] [--rounds 3]

The positions: the empty board and marks placed in turn on random cells near the centre, each
on a cell that makes its side no threat, as a game of gomoku goes on; 9x9, 13x13, 15x15 and 19x19 (made
as data, the wide build: 512 cells) and 7x7 and 8x8 (the 64-cell build, which must keep its proofs and
its speed). With --base, DIR is a checkout of the
other build with its core compiled (its venv's python: --base-python); both run this file in fresh
processes, round by round, the order alternating, and the table gives each one's medians and this / base.
The file uses only what both builds have (native.ask, the debug entry point ss_pairing_failure), so the
other checkout needs nothing of it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from service.engine.search.native import NARROW, WIDE, Game, Limits, ProofTable, Width, ask, threats
from tests.engine.search.test_wide_core import Grid

# (side, the build, marks placed, how far from the centre, seed, node cap of the question); the seeds of
# the games with more marks are the first whose question the threats do not settle at once
CASES: list[tuple[int, Width, int, int, int, int]] = [
    *((7, NARROW, marks, 3, 1, 20_000) for marks in (0, 4, 8)),
    *((8, NARROW, marks, 3, 1, 20_000) for marks in (0, 4, 8)),
    *((9, WIDE, marks, 3, 1, 2_000) for marks in (0, 4, 8)),
    *((13, WIDE, marks, 3, 1, 100) for marks in (0, 4, 8)),
    *((15, WIDE, marks, 3, 1, 100) for marks in (0, 4, 8)),
    (15, WIDE, 24, 4, 1, 300),
    (15, WIDE, 40, 5, 3, 300),
    *((19, WIDE, marks, 3, 1, 100) for marks in (0, 4, 8)),
    (19, WIDE, 40, 5, 3, 300),
]
PAIRING_STEPS = 75  # df-pn's budget of a pairing search (core/dfpn.c)
CALLS = 20  # pairing searches timed per position


def near_centre(game: Game, grid: Grid, marks: int, reach: int, rng: random.Random) -> tuple[int, int]:
    """(side to move, other side) after `marks` marks placed in turn on random cells at most `reach` rows
    and columns from the centre, each where it makes its side no threat (fewer when no cell is left)."""
    centre_r, centre_c = grid.rows // 2, grid.cols // 2
    near = [
        r * grid.cols + c
        for r in range(grid.rows)
        for c in range(grid.cols)
        if abs(r - centre_r) <= reach and abs(c - centre_c) <= reach
    ]
    mine = theirs = placed = 0
    for cell in rng.sample(near, len(near)):
        if placed == marks:
            break
        if threats(game, theirs | 1 << cell, mine):
            continue
        mine, theirs, placed = theirs | 1 << cell, mine, placed + 1
    return mine, theirs


def pairing_call(game: Game, attacker: int, defender: int) -> float:
    """One pairing search at df-pn's budget, its caches warm: its seconds per call (the median of CALLS
    calls, the call from Python included)."""
    width = game.width
    lines, gaps = width.ffi.new("ss_mask *"), width.ffi.new("ss_mask *")
    took = []
    for _ in range(CALLS):
        started = time.perf_counter()
        width.lib.ss_pairing_failure(
            game.pointer, width.mask(attacker), width.mask(defender), PAIRING_STEPS, lines, gaps
        )
        took.append(time.perf_counter() - started)
    return statistics.median(took)


def pairing_counts(width: Width) -> list[int] | None:
    """The build's pairing searches since the last call, their walks' steps and the most of one search
    (ss_pairing_counts), read and reset; None when the build does not count them."""
    counts = getattr(width.lib, "ss_pairing_counts", None)
    if counts is None:
        return None
    read = width.ffi.new("int64_t[3]")
    counts(read, 1)
    return [int(read[i]) for i in range(3)]


def measure() -> list[dict[str, Any]]:
    """Every case's question and pairing search."""
    rows = []
    for side, width, marks, reach, seed, cap in CASES:
        grid = Grid(side, side, 5)
        game = Game(grid, width)
        mine, theirs = near_centre(game, grid, marks, reach, random.Random(seed))
        pairing_counts(width)
        started = time.process_time()
        q = ask(game, ProofTable(16), mine, theirs, True, Limits(0.0, cap))
        seconds = time.process_time() - started
        rows.append(
            {
                "case": f"{side}x{side}k5 +{marks} ({width.cells})",
                "fingerprint": [q.outcome, q.nodes, q.pairings, q.threat_wins],
                "ms_per_node": 1000 * seconds / max(q.nodes, 1),
                "walks": pairing_counts(width),
                "pairing_us": 1e6 * pairing_call(game, mine, theirs),
            }
        )
    return rows


def run(checkout: Path, python: str) -> list[dict[str, Any]]:
    """This file's measurement in a fresh process of the build at `checkout`."""
    environment = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run(
        [python, __file__, "--json"], cwd=checkout, env=environment, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, help="the other build's checkout")
    parser.add_argument("--base-python", default=sys.executable, help="the other build's python")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one round, its rows as JSON (the worker)")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure()))
        return
    builds = {"this": (Path.cwd(), sys.executable)}
    if args.base:
        builds["base"] = (args.base, args.base_python)
    runs: dict[str, list[list[dict[str, Any]]]] = {build: [] for build in builds}
    for round_ in range(args.rounds):
        order = list(builds) if round_ % 2 == 0 else list(reversed(builds))
        for build in order:
            runs[build].append(run(*builds[build]))
            print(f"round {round_ + 1} {build} done", flush=True)

    def median(build: str, i: int, key: str) -> float:
        return statistics.median(rows[i][key] for rows in runs[build])

    header = (
        "| position (build) | outcome, nodes, pairings, threat wins | ms/node | searches, walk steps, most"
        " | pairing µs/call"
    )
    if args.base:
        header += " | base: the same | base ms/node | base µs/call | ms/node this/base"
    print(header + " |")
    print("|---" * header.count("|") + "|")
    for i, row in enumerate(runs["this"][0]):
        line = (
            f"| {row['case']} | {row['fingerprint']} | {median('this', i, 'ms_per_node'):.3f}"
            f" | {row['walks']} | {median('this', i, 'pairing_us'):,.1f}"
        )
        if args.base:
            base = runs["base"][0][i]
            same = "yes" if base["fingerprint"] == row["fingerprint"] else base["fingerprint"]
            ratio = median("this", i, "ms_per_node") / median("base", i, "ms_per_node")
            line += (
                f" | {same} | {median('base', i, 'ms_per_node'):.3f}"
                f" | {median('base', i, 'pairing_us'):,.1f} | {ratio:.3f}"
            )
        print(line + " |")


if __name__ == "__main__":
    main()
