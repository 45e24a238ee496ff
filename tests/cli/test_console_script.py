"""The `sanmoku` command as a user runs it (the console script pip installs, in a process of its own):
the API's limits and checks, a store that is not there, commands that destroy asking first, progress on
long jobs, --version and a help and legend that say what they mean."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.engine import NAMING, Position, get_variant
from service.engine.books.build import build_book
from service.engine.rules.known_move import KnownMove
from service.engine.search.proven import ProvenCache
from tests.engine.search.records import ALPHA_BETA
from tests.mounts import on_small_disk
from tests.requires import require

SCRIPT = Path(sys.executable).parent / "sanmoku"


def sanmoku(
    *argv: str, tables: Path | None = None, prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        if os.environ.get("CI"):
            pytest.fail(f"no console script at {SCRIPT}: `pip install -e .` makes it")
        pytest.skip(f"no console script at {SCRIPT}")
    env = {**os.environ} if tables is None else {**os.environ, "SANMOKU_TABLES_DIR": str(tables)}
    return subprocess.run(
        [*prefix, str(SCRIPT), *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def refused(done: subprocess.CompletedProcess[str]) -> str:
    """The one sentence on stderr of a command that exits 2 (no traceback, nothing on stdout)."""
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout[:300], done.stderr)
    assert done.stderr.startswith("sanmoku: ") and "Traceback" not in done.stderr
    return done.stderr


@pytest.mark.slow
def test_version_and_the_variant_help() -> None:
    assert sanmoku("--version").stdout.strip() == f"sanmoku {version('sanmoku')}"
    shown = " ".join(sanmoku("analyze", "--help").stdout.split())
    assert " ".join(NAMING.split()) in shown and "-gravity" in shown and "connect4" in shown


def test_the_budget_is_checked_as_the_api_checks_it(client: FlaskClient) -> None:
    api = client.post("/analyze", json={"board": "." * 25, "variant": "5x5k4", "budget_ms": -5}).get_json()
    said = refused(sanmoku("analyze", "." * 25, "--variant", "5x5k4", "--budget-ms", "-5"))
    assert f"--budget-ms: {api['errors']['budget_ms'][0]}" in said


@pytest.mark.slow
def test_solve_keeps_the_apis_limits(client: FlaskClient, tmp_path: Path) -> None:
    api = client.get("/solve?variant=4x4k4").get_json()
    said = refused(sanmoku("solve", "--variant", "4x4k4"))  # gigabytes of one JSON document before
    assert api["detail"].replace("format=", "--format ") in said
    # A directory without the table (the session's may hold it by now): was a traceback
    said = refused(sanmoku("solve", "--variant", "4x5k4", tables=tmp_path))
    assert "sanmoku tables build 4x5k4" in said and "MB on disk" in said


def test_a_build_the_disk_cannot_hold_is_refused_before_it_starts(tmp_path: Path) -> None:
    tables = tmp_path / "small"
    prefix = on_small_disk(tables)  # 2 MB: the 4x4k4 table takes 1.3, and 64 MiB are kept free
    said = refused(
        sanmoku("solve", "--variant", "4x4k4", "--format", "csv", tables=tables, prefix=tuple(prefix))
    )
    assert "the 4x4k4 table cannot be built here: it needs 1.3 MB more on disk, with 67.1 MB left" in said


def test_a_store_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    typo = tmp_path / "tabels"
    said = refused(sanmoku("cache", "stats", "--dir", str(typo)))
    assert "no cache of proven positions" in said and not typo.exists()
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "proven.sqlite").write_bytes(b"not a database" * 100)
    said = refused(sanmoku("cache", "stats", "--dir", str(damaged)))
    assert "cannot be used" in said and "remove proven.sqlite" in said


@pytest.mark.slow
def test_clearing_asks_first_and_takes_a_book_only_by_name(tmp_path: Path) -> None:
    variant = get_variant("4x4k4")
    store = ProvenCache(tmp_path)
    build_book(variant, 1, store, processes=1)  # 4 positions of the book
    searched = Position.empty(variant).play(0).play(5).play(10)
    store.put(searched, [KnownMove(c, 0, 0, 13) for c in searched.legal_moves()], ALPHA_BETA)
    store.close()
    said = refused(sanmoku("cache", "clear", "--dir", str(tmp_path)))  # no terminal to ask on
    assert "add --yes" in said
    assert sanmoku("cache", "clear", "--dir", str(tmp_path), "--yes").stdout == "removed 1 proven positions\n"
    with sqlite3.connect(tmp_path / "proven.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM proven WHERE origin LIKE 'book/%'").fetchone()[0] == 4
    done = sanmoku("cache", "clear", "--dir", str(tmp_path), "--book", "4x4k4", "--yes")
    assert done.stdout == "removed 4 proven positions of the 4x4k4 book\n"


@pytest.mark.slow
def test_a_book_build_shows_its_progress(tmp_path: Path) -> None:
    done = sanmoku("book", "build", "4x4k4", "--plies", "2", "--processes", "1", "--dir", str(tmp_path))
    steps = [line for line in done.stdout.splitlines() if line.endswith(" of 33 positions searched")]
    assert done.returncode == 0 and len(steps) == 10, done.stdout  # a line per tenth of the ply
    assert steps[-1] == "ply 2: 33 of 33 positions searched"
    # the book file is the one place its values live: nothing in the cache, no work left
    assert (tmp_path / "books" / "4x4k4.book").is_file()
    assert not (tmp_path / "proven.sqlite").exists() and not list((tmp_path / "books").glob(".*.work"))
    terminal = require("script", "bsdutils")  # a terminal: the bar
    book = f"{SCRIPT} book build 4x4k4 --plies 2 --processes 1 --dir {tmp_path / 'again'}"
    command = f"stty cols 100 rows 40; {book}"  # script's terminal has no size, and a bar needs one
    shown = subprocess.run(
        [terminal, "-qec", command, "/dev/null"], capture_output=True, text=True, timeout=300
    )
    assert shown.returncode == 0 and "ply 2:   0%|" in shown.stdout and "/33 [" in shown.stdout, shown.stdout


def test_the_legend_says_what_every_label_means(tmp_path: Path) -> None:
    done = sanmoku("analyze", "." * 42, "--variant", "connect4", "--budget-ms", "1", tables=tmp_path)
    assert done.returncode == 0, done.stderr
    drawing, legend = done.stdout.split("\n\n")[0], done.stdout.splitlines()[-1]
    assert "?" in drawing and " . " in drawing
    assert "? not proven within the budget" in legend and ". an empty cell no move can take yet" in legend


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
