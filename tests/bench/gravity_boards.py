"""Gravity boards of four in a row up to 8 columns (4 to 8 columns of 4 to 8 rows): what the search proves
from the empty board within 10 s, against the published results, and for a board it does not prove within
a request's budget, what an opening book deep enough for the search to take over would cost.

Run: python -m tests.bench.gravity_boards [--seconds 10] [--nodes 150000000] [--boards 7x6,8x7]
         [--answer-seconds 1] [--book-plies 2,4,6,8] [--sample 4] [--book-nodes 20000000]

The empty board: `Searcher.analyze` (every move's result, then its remoteness), a fresh searcher of
the service's table size per board, within a budget of `--nodes` rather than of seconds, and timed in
CPU seconds of the process: on this shared machine a wall-clock budget measures the other jobs as much
as the search. Proven within `--seconds` means proven exactly in at most that many CPU seconds (the node
budget must be above what the search runs in that time: 10 to 15 M nodes a second here). Its value is
compared with Tromp's and Steininger's (the field notes: the winner, or a draw, and the ply at which the
game ends under perfect play).

The book (boards whose empty board takes more than `--answer-seconds`, the service's default budget):
for each ply N of `--book-plies` in turn, the positions of ply N up to the mirror (as `sanmoku book build
--count` counts them) and the CPU time to prove every move of `--sample` of them drawn at random, each
within `--book-nodes` and `--answer-seconds`. A book built from its deepest ply up pays for that ply
alone (each shallower position follows from its children), so its cost is the positions of ply N times
their mean time; the first ply whose sample is proven whole is the shallowest book past which the search
answers within a request's budget. A ply whose sample is not proven whole gives a lower bound (an
unproven position counts as `--answer-seconds`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from service.engine import Position, Result, Value, Variant, book_positions, get_variant
from service.engine.search import Budget, Searcher

COLUMNS = ROWS = range(4, 9)
# (columns, rows) -> the first player's result from the empty board and the ply the game ends on
PUBLISHED: dict[tuple[int, int], tuple[Result, int]] = {
    (6, 4): (Result.LOSS, 24),
    (8, 4): (Result.LOSS, 32),
    (8, 5): (Result.WIN, 39),
    (6, 6): (Result.LOSS, 36),
    (7, 6): (Result.WIN, 41),
    (8, 6): (Result.LOSS, 48),
    (6, 7): (Result.WIN, 41),
    (8, 7): (Result.WIN, 53),
    (6, 8): (Result.LOSS, 48),
    (7, 8): (Result.WIN, 55),
    (8, 8): (Result.LOSS, 62),
}  # every other board of 4 to 8 columns and rows: a draw, the board filled
SCORES = {Result.WIN: 1, Result.DRAW: 0, Result.LOSS: -1}


def published(columns: int, rows: int) -> Value:
    result, ply = PUBLISHED.get((columns, rows), (Result.DRAW, columns * rows))
    return Value(SCORES[result], ply)


def board(columns: int, rows: int) -> Variant:
    return get_variant(f"{rows}x{columns}k4-gravity")


def describe(value: Value | None) -> str:
    if value is None:
        return "unknown"
    if value.score == 0:
        return "draw"
    return f"{'first' if value.score > 0 else 'second'} player wins on ply {value.remoteness}"


@dataclass
class Proof:
    exact: bool  # every move's value proven within the budget of nodes
    value: Value | None  # the position's, for the side to move
    cpu: float  # seconds of the process's CPU
    nodes: int


def prove(position: Position, nodes: int) -> Proof:
    """Every move's value of `position` with a fresh searcher, within `nodes`."""
    searcher = Searcher(position.variant)
    started = time.process_time()
    report = searcher.analyze(position, Budget(nodes=nodes))
    return Proof(report.exact, report.value, time.process_time() - started, report.nodes)


def empty_row(columns: int, rows: int, seconds: float, nodes: int) -> tuple[str, Proof]:
    """The table's line of one board, and the proof of its empty board."""
    variant = board(columns, rows)
    found, expected = prove(Position.empty(variant), nodes), published(columns, rows)
    proven = found.exact and found.cpu <= seconds
    cells = [f"{columns} × {rows}", variant.long_name, "yes" if proven else "no", f"{found.cpu:.2f}"]
    cells += [f"{found.nodes:,}", describe(found.value), describe(expected)]
    cells.append(("yes" if found.value == expected else "NO") if found.value is not None else "-")
    return "| " + " | ".join(cells) + " |", found


def book_rows(
    variant: Variant, plies: list[int], sample: int, seconds: float, nodes: int, rng: random.Random
) -> list[str]:
    """One line per ply tried, up to the first whose sample is proven whole."""
    lines = []
    layers = book_positions(variant, max(plies))
    for ply in plies:
        layer = layers[ply]
        proofs = [prove(p, nodes) for p in rng.sample(layer, min(sample, len(layer)))]
        times = [p.cpu if p.exact and p.cpu <= seconds else seconds for p in proofs]
        whole = all(p.exact and p.cpu <= seconds for p in proofs)
        mean, bound = statistics.mean(times), "" if whole else "≥ "
        proven = sum(p.exact and p.cpu <= seconds for p in proofs)
        cells = [variant.long_name, str(ply), f"{len(layer):,}", f"{proven}/{len(proofs)}"]
        cells += [f"{bound}{mean:.2f}", f"{bound}{mean * len(layer) / 3600:,.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
        if whole:
            break
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds a proof may take")
    parser.add_argument("--nodes", type=int, default=150_000_000, help="the empty board's budget")
    parser.add_argument("--boards", help="columns x rows, comma-separated (default: every one)")
    parser.add_argument("--book-plies", default="2,4,6,8", help="plies of the book to cost, in turn")
    parser.add_argument("--answer-seconds", type=float, default=1.0, help="CPU seconds of an answer")
    parser.add_argument("--sample", type=int, default=4, help="positions timed per ply")
    parser.add_argument("--book-nodes", type=int, default=20_000_000, help="the budget of each of them")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    boards = [(c, r) for c in COLUMNS for r in ROWS]
    if args.boards:
        boards = [(int(c), int(r)) for c, r in (b.split("x") for b in args.boards.split(","))]
    within = f"proven within {args.seconds:g} s"
    print(f"| columns × rows | variant | {within} | CPU s | nodes | ours | published | agree |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    slow = []
    for columns, rows in boards:
        line, found = empty_row(columns, rows, args.seconds, args.nodes)
        print(line, flush=True)
        if not (found.exact and found.cpu <= args.answer_seconds):
            slow.append(board(columns, rows))
    if not slow or not args.book_plies:
        return
    within = f"proven within {args.answer_seconds:g} s"
    print(f"\n| variant | book to ply N | positions of ply N | {within} | mean CPU s | CPU-hours for ply N |")
    print("| --- | --- | --- | --- | --- | --- |")
    rng = random.Random(args.seed)
    plies = [int(p) for p in args.book_plies.split(",")]
    for variant in slow:
        for line in book_rows(variant, plies, args.sample, args.answer_seconds, args.book_nodes, rng):
            print(line, flush=True)


if __name__ == "__main__":
    main()
