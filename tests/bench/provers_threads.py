"""The provers' two threads on the questions that take the time: for the random positions of provers_ab
(same seed) that one thread does not make exact in the default second, both families of questions about
the position run at once (core/threads.c) within `--long` seconds, and the first question of each
family left open after a hundredth of a second is asked again alone, on one thread, with no help.

Run: python -m tests.bench.provers_threads [--board 7x7k5] [--plies 8] [--positions 30] [--seed 1]
     [--long 10]

Both threads must have a processor each: on a machine shared with other sessions, run it where they
get one (a `nice` in another session does not yield to this one under the kernel's autogroups).
"""

from __future__ import annotations

import random

from service.engine import get_variant
from service.engine.search import Board, Budget, Searcher
from service.engine.search.native import Game, Limits, TranspositionTable, monotonic
from service.engine.search.proof_families import Ask, prove_families
from service.engine.search.proof_number import ProofTable, ask, thread_table
from service.engine.search.second_thread import thread_helper
from tests.bench.provers_bench import DEFAULT_BUDGET
from tests.bench.provers_misses import arguments
from tests.engine.search.positions import position_of
from tests.engine.search.positions import random_play as random_position


def main() -> None:
    args = arguments(__doc__, 8, 10.0).parse_args()
    variant, rng = get_variant(args.board), random.Random(args.seed)
    board = Board.of(variant)
    game, helper = Game(board), thread_helper()
    assert helper is not None
    plays = [random_position(board, args.plies, rng) for _ in range(args.positions)]
    print("| position | question | one thread, alone: s | two threads: s | the other family's first: s |")
    print("|---|---|---|---|---|")
    for index, (mine, theirs) in enumerate(plays):
        thread_table().clear()
        searcher = Searcher(variant, table=TranspositionTable(16), prover_threads=1)
        if searcher.analyze(position_of(variant, mine, theirs), Budget(DEFAULT_BUDGET), estimates=True).exact:
            continue
        cells = [c for c in range(board.cells) if not (mine | theirs) >> c & 1]
        wins = [Ask(mine, theirs, True)] + [Ask(mine | 1 << c, theirs, False, c) for c in cells]
        losses = [Ask(theirs, mine, True)] + [Ask(theirs, mine | 1 << c, True, c) for c in cells]
        limits = Limits(monotonic() + args.long, 0)
        tables = (ProofTable(), ProofTable())
        answered = prove_families(game, tables, (wins, losses), helper, limits, 0.8, 0.5)
        roots = [family.answers[0] for family in answered]
        for name, asks, root, other in zip(("win", "loss"), (wins, losses), roots, roots[::-1], strict=True):
            assert root is not None and other is not None
            if root.seconds < 0.01:
                continue
            alone = ask(game, ProofTable(), *asks[0][:3], Limits(monotonic() + args.long, 0))
            print(
                f"| {index} | {name} | {alone.seconds:.2f}{'' if alone.outcome else ' open'}"
                f" | {root.seconds:.2f}{'' if root.outcome else ' open'}"
                f" | {other.seconds:.2f}{'' if other.outcome else ' open'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
