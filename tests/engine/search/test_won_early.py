"""An analysis ends soon after the side to move's win is proven on boards past 64 cells (narrowing.py's
ends_after_a_win): a spending that ends early ends its parts with it, the search calls for it once a
win is proven there and not on smaller boards, and the Analyst tells the search when the fours before it
proved the win already."""

from __future__ import annotations

import time
from typing import Any

import pytest

from service.engine import Analyst, Budget, Position, Result, SearcherPool, get_variant
from service.engine.search import budget as budget_module
from service.engine.search import narrowing as narrowing_module
from service.engine.search import searcher as searcher_module
from service.engine.search.budget import Spending
from service.engine.search.native import monotonic


def open_three(side: int) -> str:
    """X's open three in the middle row, O's three stones in corners, X to move: X wins by making an
    open four (a win by fours), on a board of `side` x `side` cells."""
    rows = [["."] * side for _ in range(side)]
    middle = side // 2
    for col in (middle - 1, middle, middle + 1):
        rows[middle][col] = "X"
    rows[0][0] = rows[0][side - 1] = rows[side - 1][0] = "O"
    return "".join("".join(row) for row in rows)


def test_a_whole_that_ends_early_ends_its_parts_and_not_sooner_when_asked_again() -> None:
    whole = Spending(monotonic() + 10.0, None, None)
    part = whole.part(0.5).part(0.5)
    assert part.earliest_deadline() == part.deadline  # its own, the whole's is later
    whole.end_early(0.001)  # 10 ms from now
    first = whole.deadline
    assert first < monotonic() + 0.011
    assert part.earliest_deadline() == first
    assert part.share().deadline <= first
    whole.end_early(0.001)
    assert whole.deadline == first  # from its given time, not from what is left
    time.sleep(0.02)
    assert part.spent and whole.spent


def test_a_node_cap_alone_runs_on() -> None:
    capped = Spending(0.0, 100, None)
    capped.end_early(0.1)
    assert capped.deadline == 0.0 and not capped.spent


def ended_early(monkeypatch: pytest.MonkeyPatch, name: str, board: str) -> bool:
    """Whether the search's analysis of `board` (X to move, a win proven) asked to end early."""
    asked: list[float] = []
    end_early = Spending.end_early

    def recording(self: Spending, fraction: float) -> None:
        asked.append(fraction)
        end_early(self, fraction)

    monkeypatch.setattr(budget_module.Spending, "end_early", recording)
    variant = get_variant(name)
    analysis = searcher_module.Searcher(variant, table_bits=12).analyze(
        Position.parse(board, "X", variant), Budget(0.3)
    )
    assert any(move.lower == 1 for move in analysis.moves)
    return bool(asked)


@pytest.mark.parametrize(("side", "ends_early"), [(15, True), (8, False)])
def test_a_proven_win_ends_the_analysis_early_past_64_cells(
    monkeypatch: pytest.MonkeyPatch, side: int, ends_early: bool
) -> None:
    assert ended_early(monkeypatch, f"{side}x{side}k5", open_three(side)) is ends_early


def test_a_line_to_complete_at_once_ends_it_before_any_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """9x9 with four in a row: X completes XXX. at once (the fours before the search are gomoku's only):
    the analysis asks to end early before it searches a move."""
    events: list[str] = []
    prove_moves = narrowing_module.prove_moves

    def searching(*args: Any, **kwargs: Any) -> Any:
        events.append("search")
        return prove_moves(*args, **kwargs)

    monkeypatch.setattr(narrowing_module, "prove_moves", searching)
    end_early = Spending.end_early

    def ending(self: Spending, fraction: float) -> None:
        events.append("end")
        end_early(self, fraction)

    monkeypatch.setattr(budget_module.Spending, "end_early", ending)
    board = "XXX......" + "........." * 3 + "....O...." + "........." * 2 + "O.......O" + "........."
    variant = get_variant("9x9k4")
    searcher_module.Searcher(variant, table_bits=12).analyze(Position.parse(board, "X", variant), Budget(0.3))
    assert events[:1] == ["end"], events


def test_the_analyst_tells_the_search_a_win_by_fours_is_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[bool] = []
    analyze = searcher_module.Searcher.analyze

    def recording(self: searcher_module.Searcher, *args: object, **kwargs: object) -> object:
        told.append(bool(kwargs.get("won")))
        return analyze(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(searcher_module.Searcher, "analyze", recording)
    variant = get_variant("15x15k5")
    answer = Analyst(lambda v: None, None, SearcherPool(1)).analyze(
        Position.parse(open_three(15), "X", variant), Budget(1.0)
    )
    assert answer.result is Result.WIN
    assert told == [True]
