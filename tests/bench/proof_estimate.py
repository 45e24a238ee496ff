"""How long `sanmoku prove` would take on a board it does not finish (the empty 8x8k5 board,
proven a draw in 17.4 hours by Hsu, Ko, Chen, Wei, Hsueh and Wu, 2020): Knuth's estimate of a tree's
size from random paths (D. E. Knuth, "Estimating the efficiency of backtrack programs", Mathematics of
Computation 29, 1975), applied to the proof as `sanmoku prove --split-plies` splits it.

Run: python -m tests.bench.proof_estimate [--variant 8x8k5] [--probes 20] [--slice 10 | --slice-nodes N]
     [--hours 1] [--seed 1] [--max-plies 24] [--table-bits 23]

Slices of nodes (`--slice-nodes`) make the tree, and so the estimate in nodes, the same on any machine
and under any load (a slice of seconds on a shared machine is a slice of fewer nodes when the process
is starved); the processor time is then the nodes at the measured rate.

The split proof of "the attacker (the side to move) cannot force a line" is a tree of jobs, each given
slices of `--slice` processor-seconds of the proof-number search:
- at the attacker's node (its turn): the pass first (the defender moving instead); when the pass is
  disproven, only the attacker's moves in its zone need jobs (as proof_run.children has it), else every
  move, and the pass, each a child; one child per class of moves under the position's symmetries;
- at the defender's node (after an attacker's move): one slice; settled, it is a leaf; open, it is split
  at the reply its search went into last (the search's focus), and the attacker's node after that reply
  is its only child.
A probe walks from the root to a leaf, choosing each attacker's child uniformly at random; the product
of the numbers of children met on the way is the leaf's weight, and the sum over the path of weight
times a node's processor time is an unbiased estimate of the whole tree's processor time (Knuth's
estimator; its mean over probes converges, slowly when the tree is lopsided: the spread is reported).

What the estimate leaves out, both ways: a reply refuted (the attacker forces a line after it: another
reply is needed) makes the real proof larger; a table shared by every job (the probe has one table of
its own, shared along its path only) and zones found deeper in a job make it smaller. A probe that ends
at an attacker's win (a refuted reply) or at `--max-plies` is counted and reported.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass, field

from service.engine import get_variant
from service.engine.search.board import Board
from service.engine.search.narrowing import move_classes
from service.engine.search.native import Game, Limits, monotonic
from service.engine.search.proof_number import ProofTable, Question, ask

MAX_SLICES = 100  # of one node before a reply is chosen by the table's numbers
PUBLISHED_HOURS = 17.4  # the 8,8,5-game proven a draw (Hsu et al. 2020), wall time on their machine


@dataclass
class Probe:
    estimate: float = 0.0  # processor-seconds of the whole tree, by this path
    nodes: float = 0.0  # the whole tree's nodes, by this path
    spent: float = 0.0  # processor-seconds this probe took
    plies: int = 0  # of the leaf
    weight: float = 1.0  # of the leaf: how many leaves like it the tree holds
    end: str = ""  # "disproven" (the defender holds), "refuted" (the attacker wins), "deep"
    path: list[str] = field(default_factory=list)


class Estimator:
    def __init__(
        self, variant: str, slice_seconds: float, slice_nodes: int, max_plies: int, table_bits: int
    ) -> None:
        self.variant = get_variant(variant)
        self.board = Board.of(self.variant)
        self.game = Game(self.board)
        self.slice_seconds, self.slice_nodes = slice_seconds, slice_nodes
        self.max_plies, self.table_bits = max_plies, table_bits

    def probe(self, rng: random.Random) -> Probe:
        table, found = ProofTable(self.table_bits), Probe()
        attacker = defender = 0
        while True:
            # The attacker's node: the pass, then its children.
            passing = self._slice(table, attacker, defender, found)
            if passing.outcome == 1:
                return self._end(found, "refuted")
            zone = passing.zone if passing.outcome == -1 else self.board.full
            moves = [cell for cell in move_classes(self.board, attacker, defender) if zone >> cell & 1]
            children = moves if passing.outcome == -1 else [-1, *moves]
            if not children:
                return self._end(found, "disproven")
            chosen = rng.choice(children)
            found.weight *= len(children)
            if chosen >= 0:
                attacker |= 1 << chosen
                found.path.append(self._cell(chosen))
                # The defender's node after the attacker's move.
                reply = self._slice(table, attacker, defender, found)
                if reply.outcome:
                    return self._end(found, "disproven" if reply.outcome == -1 else "refuted")
                focus = reply.focus
            else:
                found.path.append("pass")
                focus = passing.focus
            focus = self._reply(table, attacker, defender) if focus is None else focus
            if focus is None or found.plies + 2 > self.max_plies:
                return self._end(found, "deep")
            defender |= 1 << focus
            found.path.append(self._cell(focus))
            found.plies += 2

    def _slice(self, table: ProofTable, attacker: int, defender: int, found: Probe) -> Question:
        """A slice of the defender's question (the attacker not to move), more while it is open with
        no reply searched yet (a slice too short for the first expansion), their time added to the probe."""
        processor, nodes = time.process_time(), 0
        for _ in range(MAX_SLICES):
            deadline = 0.0 if self.slice_nodes else monotonic() + self.slice_seconds
            limits = Limits(deadline, self.slice_nodes)
            question = ask(self.game, table, attacker, defender, False, limits)
            nodes += question.nodes
            if question.outcome or question.focus is not None:
                break
        spent = time.process_time() - processor
        found.spent += spent
        found.estimate += found.weight * spent
        found.nodes += found.weight * nodes
        return question

    def _reply(self, table: ProofTable, attacker: int, defender: int) -> int | None:
        """The defender's reply by the table's numbers (least disproof number), when the search
        recorded no focus (as proof_run._split)."""
        ranked = []
        for cell in move_classes(self.board, defender, attacker):
            numbers = table.numbers(attacker, defender | 1 << cell, True)
            if numbers is not None:
                ranked.append((numbers[1], -numbers[0], cell))
        return min(ranked)[-1] if ranked else None

    @staticmethod
    def _end(found: Probe, end: str) -> Probe:
        found.end = end
        return found

    def _cell(self, cell: int) -> str:
        return f"r{cell // self.variant.cols}c{cell % self.variant.cols}"


def hours(seconds: float) -> str:
    if seconds < 360:
        return f"{seconds:.3g} s"
    return f"{seconds / 3600:,.0f} h" if seconds >= 36_000 else f"{seconds / 3600:.2f} h"


def report(probes: list[Probe]) -> None:
    estimates = [p.estimate for p in probes]
    mean, median = statistics.fmean(estimates), statistics.median(estimates)
    error = statistics.stdev(estimates) / math.sqrt(len(estimates)) if len(estimates) > 1 else math.inf
    logs = [math.log10(e) for e in estimates if e > 0]
    ends = {end: sum(p.end == end for p in probes) for end in ("disproven", "refuted", "deep")}
    plies = [p.plies for p in probes]
    print(f"probes {len(probes)}, {sum(p.spent for p in probes) / 3600:.2f} processor-hours, ends {ends}")
    print(f"leaf plies: median {statistics.median(plies)}, most {max(plies)}")
    print(f"estimate (processor time of the split proof): mean {hours(mean)}, standard error {hours(error)}")
    print(f"  median {hours(median)}, range {hours(min(estimates))} .. {hours(max(estimates))}")
    if logs:
        print(f"  geometric mean {hours(10 ** statistics.fmean(logs))}")
    print(f"  nodes: mean {statistics.fmean(p.nodes for p in probes):,.0f}")
    ratio = mean / 3600 / PUBLISHED_HOURS
    print(f"against the published {PUBLISHED_HOURS} h: mean / published = {ratio:.3g}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--variant", default="8x8k5")
    parser.add_argument("--probes", type=int, default=20)
    parser.add_argument("--hours", type=float, default=None, help="stop starting probes after this")
    parser.add_argument("--slice", type=float, default=10.0, dest="slice_seconds")
    parser.add_argument("--slice-nodes", type=int, default=0, help="slices of nodes, not seconds")
    parser.add_argument("--max-plies", type=int, default=24)
    parser.add_argument("--table-bits", type=int, default=23)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    estimator = Estimator(args.variant, args.slice_seconds, args.slice_nodes, args.max_plies, args.table_bits)
    rng, started, probes = random.Random(args.seed), monotonic(), []
    for number in range(args.probes):
        if args.hours is not None and monotonic() - started > args.hours * 3600:
            break
        found = estimator.probe(rng)
        probes.append(found)
        print(
            f"probe {number + 1}: {found.end} at ply {found.plies}, weight {found.weight:.3g}, "
            f"{found.spent:.1f} s, estimate {hours(found.estimate)}: {' '.join(found.path)}",
            flush=True,
        )
    report(probes)


if __name__ == "__main__":
    main()
