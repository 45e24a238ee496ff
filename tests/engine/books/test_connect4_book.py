"""The Connect Four book (plies 0 to 12, from the published 12-ply book by the retrograde pass), checked
against what others proved and against our own search:

- the empty board: a first-player win in 41 plies, the centre column its only winning move, and every
  first move scored as Pascal Pons's solver scores it (-2 -1 0 1 0 -1 -2);
- the positions of 10 to 12 plies of tests/data/connect4_pons.csv (his solver's output, every column);
- entries drawn at random from every ply from 0 to 12, each position's value proven by our own search
  (its exact score: result and remoteness) within a budget of nodes, and the proven ones (at least
  1,000, none of plies 0-3, which no search finishes within such a budget) compared with the book: a
  large sample with a small budget (mostly games that end within 15 plies), and a small one with a
  large budget from plies 10-12 (games that end 20 to 33 plies later);
- every entry of plies 0 to 4 and a sample of plies 5 to 11, each the best of its children's values as
  a reference written here reads them (Position.play, one lookup a child): the file is one consistent
  negamax from its ply-12 entries, which the samples above compare with proofs;
- answers through POST /analyze say `source: "book"` and are exact.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from service.app import create_app
from service.engine import Position, Value
from service.engine.books.check import LONG, Verified, sample_entries, verify_entries
from service.engine.books.source import Book
from service.engine.rules.variants import CONNECT4
from service.engine.tables.store import default_directory
from tests.bench.connect4_bench import play, pons_score

DATA = Path(__file__).resolve().parents[2] / "data" / "connect4_pons.csv"
CENTRE = 38  # the bottom cell of the centre column
PLIES = range(13)
# Budgets of nodes, not seconds: the same entries are proven however loaded the machine is.
SMALL_BUDGET, LARGE_BUDGET = 20_000, 2_000_000  # about 2 ms and 0.2 s of one processor


def test_the_empty_board_is_a_first_player_win_in_41_plies(connect4_book: Book) -> None:
    empty = Position.empty(CONNECT4)
    assert connect4_book.value(empty) == Value(1, 41)
    moves = connect4_book.moves(empty)
    assert moves is not None
    assert [m.cell for m in moves if m.value is not None and m.value.score == 1] == [CENTRE]
    assert [pons_score(m.value, 0) for m in moves if m.value is not None] == [-2, -1, 0, 1, 0, -1, -2]


def test_the_book_scores_every_column_as_pons_solver_does(connect4_book: Book) -> None:
    with DATA.open(newline="") as source:
        rows = [(r["moves"], [int(s) for s in r["scores"].split()]) for r in csv.DictReader(source)]
    early = [(moves, scores) for moves, scores in rows if len(moves) <= 12]
    assert len(early) >= 15
    for sequence, scores in early:
        position = play(sequence)
        best = max(s for s in scores if s > -1000)
        value = connect4_book.value(position)
        assert value is not None and pons_score(value.after_move(), position.marks - 1) == -best, sequence
        if len(sequence) < 12:
            moves = connect4_book.moves(position)
            assert moves is not None
            ours = [-1000] * CONNECT4.cols
            for move in moves:
                assert move.value is not None
                ours[move.cell % CONNECT4.cols] = pons_score(move.value, position.marks)
            assert ours == scores, sequence


def verified(book: Book, plies: list[int], per_ply: int, nodes: int, seed: int) -> Verified:
    lines: list[str] = []
    found = verify_entries(
        book, sample_entries(book, plies, per_ply, random.Random(seed)), nodes, lines.append, 2
    )
    assert found.disagreements == [], lines
    return found


@pytest.mark.slow
def test_sampled_entries_agree_with_the_search(connect4_book: Book) -> None:
    many = verified(connect4_book, list(PLIES), 1100, SMALL_BUDGET, 25)
    deep = verified(connect4_book, [10, 11, 12], 12, LARGE_BUDGET, 25)
    compared = many.compared + deep.compared
    assert sum(compared.values()) >= 1000, compared
    assert all(compared[ply] >= 30 for ply in PLIES if ply >= 4), compared
    assert sum(count for remoteness, count in deep.remoteness.items() if remoteness >= LONG) >= 15, deep


def reference_value(book: Book, position: Position) -> Value | None:
    """The best of the position's moves, each the value of its child read from the book (or a win in 1
    for a move that makes a line), as the side to move sees it."""
    values = []
    for cell in position.legal_moves():
        child = position.play(cell)
        found = Value(-1, 0) if child.is_over else book.value(child)
        if found is None:
            return None
        values.append(found.after_move())
    return min(values, key=Value.preference)


@pytest.mark.slow
def test_every_ply_is_its_childrens_negamax(connect4_book: Book) -> None:
    rng = random.Random(12)
    sampled = sample_entries(connect4_book, range(5), 1000, rng) + sample_entries(
        connect4_book, range(5, 12), 110, rng
    )
    assert len(sampled) >= 1400 and {p.marks for p in sampled} == set(range(12))
    for position in sampled:
        assert connect4_book.value(position) == reference_value(connect4_book, position), position.cells


@pytest.mark.slow
@pytest.mark.usefixtures("connect4_book")
def test_analyze_answers_from_the_book() -> None:
    client = create_app({"TESTING": True, "TABLES_DIR": str(default_directory())}).test_client()
    for sequence in ("", "4", "44", "4444435"):
        board = play(sequence).cells
        body = client.post("/analyze", json={"board": board, "variant": "connect4"}).get_json()
        assert body["source"] == "book" and body["result"] != "unknown", sequence
        assert all(m["remoteness"] is not None for m in body["moves"])
    empty = client.post("/analyze", json={"board": "." * 42, "variant": "connect4"}).get_json()
    assert (empty["result"], empty["remoteness"], empty["best_moves"]) == ("win", 41, [CENTRE])
    deep = play("444444333333").cells  # twelve plies: its moves are past the book
    assert client.post("/analyze", json={"board": deep, "variant": "connect4"}).get_json()["source"] != "book"
