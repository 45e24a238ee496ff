"""What a server imports before its first answer (which waits for it): the app, not the engine's command-line
parts (the book builders, the proof runs, the strength matches, perft, and multiprocessing with them),
which the front door imports on first use; and those names still resolve to what they are."""

from __future__ import annotations

import subprocess
import sys

import pytest

import service.engine as engine
from service.engine.books import build as book
from service.engine.books import check as book_check
from service.engine.play import strength
from service.engine.rules import perft
from service.engine.search import proof_run

LATER = (
    "multiprocessing",
    "service.engine.play.strength",
    "service.engine.rules.perft",
    "service.engine.books.build",
    "service.engine.books.check",
    "service.engine.search.proof_run",
    "service.engine.books.connect4",
)


def test_the_app_does_not_import_the_command_lines_parts() -> None:
    probe = "import sys, service.app; service.app.create_app(); print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "service.engine.analyst" in loaded.split()  # the probe saw the app's imports
    assert [name for name in LATER if name in loaded.split()] == []


def test_the_names_imported_on_first_use_are_the_modules_own() -> None:
    assert engine.ProofProgress is proof_run.Progress and engine.ProofRun is proof_run.ProofRun
    assert engine.count_games is perft.count_games and engine.measure_strength is strength.measure_strength
    assert engine.build_book is book.build_book and engine.verify_entries is book_check.verify_entries
    assert [name for name in engine.__all__ if not hasattr(engine, name)] == []
    with pytest.raises(AttributeError, match="no_such_name"):
        engine.no_such_name  # type: ignore[attr-defined]  # noqa: B018
