"""The opening books of the gravity boards installed with the package (four in a row on boards of up to
36 cells whose empty board takes the search more than a request's second: built by `sanmoku book build
VARIANT --plies N`): the empty board against the published results, sampled entries against the
search, and the service answering the empty board from the book."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from service.app import create_app
from service.engine import Position, Value, get_variant
from service.engine.books.build import book_positions
from service.engine.books.source import PACKAGED, Book, Books
from service.engine.search import Budget, Searcher

# variant -> the first player's value from the empty board (Tromp's results; the ply the game ends on
# under perfect play from Steininger's table: a draw fills the board), and the book's plies
BOOKS = {
    "8x4k4-gravity": (Value(0, 32), 2),  # 4 columns of 8 rows: a draw
    "7x5k4-gravity": (Value(0, 35), 4),  # 5 columns of 7 rows: a draw
    "6x6k4-gravity": (Value(-1, 36), 6),  # 6 x 6: the second player wins on ply 36
    "5x7k4-gravity": (Value(0, 35), 4),  # 7 columns of 5 rows: a draw
    "4x8k4-gravity": (Value(-1, 32), 2),  # 8 columns of 4 rows: the second player wins on ply 32
}
SAMPLE = 2  # positions of each book's deepest ply, each proven by the search anew
NODES = 80_000_000  # a budget of nodes from a cleared table: the same proofs on any machine


def installed(name: str) -> Book:
    found = Books([], packaged=PACKAGED).book(get_variant(name))
    assert found is not None, f"the {name} book is not installed with the package"
    return found


@pytest.mark.parametrize("name", BOOKS)
def test_the_empty_board_is_the_published_result(name: str) -> None:
    book, (value, plies) = installed(name), BOOKS[name]
    empty = Position.empty(book.data.variant)
    assert book.data.deepest == plies and book.value(empty) == value
    moves = book.moves(empty)
    assert moves is not None and len(moves) == book.data.variant.cols
    assert min((m.value for m in moves if m.value is not None), key=Value.preference) == value


@pytest.mark.slow
@pytest.mark.parametrize("name", BOOKS)
def test_sampled_entries_agree_with_the_search(name: str) -> None:
    """Positions of the book's deepest ply, whose values the build took from its search of their
    parents' moves, proven anew by a fresh search of their own moves: the result always, the remoteness
    where the budget reaches it."""
    book = installed(name)
    variant = book.data.variant
    deepest = book_positions(variant, book.data.deepest)[-1]
    searcher = Searcher(variant)
    for position in random.Random(name).sample(deepest, SAMPLE):
        searcher.table.clear()
        report = searcher.analyze(position, Budget(nodes=NODES))
        value = book.value(position)
        lower, upper = (max(bound) for bound in zip(*((m.lower, m.upper) for m in report.moves), strict=True))
        assert value is not None and lower == upper == value.score, position.cells
        if report.exact:  # the remoteness too, where the budget reached it
            assert report.value == value, position.cells


def test_the_service_answers_the_empty_6x6_gravity_board_from_the_book(tmp_path: Path) -> None:
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path)}).test_client()
    body = client.post("/analyze", json={"board": "." * 36, "variant": "6x6k4-gravity"}).get_json()
    assert (body["source"], body["result"], body["remoteness"]) == ("book", "loss", 36)
    assert all(m["result"] == "loss" for m in body["moves"])
