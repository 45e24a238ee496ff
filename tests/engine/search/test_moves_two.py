"""The moves' alpha-beta searches on two threads (core/threads.c): the same scores as on one thread, on
square, rectangular, torus and misère boards; node caps kept to one thread (the same answer every
time); and the searchers a pool lends carry the second thread's table."""

from __future__ import annotations

import random

import pytest

from service.engine import SearcherPool, get_variant
from service.engine.search import Board
from service.engine.search.native import (
    GOAL_RESULT,
    GOAL_SCORE,
    SCORE_MAX,
    SCORE_MIN,
    Game,
    Limits,
    SecondThread,
    TranspositionTable,
    monotonic,
    prove_moves,
    score_moves,
    threats,
)
from service.engine.search.second_thread import SECOND_THREAD_EMPTY_CELLS, second_thread
from tests.core_debug import table_positions
from tests.engine.search.positions import random_position

BOARDS = ["5x5k4", "4x6k4", "5x5k4-torus", "5x5k4-misere", "6x6k5"]


def two_threads() -> SecondThread:
    second = second_thread(lambda: TranspositionTable(12), SECOND_THREAD_EMPTY_CELLS)
    if second is None:
        pytest.skip("no second thread can be made here")
    return second


@pytest.mark.parametrize("name", BOARDS)
def test_two_threads_give_every_moves_exact_score(name: str) -> None:
    board = Board.of(get_variant(name))
    game, rng, second = Game.of(board), random.Random(5), two_threads()
    for _ in range(4):
        mine, theirs = random_position(board, 14, rng)
        ending = threats(game, mine, theirs)  # prove_moves is not given the moves that end the game
        cells = [c for c in range(board.cells) if not (mine | theirs | ending) >> c & 1]
        exact, _ = score_moves(game, TranspositionTable(14), mine, theirs, cells)
        unknown = dict.fromkeys(cells, (SCORE_MIN, SCORE_MAX))
        limits = Limits(monotonic() + 120, 0)
        scores, spent = prove_moves(
            game, TranspositionTable(14), mine, theirs, unknown, GOAL_SCORE, limits, second
        )
        assert not spent.stopped
        assert [scores[c] for c in cells] == [(s, s) for s in exact]


def test_the_second_thread_searches_on_its_own_table() -> None:
    board = Board.of(get_variant("5x5k4"))
    game, second = Game.of(board), two_threads()
    mine, theirs = random_position(board, 21, random.Random(1))  # 1.2 million nodes, 0.1 s on two threads
    taken = mine | theirs | threats(game, mine, theirs)
    unknown = {c: (SCORE_MIN, SCORE_MAX) for c in range(board.cells) if not taken >> c & 1}
    table, limits = TranspositionTable(14), Limits(monotonic() + 120, 0)
    scores, _ = prove_moves(game, table, mine, theirs, unknown, GOAL_SCORE, limits, second)
    assert all(lower == upper for lower, upper in scores.values())
    assert table_positions(table) > 0 and table_positions(second.table) > 0


def test_a_node_cap_keeps_to_one_thread() -> None:
    board = Board.of(get_variant("6x6k5"))
    game = Game.of(board)
    mine, theirs = random_position(board, 26, random.Random(2))
    taken = mine | theirs | threats(game, mine, theirs)
    unknown = {c: (SCORE_MIN, SCORE_MAX) for c in range(board.cells) if not taken >> c & 1}
    capped = Limits(monotonic() + 120, 20_000)
    one = prove_moves(game, TranspositionTable(14), mine, theirs, unknown, GOAL_RESULT, capped)
    second = two_threads()
    two = prove_moves(game, TranspositionTable(14), mine, theirs, unknown, GOAL_RESULT, capped, second)
    assert table_positions(second.table) == 0
    assert one[0] == two[0]
    assert one[1]._replace(seconds=0.0) == two[1]._replace(seconds=0.0)
    assert one[1].nodes <= 20_000 + len(unknown)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_pools_engines_carry_a_second_table_with_two_threads(threads: int) -> None:
    pool = SearcherPool(1, table_bits=12, prover_threads=threads)
    pool.warm()
    with pool.searcher(get_variant("5x5k4"), wait=1.0) as searcher:
        first = searcher.second_table() if threads == 2 else None
    with pool.searcher(get_variant("6x6k5"), wait=1.0) as searcher:
        assert searcher.prover_threads == threads
        if threads == 2:
            assert searcher.second_table() is first  # lent again with its slot, not made anew
            assert searcher.second_table() is not searcher.table


def test_positions_near_the_end_keep_to_one_thread() -> None:
    made: list[TranspositionTable] = []

    def table() -> TranspositionTable:
        made.append(TranspositionTable(12))
        return made[-1]

    assert second_thread(table, SECOND_THREAD_EMPTY_CELLS - 1) is None
    assert made == []  # not made for nothing
    second = second_thread(table, SECOND_THREAD_EMPTY_CELLS)
    assert second is None or second.table is made[0]  # None only where no thread can be made
