"""Why the provers miss: the positions of provers_bench's table 2 that are not exact within
the default second, each miss classified by which question failed, with what a longer run finds.

Run: python -m tests.bench.provers_misses [--board 7x7k5] [--plies 4] [--positions 30] [--seed 1]
     [--long 30]
     python -m tests.bench.provers_misses --roots NODES [--table-bits 18] [--only INDEX ...] [...]

For each position (the bench's: the same seed, the same random plies), one cold analysis at the default
budget, the provers leading as the searcher's rule has it; every question the provers are asked is logged.
A miss is classified as
- `root`: a question about the position itself (can the side to move force a line? can the other side,
  if the side to move passes?) was left open, with how many moves' results stayed unproven;
- `moves`: both questions settled, some moves' results not;
- `remoteness`: every result proven, some won or lost move's remoteness not.
Then each miss is analysed again cold with --long seconds: its root questions' outcomes, how many moves'
results stay open, whether it is exact, and the position's result when the moves' bounds decide it.
Each analysis's line ends with the seconds of its steps (narrowing.py): the provers, alpha-beta on the
results they left, and the remoteness of the won and lost moves.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from service.engine import Position, get_variant
from service.engine.search import Budget, Searcher
from service.engine.search import narrowing as narrowing_module
from service.engine.search import results as results_module
from service.engine.search.native import GOAL_SCORE, Limits, TranspositionTable, monotonic
from service.engine.search.proof_families import Answered
from service.engine.search.proof_number import (
    DEFAULT_PROOF_TABLE_BITS,
    ProofTable,
    Question,
    ask,
    thread_table,
)
from service.engine.search.report import SearchReport
from tests.bench.provers_bench import DEFAULT_BUDGET, TABLE_BITS
from tests.engine.search.positions import position_of
from tests.engine.search.positions import random_play as random_position

Asked = tuple[int, int, bool, Question]


@contextmanager
def logged_questions() -> Iterator[list[Asked]]:
    """Every question the provers are asked inside the block: (attacker, defender, to move, answer)."""
    asked: list[Asked] = []
    ask = results_module.ask

    def logging_ask(
        game: Any, table: Any, attacker: int, defender: int, to_move: bool, limits: Any
    ) -> Question:
        question = ask(game, table, attacker, defender, to_move, limits)
        asked.append((attacker, defender, to_move, question))
        return question

    prove_families = results_module.prove_families

    def logging_families(*args: Any) -> tuple[Answered, Answered]:
        """The questions asked on two threads (PROVER_THREADS 2, the default), in the same records."""
        answered = prove_families(*args)
        for asks, family in zip(args[2], answered, strict=True):
            for one, question in zip(asks, family.answers, strict=True):
                if question is not None:
                    asked.append((one.attacker, one.defender, one.attacker_to_move, question))
        return answered

    results_module.ask, results_module.prove_families = logging_ask, logging_families
    try:
        yield asked
    finally:
        results_module.ask, results_module.prove_families = ask, prove_families


@contextmanager
def timed_steps() -> Iterator[dict[str, float]]:
    """The seconds an analysis inside the block spends on each step: the provers (`provers`), alpha-beta
    on the results they left (`results`) and the remoteness of the won and lost moves (`remoteness`)."""
    steps = dict.fromkeys(("provers", "results", "remoteness"), 0.0)
    run, narrow = results_module.ResultProver.run, narrowing_module.Narrowing._narrow

    def timed_run(self: results_module.ResultProver, spending: Any) -> None:
        started = monotonic()
        run(self, spending)
        steps["provers"] += monotonic() - started

    def timed_narrow(self: narrowing_module.Narrowing, goal: int, cells: list[int], spending: Any) -> None:
        started = monotonic()
        narrow(self, goal, cells, spending)
        steps["remoteness" if goal == GOAL_SCORE else "results"] += monotonic() - started

    results_module.ResultProver.run = timed_run  # type: ignore[method-assign]
    narrowing_module.Narrowing._narrow = timed_narrow  # type: ignore[method-assign]
    try:
        yield steps
    finally:
        results_module.ResultProver.run = run  # type: ignore[method-assign]
        narrowing_module.Narrowing._narrow = narrow  # type: ignore[method-assign]


def shown_steps(steps: dict[str, float]) -> str:
    return ", ".join(f"{name} {seconds:.2f} s" for name, seconds in steps.items())


def analysed(position: Position, seconds: float) -> tuple[SearchReport, str, str, dict[str, float]]:
    """A cold analysis, the outcomes of the two questions about the position (W: proven, D:
    disproven, ?: open, -: not asked) and the seconds of its steps (timed_steps)."""
    thread_table().clear()
    thread_table(second=True).clear()  # the loss family's (two threads): cold too
    searcher = Searcher(position.variant, table=TranspositionTable(TABLE_BITS))
    with logged_questions() as asked, timed_steps() as steps:
        report = searcher.analyze(position, Budget(seconds=seconds), estimates=True)
    mine, theirs = position.mine, position.theirs
    marks = {1: "W", -1: "D", 0: "?"}

    def first(attacker: int, defender: int) -> str:
        answers = [q for a, d, m, q in asked if (a, d, m) == (attacker, defender, True)]
        return marks[answers[0].outcome] if answers else "-"

    return report, first(mine, theirs), first(theirs, mine), steps


def summary(report: SearchReport) -> str:
    moves = report.moves
    unproven = sum(move.result is None for move in moves)
    lower = max(move.lower for move in moves)
    upper = max(move.upper for move in moves)
    value = {1: "win", 0: "draw", -1: "loss"}[lower] if lower == upper else f"{lower}..{upper}"
    counts = {r: sum(move.lower == move.upper == r for move in moves) for r in (1, 0, -1)}
    return (
        f"value {value}, moves W/D/L/open {counts[1]}/{counts[0]}/{counts[-1]}/{unproven}"
        f" of {len(moves)}, exact {'yes' if report.exact else 'no'}"
    )


def root_questions(
    positions: list[Position],
    nodes: int,
    table_bits: int = DEFAULT_PROOF_TABLE_BITS,
    only: set[int] | None = None,
) -> None:
    """Each position's two questions (of the positions `only` names, if given), each from a new table of
    2**table_bits slots, within `nodes` nodes (deterministic)."""
    total = 0
    for index, position in enumerate(positions):
        if only is not None and index not in only:
            continue
        game = Searcher(position.variant, table_bits=10).game
        shown = []
        for attacker, defender in ((position.mine, position.theirs), (position.theirs, position.mine)):
            table = ProofTable(table_bits)
            started = monotonic()
            question = ask(game, table, attacker, defender, True, Limits(0.0, nodes))
            total += question.nodes
            outcome = {1: "W", -1: "D", 0: "?"}[question.outcome]
            seconds = monotonic() - started
            shown.append(f"{outcome} {question.nodes:>8} nodes {seconds:6.2f} s {question.pruned:>6} pruned")
        print(f"{index:2} win: {shown[0]} | loss: {shown[1]}", flush=True)
    print(f"nodes in all: {total}")


def arguments(description: str | None, plies: int, long: float) -> argparse.ArgumentParser:
    """The arguments of the benches of provers_ab's positions that one build misses."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--board", default="7x7k5")
    parser.add_argument("--plies", type=int, default=plies)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long", type=float, default=long, help="seconds for each miss's second run")
    return parser


