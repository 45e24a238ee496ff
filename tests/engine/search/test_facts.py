"""Known results of larger boards, from the empty board (field notes, Winning Ways, Tromp)."""

from __future__ import annotations

import pytest

from service.engine import Position, Result, Value, Variant
from service.engine.search import Budget, Searcher
from service.engine.search.native import GOAL_RESULT, SCORE_MAX, SCORE_MIN, Limits, prove


def root_result(variant: Variant) -> Result:
    """The result at the root alone: cheaper than every move's."""
    searcher = Searcher(variant, table_bits=20)
    limits = Limits(deadline=0.0, nodes=0)
    outcome = prove(searcher.game, searcher.table, 0, 0, GOAL_RESULT, limits, SCORE_MIN, SCORE_MAX)
    assert not outcome.stopped
    return Result.WIN if outcome.lower >= 1 else Result.LOSS if outcome.upper <= -1 else Result.DRAW


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "result"),
    [
        (Variant(5, 5, 4), Result.DRAW),  # Lee, in Winning Ways
        (Variant(6, 6, 4), Result.WIN),
        (Variant(4, 5, 4, misere=True), Result.DRAW),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_results_from_empty(variant: Variant, result: Result) -> None:
    assert root_result(variant) == result


@pytest.mark.parametrize(
    ("variant", "value"),
    [
        (Variant(4, 5, 4), Value(0, 20)),
        (Variant(3, 6, 4), Value(0, 18)),
        (Variant(3, 5, 4), Value(0, 15)),
        (Variant(4, 5, 3), Value(1, 5)),
        (Variant(3, 6, 3), Value(1, 7)),
    ],
    ids=lambda v: getattr(v, "name", str(v)),
)
def test_values_from_empty(variant: Variant, value: Value) -> None:
    analysis = Searcher(variant, table_bits=20).analyze(Position.empty(variant), Budget())
    assert analysis.exact
    assert analysis.value == value
