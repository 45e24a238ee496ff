"""Known results of larger boards, from the empty board (field notes, Winning Ways, Tromp)."""

from __future__ import annotations

import pytest

from service.engine import Result, Value
from service.engine.search import Board, Budget, SearchEngine
from service.engine.search._core import ffi
from service.engine.search.native import GOAL_RESULT, SCORE_MAX, SCORE_MIN, Limits, prove


def root_result(board: Board) -> Result:
    """The result at the root alone: cheaper than every move's."""
    engine = SearchEngine(board, table_bits=20)
    limits = Limits(deadline=0.0, nodes=0, cancel=ffi.NULL)
    outcome = prove(engine.game, engine.table, 0, 0, GOAL_RESULT, limits, SCORE_MIN, SCORE_MAX)
    assert not outcome.stopped
    return Result.WIN if outcome.lower >= 1 else Result.LOSS if outcome.upper <= -1 else Result.DRAW


@pytest.mark.parametrize(
    ("board", "result"),
    [
        (Board(5, 5, 4), Result.DRAW),  # Lee, in Winning Ways
        (Board(6, 6, 4), Result.WIN),
        (Board(4, 5, 4, misere=True), Result.DRAW),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_results_from_empty(board: Board, result: Result) -> None:
    assert root_result(board) == result


@pytest.mark.parametrize(
    ("board", "value"),
    [
        (Board(4, 5, 4), Value(0, 20)),
        (Board(3, 6, 4), Value(0, 18)),
        (Board(3, 5, 4), Value(0, 15)),
        (Board(4, 5, 3), Value(1, 5)),
        (Board(3, 6, 3), Value(1, 7)),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_values_from_empty(board: Board, value: Value) -> None:
    analysis = SearchEngine(board, table_bits=20).analyze_marks(0, 0, Budget())
    assert analysis.exact
    assert analysis.value == value