def main() -> None:
    parser = arguments(__doc__, 4, 30.0)
    parser.add_argument(
        "--roots", type=int, default=0, help="instead: each position's two questions, this many nodes each"
    )
    parser.add_argument(
        "--table-bits", type=int, default=DEFAULT_PROOF_TABLE_BITS, help="--roots: table slots, log 2"
    )
    parser.add_argument("--only", type=int, nargs="+", help="--roots: these positions only (their indices)")
    args = parser.parse_args()
    if args.only and max(args.only) >= args.positions:
        parser.error(f"--only {max(args.only)}: past the last of --positions {args.positions}")
    if args.only and min(args.only) < 0:
        parser.error(f"--only {min(args.only)}: an index counts from 0")
    variant = get_variant(args.board)
    rng = random.Random(args.seed)
    board = Searcher(variant, table_bits=10).board
    positions = [
        position_of(variant, *random_position(board, args.plies, rng)) for _ in range(args.positions)
    ]
    if args.roots:
        root_questions(positions, args.roots, args.table_bits, set(args.only) if args.only else None)
        return
    kinds: dict[str, int] = {}
    for index, position in enumerate(positions):
        report, wins, losses, steps = analysed(position, DEFAULT_BUDGET)
        if report.exact:
            kinds["exact"] = kinds.get("exact", 0) + 1
            print(f"{index:2} exact ({report.seconds:.2f} s)", flush=True)
            continue
        unproven = sum(move.result is None for move in report.moves)
        kind = "root" if "?" in (wins, losses) else "moves" if unproven else "remoteness"
        kinds[kind] = kinds.get(kind, 0) + 1
        print(
            f"{index:2} {kind}: questions win/loss {wins}/{losses}; {summary(report)}; {shown_steps(steps)}",
            flush=True,
        )
        long_report, long_wins, long_losses, long_steps = analysed(position, args.long)
        print(
            f"   {args.long:.0f} s: questions {long_wins}/{long_losses}; {summary(long_report)}"
            f" ({long_report.seconds:.1f} s; {shown_steps(long_steps)})",
            flush=True,
        )
    print(kinds)


if __name__ == "__main__":
    main()
