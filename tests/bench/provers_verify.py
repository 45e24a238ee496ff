"""The provers against alpha-beta on many random positions of boards past 16 cells (no table), a longer
run of test_provers_exhaustive's last test: each position's result by the two proof-number questions and
by alpha-beta alone, each within 300,000 nodes; every position both settle must agree. Also counted:
the defender's replies the proof zones settled (core/zones.c) in the provers' searches. And the
first question (can the side to move force a line?) asked on two threads, the second thread helping
with it at once (core/threads.c: its own family empty), within 300,000 nodes each: it must agree too.

Run: python -m tests.bench.provers_verify (a few minutes)
"""

from __future__ import annotations

import random
import time

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import Game, Limits, TranspositionTable
from service.engine.search.proof_families import Ask, prove_families
from service.engine.search.proof_number import ProofTable, Question
from service.engine.search.second_thread import thread_helper
from tests.engine.search.positions import random_position
from tests.engine.search.prover_checks import alpha_beta_result, prover_result

BOARDS = [
    ("5x5k4", (12, 14, 16, 18)),
    ("6x6k5", (18, 22, 26)),
    ("5x5k4-torus", (12, 14, 16)),
    ("6x6k5-torus", (18, 22, 26)),
    ("7x7k5", (28, 32)),
    ("6x6k4", (16, 20)),
    ("5x6k5", (16, 20)),
]
POSITIONS = 60


def helped(game: Game, tables: tuple[ProofTable, ProofTable], mine: int, theirs: int) -> int | None:
    """The result for the side to move as far as its question on two threads says: 1 it forces a line,
    -1 it does not (its result at most a draw), None not settled."""
    helper = thread_helper()
    assert helper is not None
    limits = Limits(0.0, 600_000)  # halved between the threads
    _, answered = prove_families(game, tables, ([], [Ask(mine, theirs, True)]), helper, limits, 1.0, 0.5)
    question = answered.answers[0]
    return None if question is None or question.outcome == 0 else question.outcome


def main() -> None:
    disagreements = pruned = helped_settled = 0
    limits = Limits(0.0, 300_000)
    for name, empties in BOARDS:
        board = Board.of(get_variant(name))
        game, proofs, table, rng = Game(board), ProofTable(18), TranspositionTable(20), random.Random(7)
        two = (ProofTable(18), ProofTable(18))
        for empty in empties:
            settled = [0, 0, 0]  # alpha-beta, the provers, both
            started = time.perf_counter()
            for _ in range(POSITIONS):
                mine, theirs = random_position(board, empty, rng)
                want = alpha_beta_result(game, table, mine, theirs, limits)
                asked: list[Question] = []
                got = prover_result(game, proofs, mine, theirs, limits, asked)
                pruned += sum(question.pruned for question in asked)
                settled[0] += want is not None
                settled[1] += got is not None
                if want is not None and got is not None:
                    settled[2] += 1
                    if want != got:
                        disagreements += 1
                        print(f"DISAGREE {name} {mine:#x}/{theirs:#x}: alpha-beta {want}, provers {got}")
                wins = helped(game, two, mine, theirs)
                if want is not None and wins is not None:
                    helped_settled += 1
                    if wins != (1 if want == 1 else -1):
                        disagreements += 1
                        print(f"DISAGREE {name} {mine:#x}/{theirs:#x}: alpha-beta {want}, helped {wins}")
            print(
                f"{name} empty {empty}: {POSITIONS} positions, alpha-beta settled {settled[0]}, provers"
                f" {settled[1]}, both {settled[2]}, {time.perf_counter() - started:.1f} s",
                flush=True,
            )
    print("disagreements:", disagreements, "; the defender's replies settled by proof zones:", pruned)
    print("first questions on two threads settled by both (alpha-beta too):", helped_settled)


if __name__ == "__main__":
    main()
