"""The provers' node-for-node fingerprint and node rate: cheaper nodes must be the same search.

Run: python -m tests.bench.provers_nodes [--save FILE | --compare FILE] [--rounds 1]

A fixed set of 60 questions (on each of 6x6k5, 7x7k5 and 8x8k5, the first 5 of provers_misses' random
positions after 4 plies and after 8, seed 1; the two questions about each: can the side to move force a line;
can the other side, if the side to move passes), each from a new table within a node cap. Each answer's
outcome, nodes, depth, zone, pairings, threat wins and zone-pruned replies is its fingerprint: an
optimisation that leaves the search unchanged leaves every fingerprint unchanged (`--compare` a file
saved by the other build). The node rate is the nodes over the processor seconds of the questions; to
compare two builds, alternate runs of each (the same file run by each build's python with its checkout
on PYTHONPATH) so that both see the same machine load.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from service.engine import Position, get_variant
from service.engine.search import Searcher
from service.engine.search.native import Limits
from service.engine.search.proof_number import ProofTable, ask
from tests.engine.search.positions import position_of, random_play

BOARDS = (("6x6k5", 60_000), ("7x7k5", 60_000), ("8x8k5", 15_000))  # each with its node cap
PLIES = (4, 8)
POSITIONS = 5  # of each board and plies


def positions(board_name: str, plies: int) -> list[Position]:
    variant = get_variant(board_name)
    rng = random.Random(1)
    board = Searcher(variant, table_bits=10).board
    return [position_of(variant, *random_play(board, plies, rng)) for _ in range(POSITIONS)]


def fingerprints() -> tuple[list[list[int]], int, float]:
    """Each question's fingerprint, the nodes in all and their processor seconds."""
    found: list[list[int]] = []
    nodes, seconds = 0, 0.0
    for board_name, cap in BOARDS:
        for plies in PLIES:
            for position in positions(board_name, plies):
                game = Searcher(position.variant, table_bits=10).game
                mine, theirs = position.mine, position.theirs
                for attacker, defender in ((mine, theirs), (theirs, mine)):
                    table = ProofTable()
                    started = time.process_time()
                    q = ask(game, table, attacker, defender, True, Limits(0.0, cap))
                    seconds += time.process_time() - started
                    nodes += q.nodes
                    found.append([q.outcome, q.nodes, q.depth, q.zone, q.pairings, q.threat_wins, q.pruned])
    return found, nodes, seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--save", help="write the fingerprints to this JSON file")
    parser.add_argument("--compare", help="compare the fingerprints with this JSON file")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    for _ in range(args.rounds):
        found, nodes, seconds = fingerprints()
        settled = sum(f[0] != 0 for f in found)
        print(
            f"{len(found)} questions, {settled} settled, {nodes} nodes in {seconds:.2f} processor-s:"
            f" {nodes / seconds:,.0f} nodes/s",
            flush=True,
        )
    if args.save:
        with open(args.save, "w") as out:
            json.dump(found, out)
    if args.compare:
        with open(args.compare) as saved:
            expected = json.load(saved)
        differ = [i for i, (a, b) in enumerate(zip(found, expected, strict=True)) if a != b]
        print(f"fingerprints differing: {len(differ)} of {len(found)}", *differ)


if __name__ == "__main__":
    main()
