"""When the Connect Four book is missing: an app's start builds nothing, the first Connect Four question
starts one build in the background (the search answers meanwhile), and no second one starts while the
first holds its lock."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.app import create_app
from service.engine.books import background as book_background
from service.engine.books import supply as book_supply
from service.engine.books.background import BackgroundBuild
from service.engine.books.builds import BUILD_LOCK
from service.engine.books.source import FOLDER
from service.engine.rules.variants import CONNECT4
from service.engine.tables.builder import BUILD_LOG, spawn_build
from service.engine.tables.locks import file_lock


@pytest.fixture
def started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The builds started, with no book on the host (its default tables directory is an empty one)."""
    calls: list[Path] = []
    monkeypatch.setattr(book_supply, "default_directory", lambda: tmp_path / "host")
    monkeypatch.setattr(BackgroundBuild, "start", lambda build: calls.append(build.directory))
    return calls


def test_the_first_connect4_question_starts_one_build(tmp_path: Path, started: list[Path]) -> None:
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path / "app")}).test_client()
    assert started == []
    body = {"board": "." * 42, "variant": "connect4", "budget_ms": 50}
    for _ in range(3):
        answer = client.post("/analyze", json=body).get_json()
        assert answer["source"] == "search"
    assert started == [tmp_path / "host"]
    client.post("/analyze", json={"board": "." * 25, "variant": "5x5k4"})  # answered by its shipped book
    assert started == [tmp_path / "host"]


def test_no_build_starts_without_background_builds(tmp_path: Path, started: list[Path]) -> None:
    app = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path), "BACKGROUND_BUILDS": False})
    app.test_client().post("/analyze", json={"board": "." * 42, "variant": "connect4", "budget_ms": 50})
    assert started == []


def test_no_book_build_starts_where_book_builds_are_off_and_tables_still_build(
    tmp_path: Path, started: list[Path]
) -> None:
    """A replica with no room for the book's build (docker-compose.yml leaves it to a job of its own)."""
    app = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path), "BOOK_BUILDS": False})
    client = app.test_client()
    client.post("/analyze", json={"board": "." * 42, "variant": "connect4", "budget_ms": 50})
    assert started == []
    book = client.get("/readyz").get_json()["books"]["connect4"]
    assert book["state"] == "missing" and "sanmoku book build connect4" in book["reason"]
    assert app.extensions["sanmoku.supply"].background_builds


def test_no_second_build_starts_while_one_holds_the_lock(tmp_path: Path) -> None:
    with file_lock(tmp_path / FOLDER / BUILD_LOCK) as held:
        assert held and book_background.start_build(tmp_path) is None
        assert book_supply.build_book_file(CONNECT4, tmp_path, if_missing=True, wait=False) is None
    assert not (tmp_path / FOLDER / "6x7k4-gravity.book").exists()


def test_a_background_build_writes_to_its_log_not_to_the_callers_output(tmp_path: Path) -> None:
    """A build started by `sanmoku analyze` held the command's output open until the book was built
    (`sanmoku analyze ... | less` waited minutes for it): what a build prints goes to a log beside it."""
    script = "import sys; print('to stdout'); print('to stderr', file=sys.stderr)"
    child = spawn_build(["-c", script], tmp_path / FOLDER)
    assert child.wait(timeout=60) == 0  # a Child has no pipes to the caller: its output went to the log
    assert (tmp_path / FOLDER / BUILD_LOG).read_text().splitlines() == ["to stdout", "to stderr"]
    assert spawn_build(["-c", "print('again')"], tmp_path / FOLDER).wait(timeout=60) == 0
    assert (tmp_path / FOLDER / BUILD_LOG).read_text().splitlines()[-1] == "again"  # appended
