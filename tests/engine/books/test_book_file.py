"""Book files: written whole or not at all, read back exactly, and never used when a byte, the length,
the magic, the format or the variant does not check out; a read-only directory still serves."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest

from service.engine import Position, get_variant
from service.engine.books.arrays import masks
from service.engine.books.file import HEADER_SIZE, MAGIC, BookFileError, read_book, write_book
from service.engine.books.source import FOLDER, Books
from service.engine.rules.values import Value, encode

V = get_variant("4x4k3-gravity")
PLIES = [
    (masks([0]), np.array([encode(Value(1, 7))], dtype=np.uint8)),
    (masks([3, 9, 12]), np.array([encode(v) for v in (Value(-1, 6), Value(0, 15), Value(1, 5))], np.uint8)),
]


STALE_HEADER = json.dumps({"format": 99}).encode().ljust(HEADER_SIZE - len(MAGIC) - 1)


def written(folder: Path) -> Path:
    path = folder / FOLDER / f"{V.long_name}.book"
    path.parent.mkdir(parents=True)
    write_book(path, V, PLIES, {"summary": "made up"}, 1.5)
    return path


def test_a_book_reads_back_as_written(tmp_path: Path) -> None:
    path = written(tmp_path)
    data = read_book(path, V)
    assert data.deepest == 1 and data.header["entries"] == [1, 3]
    assert data.header["source"]["summary"] == "made up"
    for (keys, values), got_keys, got_values in zip(PLIES, data.keys, data.values, strict=True):
        assert np.array_equal(keys, got_keys) and np.array_equal(values, got_values)
    assert not os.access(path, os.W_OK) or os.geteuid() == 0  # made read-only (root writes anyway)
    assert not stat.S_IMODE(path.stat().st_mode) & 0o222
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temporary left


def damaged(path: Path, offset: int, data: bytes) -> None:
    os.chmod(path, 0o644)
    with path.open("r+b") as out:
        out.seek(offset)
        out.write(data)


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda p: damaged(p, HEADER_SIZE + 9, b"\x07"), "corrupt"),  # one key byte
        (lambda p: damaged(p, p.stat().st_size - 1, b"\x01"), "corrupt"),  # the padding after the values
        (lambda p: os.truncate(p, p.stat().st_size - 8), "truncated"),
        (lambda p: damaged(p, 0, b"SANMOKU TABLE"), "foreign"),
        (lambda p: damaged(p, len(MAGIC), STALE_HEADER), "stale"),
        (lambda p: damaged(p, len(MAGIC), b"{not json"), "corrupt"),
        (lambda p: os.truncate(p, 0), "unreadable"),
        (lambda p: p.unlink(), "missing"),
    ],
)
def test_a_damaged_book_is_refused(tmp_path: Path, change: object, problem: str) -> None:
    path = written(tmp_path)
    change(path)  # type: ignore[operator]
    with pytest.raises(BookFileError) as raised:
        read_book(path, V)
    assert raised.value.problem == problem
    assert Books([tmp_path], packaged=None).book(V) is None  # and not served


def test_a_book_of_another_board_is_refused(tmp_path: Path) -> None:
    path = written(tmp_path)
    with pytest.raises(BookFileError, match="foreign"):
        read_book(path, get_variant("4x4k4-gravity"))


def test_a_read_only_directory_serves_its_books(tmp_path: Path) -> None:
    written(tmp_path)
    os.chmod(tmp_path / FOLDER, 0o555)
    try:
        books = Books([tmp_path], packaged=None)
        book = books.book(V)
        assert book is not None and book.value(Position.empty(V)) == Value(1, 7)
        assert [info.problem for info in books.listing()] == [None]
    finally:
        os.chmod(tmp_path / FOLDER, 0o755)


def test_the_first_directory_holding_a_book_wins(tmp_path: Path) -> None:
    written(tmp_path / "first")
    (tmp_path / "second" / FOLDER).mkdir(parents=True)
    (tmp_path / "second" / FOLDER / f"{V.long_name}.book").write_bytes(b"not a book")
    books = Books([tmp_path / "second", tmp_path / "first"], packaged=None)
    assert books.book(V) is not None  # the broken one is skipped, and said so in the listing
    assert [info.problem is None for info in books.listing()] == [False, True]
