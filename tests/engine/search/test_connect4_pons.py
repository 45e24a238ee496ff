"""Agreement with the reference solver: every move's score of 300 Connect Four positions of every stage
(tests/data/connect4_pons.csv, written by `python -m tests.bench.connect4_bench PATH --write-sample`,
which runs Pascal Pons's solver, built apart, in its `-a` mode) against ours, turned into his scores."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from service.engine import Value
from service.engine.search import Searcher
from tests.bench.connect4_bench import CONNECT4, FULL_COLUMN, our_scores, play, pons_score

DATA = Path(__file__).resolve().parents[2] / "data" / "connect4_pons.csv"


def rows() -> list[tuple[str, list[int]]]:
    with open(DATA, newline="") as source:
        return [(row["moves"], [int(s) for s in row["scores"].split()]) for row in csv.DictReader(source)]


def test_the_sample_covers_every_stage() -> None:
    plies = [len(moves) for moves, _ in rows()]
    assert len(plies) == 300 and min(plies) <= 13 and max(plies) >= 35
    assert sum(14 <= p <= 27 for p in plies) >= 100 and sum(p >= 28 for p in plies) >= 100


@pytest.fixture(scope="module")
def searcher() -> Searcher:
    return Searcher(CONNECT4, table_bits=20)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(4))
def test_every_move_scores_as_his_solver_says(searcher: Searcher, part: int) -> None:
    found = rows()[part::4]
    wrong = [
        (moves, ours, his) for moves, his in found if (ours := our_scores(searcher, play(moves))[0]) != his
    ]
    assert wrong == []
    assert any(FULL_COLUMN in his for _, his in found)


@pytest.mark.parametrize(
    ("value", "marks", "score"),
    [
        (Value(1, 1), 6, 18),  # the first player's 4th stone, the 7th mark: 22 - 4
        (Value(1, 1), 7, 18),  # the second player's 4th stone, the 8th mark
        (Value(-1, 2), 6, -18),  # the opponent's 4th stone comes next
        (Value(1, 36), 6, 1),  # the 42nd mark, the second player's 21st stone
        (Value(0, 30), 12, 0),
    ],
)
def test_his_scores_from_values(value: Value, marks: int, score: int) -> None:
    assert pons_score(value, marks) == score
