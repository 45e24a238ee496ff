"""What an opening book of Connect Four costs: its positions up to N plies (one per class under the mirror,
the game's only symmetry), and the time to prove every move's value (result and remoteness) of positions
N plies deep, on a random sample of them.

Run: python -m tests.bench.connect4_book [--plies 4,6,8] [--sample 3,5,20] [--seed 1]

A book built from the deepest ply up pays for its deepest ply alone, if the search of a shallower
position finds its children's values in the book: each move of a position of ply n < N leads to a
position of ply n + 1, already proven. So the estimate printed is the positions of ply N (unfinished,
up to the mirror) times the mean time of one of them. A position's time is measured with a fresh
searcher (no transposition table carried from one position to the next).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator

from service.engine import Position, Variant, geometry_of, get_variant
from service.engine.search import Budget, Searcher

CONNECT4 = get_variant("connect4")
TABLE_BITS = 21


def canonical(position: Position) -> tuple[int, int]:
    """The smallest (first player's, second player's) masks among the position's images."""
    geometry = geometry_of(position.variant)
    first = position.first
    mine, theirs = position.mask(first), position.mask(first.other)
    return min((geometry.permute(mine, s), geometry.permute(theirs, s)) for s in geometry.symmetries)


def plies(variant: Variant = CONNECT4, deepest: int = 8) -> Iterator[tuple[int, list[Position], int]]:
    """For each ply from 0 to `deepest`: the unfinished positions, one per class, and how many finished
    ones (classes) the ply holds."""
    layer = [Position.empty(variant)]
    for ply in range(deepest + 1):
        yield ply, [p for p in layer if not p.is_over], sum(p.is_over for p in layer)
        if ply == deepest:
            return
        found: dict[tuple[int, int], Position] = {}
        for position in layer:
            if not position.is_over:
                for cell in position.legal_moves():
                    child = position.play(cell)
                    found.setdefault(canonical(child), child)
        layer = list(found.values())


def prove_time(position: Position) -> float:
    """Seconds to prove every move's value of the position, with a fresh searcher."""
    searcher = Searcher(position.variant, table_bits=TABLE_BITS)
    started = time.perf_counter()
    analysis = searcher.analyze(position, Budget())
    seconds = time.perf_counter() - started
    assert analysis.exact
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", default="4,6,8")
    parser.add_argument("--sample", default="3,5,20", help="positions timed at each of those plies")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    wanted = dict(zip(map(int, args.plies.split(",")), map(int, args.sample.split(",")), strict=True))
    rng = random.Random(args.seed)
    print(
        "| ply | positions (classes) | up to this ply | finished | timed | mean s | median s | max s ", end=""
    )
    print("| ply alone |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    total = 0
    for ply, layer, finished in plies(CONNECT4, max(wanted)):
        total += len(layer)
        cells = [str(ply), f"{len(layer):,}", f"{total:,}", f"{finished:,}"]
        if ply in wanted:
            times = [prove_time(p) for p in rng.sample(layer, min(wanted[ply], len(layer)))]
            mean = statistics.mean(times)
            hours = mean * len(layer) / 3600
            cells += [str(len(times)), f"{mean:.2f}", f"{statistics.median(times):.2f}", f"{max(times):.2f}"]
            cells.append(f"{hours:,.1f} CPU-hours")
        else:
            cells += [""] * 5
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
