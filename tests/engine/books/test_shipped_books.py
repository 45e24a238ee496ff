"""The books installed with the package (5x5k4: plies 0 to 3, proven by the search) and a book built by
the search and exported: checked against the search and the tables, served from a fresh tables
directory, and listed by `sanmoku book list`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from service.app import create_app
from service.cli.main import main
from service.engine import Position, TableStore, Value, get_variant
from service.engine.books.build import book_positions, build_book, export_book
from service.engine.books.file import read_book
from service.engine.books.source import PACKAGED, Book, Books
from service.engine.rules.known_move import KnownMove
from service.engine.search import Budget, Searcher
from service.engine.search.proven import ProvenCache
from tests.engine.search.records import ALPHA_BETA

V5 = get_variant("5x5k4")


@pytest.fixture(scope="module")
def book5() -> Book:
    found = Books([], packaged=PACKAGED).book(V5)
    assert found is not None, "the 5x5k4 book is not installed with the package"
    return found


def test_the_empty_5x5k4_board_is_a_draw(book5: Book) -> None:
    """Lee, in Winning Ways: 5x5 four in a row is a draw; a draw fills the board."""
    moves = book5.moves(Position.empty(V5))
    assert moves is not None and len(moves) == 25
    assert book5.value(Position.empty(V5)) == Value(0, 25)
    assert book5.data.deepest == 4 and book5.data.header["source"]["summary"].startswith("sanmoku's search")


@pytest.mark.slow
def test_sampled_5x5k4_positions_agree_with_the_search(book5: Book) -> None:
    rng = random.Random(5)
    layers = book_positions(V5, 3)
    searcher = Searcher(V5)
    for position in rng.sample(layers[2], 3) + rng.sample(layers[3], 8):
        moves = book5.moves(position)
        searched = searcher.analyze(position, Budget())
        assert moves is not None and searched.exact
        want = [(m.cell, m.value) for m in searched.moves]
        assert [(m.cell, m.value) for m in moves] == want, position.cells


def test_a_fresh_tables_directory_answers_5x5k4_from_the_book(tmp_path: Path) -> None:
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path)}).test_client()
    body = client.post("/analyze", json={"board": "." * 25, "variant": "5x5k4"}).get_json()
    assert (body["source"], body["result"], body["remoteness"]) == ("book", "draw", 25)
    assert all(m["result"] != "unknown" for m in body["moves"])


def test_book_list_says_which_books_are_present(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["book", "list", "--dir", str(tmp_path)]) == 0
    shown = capsys.readouterr().out
    assert "5x5k4" in shown and "plies 0-4" in shown and "sanmoku's search" in shown and "MB" in shown
    assert "every move of plies 0-3" in shown and "connect4         not built yet" in shown


def test_a_book_built_by_the_search_exports_what_the_table_holds(tmp_path: Path) -> None:
    variant = get_variant("4x4k4")
    store = ProvenCache(tmp_path)
    build_book(variant, 2, store, processes=1)
    path = tmp_path / "4x4k4.book"
    export_book(variant, 2, store, path, 0.0)
    book = Book(read_book(path, variant))
    table = TableStore(tmp_path / "tables").get(variant)
    for layer in book_positions(variant, 2):
        for position in layer:
            moves = book.moves(position)
            assert moves is not None
            want = {m.cell: m.value for m in table.lookup(position).moves}
            assert {m.cell: m.value for m in moves} == want


@pytest.mark.parametrize("contradicting", [False, True])
def test_the_book_wins_over_a_kept_record_that_contradicts_it(
    tmp_path: Path, book5: Book, contradicting: bool, caplog: pytest.LogCaptureFixture
) -> None:
    empty = Position.empty(V5)
    moves = book5.moves(empty)
    assert moves is not None and moves[0].value == Value(0, 25)
    if contradicting:  # a record that the corner move wins, where the book says it draws (Lee: 5x5k4 draws)
        moves[0] = KnownMove(moves[0].cell, 1, 1, 23)
    ProvenCache(tmp_path).put(empty, moves, ALPHA_BETA)
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path)}).test_client()
    body = client.post("/analyze", json={"board": "." * 25, "variant": "5x5k4"}).get_json()
    assert (body["source"], body["result"], body["remoteness"]) == ("book", "draw", 25)
    assert ("contradicts the 5x5k4 book" in caplog.text) == contradicting
    # the contradicting record is dropped; an agreeing one stays
    assert (ProvenCache(tmp_path).get(empty) is None) == contradicting
