"""A worker's searches are readied once, after its start: the transposition tables of as many
search slots as it has (two a slot with two threads: the second thread's too), counting those its
searches made meanwhile, the cache of proven positions opened and the large opening books read."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from service.app import create_app
from service.engine import NORMAL, SearcherPool
from service.engine import analyst as analyst_module
from service.serving import sources


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The transposition tables made, by their size in bits (none of 32 MB is really made)."""
    sizes: list[int] = []

    def table(bits: int) -> object:
        sizes.append(bits)
        return object()

    monkeypatch.setattr(analyst_module, "TranspositionTable", table)
    monkeypatch.setattr(
        analyst_module, "Searcher", lambda variant, table, prover_threads, second_table: table
    )
    return sizes


@pytest.mark.parametrize("threads", [1, 2])
def test_warm_makes_what_the_searches_have_not_made(made: list[int], threads: int) -> None:
    pool = SearcherPool(3, table_bits=12, prover_threads=threads)
    with pool.searcher(NORMAL, wait=None), pool.searcher(NORMAL, wait=None):
        assert made == [12] * 2 * threads
        pool.warm()  # beside two searches: one slot more, not three
    assert made == [12] * 3 * threads
    pool.warm()
    with pool.searcher(NORMAL, wait=None), pool.searcher(NORMAL, wait=None), pool.searcher(NORMAL, wait=None):
        pass
    assert len(made) == 3 * threads


def test_a_worker_is_warmed_once_however_often_asked(made: list[int], tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "ACCESS_LOG": False, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": []}
    )
    warming = sources.Warming(app)
    assert made == []  # made, not started: a worker's start waits for nothing
    warming()
    warming()
    assert len(made) == app.config["SEARCH_SLOTS"] * app.config["PROVER_THREADS"]
    assert (tmp_path / "proven.sqlite").exists()


def test_an_app_without_sources_has_nothing_to_warm() -> None:
    # the benchmarks serve a bare Flask app with the service's gunicorn settings
    warming = sources.Warming(Flask("bare"))
    warming()
    warming.now()


def test_the_tables_wanted_at_start_are_queued_by_a_worker_not_by_the_master(
    made: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The master (the app's creation) queues nothing and starts no builder: a worker does, once it has
    answered (the look at every header and the builder's start held up the first answer)."""
    started: list[Path] = []
    monkeypatch.setattr("service.engine.tables.builder.start", lambda directory: started.append(directory))
    config = {"TESTING": True, "ACCESS_LOG": False, "TABLES_DIR": str(tmp_path)}
    app = create_app({**config, "TABLES_AT_START": "4x4k3,3x3k3"})
    assert not (tmp_path / "queue").exists() and started == []
    sources.Warming(app)()
    assert [p.stem for p in (tmp_path / "queue").glob("*.json")] == ["4x4k3"]  # 3x3 is solved on request
    assert started == [tmp_path]
