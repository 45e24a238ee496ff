"""Probing the defender's replies (core/dfpn.c): at the defender's nodes of a question's first
plies each reply is searched within a growing allowance of nodes, instead of df-pn's choice by the
disproof numbers. The probes nest (an allowance inside an enclosing one) and unwind when the budget is
spent; here they are checked against the tables with probing at every ply and the smallest allowances,
where the nesting is deepest, and on the 7x7k5 question that made them."""

from __future__ import annotations

import threading

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import Game, Limits, ProverOptions, Question, lib, monotonic
from service.engine.search.proof_number import ProofTable, ask
from tests.engine.search.prover_checks import OPENINGS, check_openings

EVERY_PLY = 64


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "plies", "results"), [o for o in OPENINGS if o[0] in ("4x4k4", "4x4k3-torus")]
)
def test_probed_at_every_ply_against_the_table(name: str, plies: int, results: set[int]) -> None:
    # the least allowance (MIN_ALLOWANCE) at every defender's node
    check_openings(name, plies, results, ProverOptions(probe_plies=EVERY_PLY, probe_nodes=1))


def cells(*names: str) -> int:
    """The 7x7 board's cells named rRcC."""
    return sum(1 << (int(name[1]) * 7 + int(name[3])) for name in names)


# 7x7k5 after 4 random plies (provers_bench's position 3 after 4 plies, seed 1) and X's strongest moves.
CROSSES = cells("r3c4", "r4c3")
NOUGHTS = cells("r0c1", "r4c1")


@pytest.mark.slow
@pytest.mark.parametrize(("move", "within"), [("r4c2", 2_000), ("r2c4", 150_000)])
def test_the_7x7k5_questions_df_pn_could_not_settle(move: str, within: int) -> None:
    """After X's move, O to move: X cannot force a line (O's reply r3c3 holds). With the attacker's moves
    searched only once its pass was disproven, df-pn alone needed 1.78 and 2.13 million nodes on a table
    of 2**22 slots, and was open after 400,000 on the default one; probed, 1,123 and 111,890 nodes. With
    the moves beside the pass (the default), df-pn alone settles each within 6,000."""
    game = Game(Board.of(get_variant("7x7k5")))
    limits = Limits(deadline=0.0, nodes=within)
    position = (CROSSES | cells(move), NOUGHTS, False)
    pass_first = ProverOptions(attacker_pass=lib.SS_PASS_FIRST)
    answer = ask(game, ProofTable(), *position, limits, pass_first)
    assert answer.outcome == -1
    assert answer.nodes < within
    # df-pn alone: the call's options reach its search
    alone = ProverOptions(probe_nodes=0, attacker_pass=lib.SS_PASS_FIRST)
    assert ask(game, ProofTable(), *position, limits, alone).outcome == 0
    beside = ProverOptions(probe_nodes=0)
    assert ask(game, ProofTable(), *position, Limits(deadline=0.0, nodes=6_000), beside).outcome == -1


@pytest.mark.slow
def test_a_node_cap_holds_with_the_probes_nested() -> None:
    game = Game(Board.of(get_variant("8x8k5")))
    options = ProverOptions(probe_plies=EVERY_PLY, probe_nodes=100)
    limits = Limits(deadline=0.0, nodes=20_000)
    answer = ask(game, ProofTable(), 1 << 27, 0, False, limits, options)
    assert answer.outcome == 0
    assert 20_000 <= answer.nodes <= 20_000 + 64


def test_probes_stop_where_every_reply_stays_open() -> None:
    """A Qubic position (the attacker to move, six marks a side, met by the check of Patashnik's
    strategy) where the replies probed stay open at every allowance: their numbers saturate, and each
    probe returns at once. The allowance grew until it overflowed; past it the search probed nothing,
    counted no node and read no clock, and never ended. It stops now, the question open."""
    game = Game(Board.of(get_variant("4x4x4k4")))
    crosses = sum(1 << c for c in (0, 12, 48, 51, 60, 63))
    noughts = sum(1 << c for c in (3, 31, 38, 40, 58, 61))
    found: list[Question] = []
    limits = Limits(monotonic() + 20.0, 2_000_000)
    searching = threading.Thread(
        target=lambda: found.append(ask(game, ProofTable(20), crosses, noughts, True, limits)), daemon=True
    )
    searching.start()
    searching.join(30.0)
    assert found, "the search did not return"
    assert found[0].outcome == 0 and not found[0].stopped and found[0].nodes < 2_000_000
