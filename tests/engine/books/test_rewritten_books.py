"""A book file written into while the service answers from it: its values changed in place (the same
inode, which the service maps), with or without its checksum rewritten to match. No answer may then
differ from the book as it was checked, and a changed book is read and checked again before it answers."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from service.app import create_app
from service.engine import Position, get_variant
from service.engine.books import source as books_module
from service.engine.books.build import book_positions
from service.engine.books.file import HEADER_SIZE, MAGIC, _layout, read_book
from service.engine.books.source import FOLDER, PACKAGED, Book, Books

V5 = get_variant("5x5k4")
PACKAGED_BOOK = PACKAGED / "5x5k4.book"


def positions(count: int) -> list[Position]:
    """Positions the book answers (plies 0 to 3), a sample of each ply's, the same in every run."""
    layers = book_positions(V5, 3)
    rng = random.Random(5)
    return [p for layer in layers for p in (layer if len(layer) <= count else rng.sample(layer, count))]


def copied(tables: Path) -> Path:
    """The packaged 5x5k4 book copied into the `books/` folder of a tables directory."""
    path = tables / FOLDER / PACKAGED_BOOK.name
    path.parent.mkdir(parents=True)
    shutil.copyfile(PACKAGED_BOOK, path)
    return path


def rewrite_values(path: Path, rehash: bool = False) -> None:
    """Each value byte of every ply turned into the next one the book holds (a draw into a win...), in
    place; with `rehash`, the header's checksum rewritten to match the new bytes."""
    os.chmod(path, 0o644)
    data = bytearray(path.read_bytes())
    header = json.loads(data[len(MAGIC) : HEADER_SIZE])
    for count, (_, at_values) in zip(header["entries"], _layout(header["entries"]), strict=True):
        values = np.frombuffer(data, np.uint8, count, HEADER_SIZE + at_values).copy()
        held = sorted(set(values.tolist()))
        following = np.array([held[(held.index(v) + 1) % len(held)] for v in range(256) if v in held])
        values = following[np.searchsorted(held, values)].astype(np.uint8)
        data[HEADER_SIZE + at_values : HEADER_SIZE + at_values + count] = values.tobytes()
    if rehash:
        header["sha256"] = hashlib.sha256(data[HEADER_SIZE:]).hexdigest()
        data[:HEADER_SIZE] = (MAGIC + json.dumps(header).encode()).ljust(HEADER_SIZE - 1) + b"\n"
    with path.open("r+b") as out:  # the same inode: the service's mapping shows the new bytes
        out.write(data)


def claims(answer: dict[str, Any]) -> dict[int, tuple[str, int | None]]:
    return {m["cell"]: (m["result"], m["remoteness"]) for m in answer["moves"] if m["result"] != "unknown"}


def truth(book: Book, position: Position) -> dict[int, tuple[str, int | None]]:
    moves = book.moves(position)
    assert moves is not None
    results = {1: "win", 0: "draw", -1: "loss"}
    return {m.cell: (results[m.lower], m.remoteness) for m in moves}


def test_no_wrong_answer_after_a_book_is_rewritten_in_place(tmp_path: Path) -> None:
    path = copied(tmp_path)
    reference = Book(read_book(PACKAGED_BOOK, V5))
    asked = positions(40)
    truths = [truth(reference, p) for p in asked]
    config = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": [], "ACCESS_LOG": False}
    client = create_app({**config, "BACKGROUND_BUILDS": False}).test_client()

    def answers() -> list[dict[str, Any]]:
        found = []
        for position in asked:
            response = client.post(
                "/analyze", json={"board": position.cells, "variant": "5x5k4", "budget_ms": 20}
            )
            assert response.status_code == 200, response.data
            found.append(response.get_json())
        return found

    before = answers()
    assert all(a["source"] == "book" for a in before)
    assert [claims(a) for a in before] == truths
    inode = path.stat().st_ino
    rewrite_values(path)
    assert path.stat().st_ino == inode
    after = answers()
    wrong = [
        p.cells
        for p, a, t in zip(asked, after, truths, strict=True)
        if any(t[c] != v for c, v in claims(a).items())
    ]
    assert not wrong, f"{len(wrong)} of {len(asked)} answers wrong, e.g. {wrong[:3]}"


@pytest.mark.parametrize("rehash", [False, True], ids=["values changed", "values changed and rehashed"])
def test_a_book_written_into_is_not_answered_from_and_is_read_again(
    tmp_path: Path, rehash: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The open book stops answering at once (one fstat after its reads); the next look reads the file
    again and checks it whole: a checksum that no longer matches leaves the packaged book to answer, a
    rewritten one (the file checks out again) gives a new book of the new bytes."""
    path = copied(tmp_path)
    books = Books([tmp_path])
    first = books.book(V5)
    assert first is not None and first.data.path == path
    position = positions(1)[-1]
    assert first.moves(position) is not None and first.value(position) is not None
    rewrite_values(path, rehash)
    assert first.moves(position) is None and first.value(position) is None  # nothing from the new bytes
    again = books.book(V5)
    assert again is not None and again is not first
    if rehash:
        assert again.data.path == path and again.moves(position) == Book(read_book(path, V5)).moves(position)
    else:
        assert again.data.path == PACKAGED_BOOK  # the copy fails its checksum: the package's answers
    monkeypatch.setattr(books_module, "RENAME_SECONDS", 0.0)
    replacement = path.with_name("replacement")
    shutil.copyfile(PACKAGED_BOOK, replacement)
    os.replace(replacement, path)  # the documented repair: a good file renamed over the name
    repaired = books.book(V5)
    assert repaired is not None and repaired.data.path == path and repaired.data.watch is not None
    assert repaired.data.watch.stamp.inode == path.stat().st_ino
