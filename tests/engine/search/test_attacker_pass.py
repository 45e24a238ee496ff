"""The attacker's moves and its pass (core/dfpn.c, core/zones.c): searched beside the pass, the
proof-number search settles wins it could not settle while it waited for the pass's disproof; searched
after it (SS_PASS_FIRST, kept for the benchmarks' comparison), it still agrees with the tables."""

from __future__ import annotations

import time

import pytest

from service.engine import get_variant
from service.engine.search import Board, native
from service.engine.search.native import Game, Limits, ProverOptions, TranspositionTable, lib
from service.engine.search.proof_number import ProofTable, ask
from tests.engine.search.prover_checks import OPENINGS, check_openings

PASS_FIRST = ProverOptions(attacker_pass=lib.SS_PASS_FIRST)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "plies", "results"), OPENINGS)
def test_moves_after_the_pass_against_the_table(name: str, plies: int, results: set[int]) -> None:
    check_openings(name, plies, results, PASS_FIRST)


# Qubic after 8 random plies, X (the attacker) to move: (X's cells, O's cells, the nodes the search
# beside the pass took). Searched after the pass, neither is settled within 100,000 nodes.
QUBIC_WINS = [(0x500001020000000, 0x2000000000840100, 2_196), (0x10008000005, 0x1C40000000000, 4_313)]


@pytest.mark.slow
@pytest.mark.parametrize(("crosses", "noughts", "nodes"), QUBIC_WINS)
def test_qubic_wins_the_pass_kept_from_the_search(crosses: int, noughts: int, nodes: int) -> None:
    game = Game(Board.of(get_variant("4x4x4k4")))
    # the independent check: alpha-beta alone proves X's win (a score of 1 or more)
    deadline = Limits(deadline=time.monotonic() + 30.0, nodes=0)
    scores = native.SCORE_MIN, native.SCORE_MAX
    table = TranspositionTable(20)
    by_alpha_beta = native.prove(game, table, crosses, noughts, native.GOAL_RESULT, deadline, *scores)
    assert by_alpha_beta.lower >= 1
    beside = ask(game, ProofTable(20), crosses, noughts, True, Limits(deadline=0.0, nodes=2 * nodes))
    assert beside.outcome == 1
    after = ask(game, ProofTable(20), crosses, noughts, True, Limits(deadline=0.0, nodes=100_000), PASS_FIRST)
    assert after.outcome == 0
