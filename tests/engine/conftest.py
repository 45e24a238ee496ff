"""The Connect Four book, built once per test session (about 20 s, 1.5 GB) into the session's tables
directory, which is the host's default one for every app the tests make: they find it there and build
nothing of their own."""

from __future__ import annotations

import pytest

from service.cli.main import main
from service.engine import TableStore
from service.engine.books.source import Book, Books
from service.engine.rules.variants import CONNECT4
from service.engine.tables.store import default_directory


@pytest.fixture(scope="session")
def connect4_book(store: TableStore) -> Book:
    directory = default_directory()
    assert directory == store.directory  # the session's (tests/conftest.py)
    assert main(["book", "build", "connect4", "--dir", str(directory), "--if-missing"]) == 0
    book = Books([directory], packaged=None).book(CONNECT4)
    assert book is not None
    return book
