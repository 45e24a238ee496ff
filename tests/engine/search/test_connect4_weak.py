"""Connect Four past an opening book: positions of plies 13 to 20 from Pascal Pons's published test sets
(tests/data/connect4_weak.csv, written by `python -m tests.bench.connect4_weak --write-sample`: three a
ply, each with his score of the position from the set and every column's from his solver's `-a`),
answered by the search within a node budget of about what the default budget of one second buys here:
first each move's result alone, then the whole analysis, every move exact."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from service.engine.search import Budget, Searcher
from tests.bench.connect4_bench import CONNECT4, FULL_COLUMN, our_scores, play, pons_score

DATA = Path(__file__).resolve().parents[2] / "data" / "connect4_weak.csv"
# About a second of the search on this machine (3 to 10 M nodes/s); a node budget, unlike a deadline,
# does not depend on the load.
NODES = 5_000_000


def rows() -> list[tuple[str, int, list[int]]]:
    with open(DATA, newline="") as source:
        return [
            (row["moves"], int(row["score"]), [int(s) for s in row["scores"].split()])
            for row in csv.DictReader(source)
        ]


def sign(score: int) -> int:
    return (score > 0) - (score < 0)


@pytest.fixture(scope="module")
def searcher() -> Searcher:
    return Searcher(CONNECT4, table_bits=20)


def test_the_sample_covers_plies_13_to_20_with_every_result() -> None:
    found = rows()
    assert sorted({len(moves) for moves, _, _ in found}) == list(range(13, 21))
    assert {sign(score) for _, score, _ in found} == {-1, 0, 1}
    # his two sources agree: the position's score is its best move's
    assert all(score == max(scores) for _, score, scores in found)


@pytest.mark.parametrize(("moves", "score", "scores"), rows(), ids=[moves for moves, _, _ in rows()])
def test_results_then_scores_within_the_budget(
    searcher: Searcher, moves: str, score: int, scores: list[int]
) -> None:
    position = play(moves)
    searcher.table.clear()
    results = searcher.analyze(position, Budget(nodes=NODES), remoteness=False)
    proven = {
        move.cell % CONNECT4.cols: move.lower if move.result is not None else None for move in results.moves
    }
    assert proven == {column: sign(his) for column, his in enumerate(scores) if his != FULL_COLUMN}
    searcher.table.clear()
    whole = searcher.analyze(position, Budget(nodes=NODES))
    assert whole.exact
    found = [FULL_COLUMN] * CONNECT4.cols
    for move in whole.moves:
        assert move.value is not None
        found[move.cell % CONNECT4.cols] = pons_score(move.value, position.marks)
    assert found == scores
    assert max(found) == score
    assert our_scores(searcher, position)[0] == scores  # and with no limit, as the benchmark asks
