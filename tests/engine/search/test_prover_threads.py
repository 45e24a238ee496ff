"""The provers of one analysis on one thread and on two (results.py, proof_families.py, core/threads.c):
the moves' results against the solved tables where the provers are made to lead, the two-thread answers
question by question against the same questions asked alone, and the cancel flag stopping both threads."""

from __future__ import annotations

import os
import random
import threading
import time
from functools import cache

import pytest

from service.app import create_app
from service.engine import Position, Result, Variant, get_variant
from service.engine.search import Board, Budget, Cancel, Searcher
from service.engine.search import narrowing as narrowing_module
from service.engine.search.native import Game, Limits, TranspositionTable, monotonic
from service.engine.search.proof_families import Ask, prove_families
from service.engine.search.proof_number import ProofTable, Prover, ask
from service.engine.search.second_thread import thread_helper
from service.engine.tables.table import Table
from service.serving.sources import ANALYST
from tests.engine.search.forked import exit_code_within
from tests.engine.search.positions import position_of, random_position
from tests.engine.tables.boards import solved_table

PROVERS = {Prover.PROOF_NUMBER.value, Prover.PAIRING.value, Prover.THREAT_SPACE.value}


@cache
def table_of(name: str) -> Table:
    return solved_table(get_variant(name))


def sample(variant: Variant, count: int) -> list[Position]:
    """`count` positions after random play of 1 to 10 plies, none over."""
    board, rng = Board.of(variant), random.Random(variant.name)
    found: list[Position] = []
    while len(found) < count:
        mine = theirs = 0
        for _ in range(rng.randint(1, 10)):
            empty = [c for c in range(board.cells) if not (mine | theirs) >> c & 1]
            mine, theirs = theirs, mine | 1 << rng.choice(empty)
            if board.is_over(mine, theirs):
                break
        if not board.is_over(mine, theirs):
            found.append(position_of(variant, mine, theirs))
    return found


# 4x4 boards the provers apply to (no gravity, not misère), with lines of three and of four: every result
# occurs with three (wins by threat sequences, losses), four in a row is a draw (disproofs, pairings).
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", ["4x4k3", "4x4k4", "4x4k3-torus", "4x4k4-torus"])
def test_the_moves_results_agree_with_the_table(
    name: str, threads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the provers leading on these boards (they lead from five in a row in the service), each
    move's result, proven by them first and by alpha-beta where they leave it, is the table's."""
    monkeypatch.setattr(narrowing_module, "PROVERS_LEAD_K", 3)
    variant, table = get_variant(name), table_of(name)
    searcher = Searcher(variant, table_bits=14, prover_threads=threads)
    closed_by_provers, results = 0, set()
    for position in sample(variant, 60):
        report = searcher.analyze(position, Budget(seconds=30.0), remoteness=False)
        want = {move.cell: move.value.result for move in table.lookup(position).moves}
        assert {move.cell: move.result for move in report.moves} == want, str(position)
        closed_by_provers += sum(n for prover, n in report.closed_by.items() if prover in PROVERS)
        results |= set(want.values())
    assert closed_by_provers >= 200  # the provers settled most moves, not alpha-beta
    assert results >= ({Result.DRAW} if name.endswith("k4") else {Result.WIN, Result.LOSS})


def test_one_thread_and_two_give_the_same_results_on_6x6k5() -> None:
    """Past the tables: where both settle a move (most, after 12 plies), they agree."""
    variant, rng = get_variant("6x6k5"), random.Random(12)
    board = Board.of(variant)
    searchers = {threads: Searcher(variant, table_bits=16, prover_threads=threads) for threads in (1, 2)}
    both = 0
    for _ in range(8):
        position = position_of(variant, *random_position(board, 36 - 12, rng))
        reports = {n: searcher.analyze(position, Budget(seconds=2.0)) for n, searcher in searchers.items()}
        for one, two in zip(reports[1].moves, reports[2].moves, strict=True):
            if one.result is not None and two.result is not None:
                assert one.result == two.result, f"{position} move {one.cell}"
                both += 1
    assert both >= 100


def test_each_familys_answers_are_the_questions_answers_alone() -> None:
    """Run to their ends (no limit), the two families' questions (the first helped by the other thread
    when its own family is done): each answer is that of the same question asked alone."""
    variant, rng = get_variant("6x6k5"), random.Random(5)
    board = Board.of(variant)
    game, no_limit = Game(board), Limits(0.0, 0)
    helper = thread_helper()
    assert helper is not None
    for _ in range(4):
        mine, theirs = random_position(board, 36 - 14, rng)
        cells = [c for c in range(36) if not (mine | theirs) >> c & 1]
        wins = [Ask(mine, theirs, True)] + [Ask(mine | 1 << c, theirs, False, c) for c in cells]
        losses = [Ask(theirs, mine, True)] + [Ask(theirs, mine | 1 << c, True, c) for c in cells]
        tables = (ProofTable(16), ProofTable(16))
        answers = prove_families(game, tables, (wins, losses), helper, no_limit, 0.8, 0.5)
        for asks, answered in zip((wins, losses), answers, strict=True):
            root = answered.answers[0]
            assert root is not None and root.nodes > 0
            assert root.outcome == ask(game, ProofTable(16), *asks[0][:3], no_limit).outcome
            for one, question in zip(asks[1:], answered.answers[1:], strict=True):
                if root.outcome == -1:  # it settles every move's question: none asked
                    assert question is None
                elif question is not None:
                    assert question.outcome == ask(game, ProofTable(16), *one[:3], no_limit).outcome


@pytest.mark.slow
def test_a_hard_first_question_helped_by_the_free_thread() -> None:
    """A 7x7k5 position after 8 plies (provers_ab's 21st with seed 1, X to move) where the side to move
    cannot force a line (settled at once) and the other side cannot either, even if X passes (about a
    second alone): the free thread helps with that question, and the answer is the question's alone."""
    variant = get_variant("7x7k5")
    game, no_limit = Game(Board.of(variant)), Limits(0.0, 0)
    mine, theirs = 0x27, 0x100100400080
    helper = thread_helper()
    assert helper is not None
    tables = (ProofTable(16), ProofTable(16))
    wins, losses = [Ask(mine, theirs, True)], [Ask(theirs, mine, True)]
    settled, helped = prove_families(game, tables, (wins, losses), helper, no_limit, 0.8, 0.5)
    assert settled.answers[0] is not None and settled.answers[0].outcome == -1
    assert settled.helping.nodes > 0 and helped.helping.nodes == 0
    root, alone = helped.answers[0], ask(game, ProofTable(16), theirs, mine, True, no_limit)
    assert root is not None and root.outcome == alone.outcome


def test_the_cancel_flag_stops_both_threads() -> None:
    """The empty 8x8k5 board: neither family settles in a long budget (8,8,5 took 17 hours to prove a
    draw). Set from another thread, the flag stops the analysis (both threads: the call returns only when
    both have stopped) long before its budget; the same searcher then answers again."""
    variant = get_variant("8x8k5")
    searcher = Searcher(variant, table=TranspositionTable(14), prover_threads=2)
    cancel = Cancel()
    timer = threading.Timer(0.3, cancel.set)
    started = monotonic()
    timer.start()
    report = searcher.analyze(Position.empty(variant), Budget(seconds=60.0, cancel=cancel))
    stopped = monotonic() - started
    timer.join()
    assert not report.exact and report.nodes > 0
    assert stopped < 20.0  # 60 without the flag; the machine's noise is far below the difference
    quick = time.perf_counter()
    again = searcher.analyze(Position.empty(variant), Budget(seconds=0.2))
    assert not again.exact and again.nodes > 0 and time.perf_counter() - quick < 20.0


def test_a_forked_process_makes_its_own_helper() -> None:
    """A helper inherited through a fork (gunicorn's preloaded workers) has no thread in the child: the
    child makes its own, and its two families are answered (the child exits 0 only then)."""
    parent = thread_helper()
    assert parent is not None
    pid = os.fork()
    if pid == 0:  # the child: no pytest here, only an exit code
        code = 1
        try:
            helper = thread_helper()
            variant = get_variant("6x6k5")
            game, tables = Game(Board.of(variant)), (ProofTable(12), ProofTable(12))
            families = ([Ask(0, 0, True)], [Ask(0, 0, False)])
            assert helper is not None and helper is not parent and helper.pid == os.getpid()
            first, second = prove_families(game, tables, families, helper, Limits(0.0, 0), 0.8, 0.5)
            code = 0 if first.answers[0] and second.answers[0] and first.answers[0].outcome == -1 else 2
        finally:
            os._exit(code)
    assert exit_code_within(pid, 60.0) == 0


def test_the_threads_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """PROVER_THREADS reaches the searchers the app's pool lends (default 2; the environment's
    SANMOKU_PROVER_THREADS as any setting); a searcher refuses anything but 1 or 2."""
    assert create_app({"TESTING": True, "ACCESS_LOG": False}).extensions[ANALYST].pool.prover_threads == 2
    monkeypatch.setenv("SANMOKU_PROVER_THREADS", "1")
    pool = create_app().extensions[ANALYST].pool
    with pool.searcher(get_variant("7x7k5"), wait=None) as searcher:
        assert searcher.prover_threads == 1
    with pytest.raises(ValueError, match="1 or 2"):
        Searcher(get_variant("7x7k5"), table_bits=10, prover_threads=3)
    for wrong in ("3", "0", '"two"', "1.5"):  # refused when the app is made, not at every search
        monkeypatch.setenv("SANMOKU_PROVER_THREADS", wrong)
        with pytest.raises(ValueError, match="1 or 2 threads"):
            create_app()


@pytest.mark.slow
def test_the_free_thread_joins_the_other_familys_rounds() -> None:
    """provers_ab's 21st 7x7k5 position after 12 plies (seed 1, X to move): X cannot force a line (its
    family settled at once), O can if X passes (at once too), so each of X's 37 moves needs its own
    question whether O wins after it. Each family's thread may spend half of a node cap: the loss
    family's moves' questions spend more than that half only when the win family's thread, free, asks
    some of them too (on one thread, before, they spent 199,762 of 200,000)."""
    variant = get_variant("7x7k5")
    game, cap = Game(Board.of(variant)), 400_000
    mine, theirs = 0x41000004484, 0x1000426020000
    cells = [c for c in range(49) if not (mine | theirs) >> c & 1]
    wins = [Ask(mine, theirs, True)] + [Ask(mine | 1 << c, theirs, False, c) for c in cells]
    losses = [Ask(theirs, mine, True)] + [Ask(theirs, mine | 1 << c, True, c) for c in cells]
    helper = thread_helper()
    assert helper is not None
    tables = (ProofTable(16), ProofTable(16))
    won, lost = prove_families(game, tables, (wins, losses), helper, Limits(0.0, cap), 0.8, 0.5)
    assert won.answers[0] is not None and won.answers[0].outcome == -1
    assert all(answer is None for answer in won.answers[1:])
    assert lost.answers[0] is not None and lost.answers[0].outcome == 1
    moves = [answer for answer in lost.answers[1:] if answer is not None]
    assert sum(answer.nodes for answer in moves) > cap // 2
    for one, answer in zip(losses[1:], lost.answers[1:], strict=True):
        if answer is not None and answer.outcome:
            assert answer.outcome == ask(game, ProofTable(16), *one[:3], Limits(0.0, 0)).outcome
