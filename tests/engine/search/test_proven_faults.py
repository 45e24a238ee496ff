"""The cache of proven positions under faults: a file it cannot use (damaged, truncated,
foreign, of an older format, a full disk) or a busy one never fails an answer; a record damaged on disk
is dropped and searched again, never served; the write-ahead log is cut back and counted in the bound."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import time
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.engine import Analyst, Position, SearcherPool, TableStore, get_variant
from service.engine.answer import Source
from service.engine.rules.known_move import KnownMove
from service.engine.search import Budget
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_schema import JOURNAL_LIMIT_BYTES
from tests.engine.search.records import ALPHA_BETA
from tests.mounts import python_on_small_disk

V = get_variant("4x4k4")
# A position of 4x4k4 whose value the table gives: a draw in 14 (the flip below made it a win)
DRAW = Position.empty(V).play(5).play(10)
NO_TABLE = "X...O...................."  # 5x5k4-misere: no table, no book: the search answers


def filled(directory: Path, count: int = 50) -> ProvenCache:
    store = ProvenCache(directory)
    position = Position.empty(V)
    for cell in position.legal_moves()[:count]:
        store.put(
            position.play(cell),
            [KnownMove(c, 0, 0, 9) for c in position.play(cell).legal_moves()],
            ALPHA_BETA,
        )
    return store


def client_on(directory: Path) -> FlaskClient:
    config = {"TESTING": True, "ACCESS_LOG": False, "TABLES_DIR": str(directory), "TABLES_AT_START": []}
    return create_app(config).test_client()


def answers_without_the_store(directory: Path, state: str) -> dict[str, object]:
    """A search answer (200) from an app on `directory`, and its /readyz, which says the store's state."""
    client = client_on(directory)
    answer = client.post("/analyze", json={"board": NO_TABLE, "variant": "5x5k4-misere", "budget_ms": 200})
    assert answer.status_code == 200 and answer.get_json()["source"] == "search", answer.get_json()
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "degraded" and ready["cache"]["state"] == state, ready
    assert ready["proven_store"] == ready["cache"]  # the first name, for clients of API v1
    assert str(directory) not in str(ready)
    proven = ready["cache"]
    assert isinstance(proven, dict)
    return proven


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def damaged_header(path: Path) -> None:
    with path.open("r+b") as file:
        file.write(b"not a database, not any more")


def truncated(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 3)


def foreign(path: Path) -> None:
    path.unlink()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        db.execute("INSERT INTO invoices VALUES (1, 9.5)")


@pytest.mark.slow
@pytest.mark.parametrize("spoil", [damaged_header, truncated, foreign])
def test_a_file_it_cannot_use_leaves_the_answers_to_the_search(
    tmp_path: Path, spoil: object, caplog: pytest.LogCaptureFixture
) -> None:
    store = filled(tmp_path, count=16)
    store.close()
    path = tmp_path / "proven.sqlite"
    for leftover in tmp_path.glob("proven.sqlite-*"):  # the log, checkpointed already by the close
        leftover.unlink()
    assert callable(spoil)
    spoil(path)
    before = digest(path)
    proven = answers_without_the_store(tmp_path, "unusable")
    assert proven["problem"]
    again = ProvenCache(tmp_path)
    assert again.get(Position.empty(V).play(0)) is None  # a miss, not an error
    again.put(Position.empty(V).play(0), [KnownMove(1, 0, 0, 3)], ALPHA_BETA)
    assert again.health.state == "unusable"
    assert digest(path) == before  # never rewritten: an operator may want it
    said = [r for r in caplog.records if "cache of proven positions" in r.getMessage()]
    assert 1 <= len(said) <= 2  # one line per store object that found it (the app's, this test's)


@pytest.mark.slow
def test_a_record_damaged_on_disk_is_dropped_and_searched_again(tmp_path: Path, store: TableStore) -> None:
    proven = ProvenCache(tmp_path)
    analyst = Analyst(lambda v: None, proven, SearcherPool(1))
    first = analyst.analyze(DRAW, Budget(10.0))
    assert first.source is Source.SEARCH and first.exact
    truth = {m.cell: m.value for m in store.get(V).lookup(DRAW).moves}
    assert {m.cell: m.value for m in first.moves} == truth
    assert analyst.analyze(DRAW, Budget(10.0)).source is Source.CACHE
    with sqlite3.connect(tmp_path / "proven.sqlite") as db:  # two bytes of the first move: a win in 1
        blob = bytearray(db.execute("SELECT moves FROM proven").fetchone()[0])
        blob[1:3] = bytes((2, 2))
        db.execute("UPDATE proven SET moves = ?", (bytes(blob),))
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"  # SQLite sees nothing wrong
    again = analyst.analyze(DRAW, Budget(10.0))
    assert again.source is Source.SEARCH and {m.cell: m.value for m in again.moves} == truth
    assert analyst.analyze(DRAW, Budget(10.0)).source is Source.CACHE  # stored afresh


def test_records_of_the_format_before_checksums_are_dropped(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "proven.sqlite") as db:  # as the store wrote them before
        db.execute(
            "CREATE TABLE proven (variant TEXT NOT NULL, mover INTEGER NOT NULL, other INTEGER NOT NULL,"
            " moves BLOB NOT NULL, exact INTEGER NOT NULL, origin TEXT NOT NULL, stored REAL NOT NULL,"
            " PRIMARY KEY (variant, mover, other)) WITHOUT ROWID"
        )
        db.execute(
            "INSERT INTO proven VALUES ('4x4k4', 0, 0, ?, 1, 'search', 0)", (bytes((0, 2, 2, 1)) * 16,)
        )
    store = ProvenCache(tmp_path)
    assert store.get(Position.empty(V)) is None and store.health.state == "ok"
    assert store.stats().records == 0


def test_a_busy_store_is_a_miss(tmp_path: Path) -> None:
    store = filled(tmp_path)
    known = Position.empty(V).play(0)
    assert store.get(known) is not None
    holder = sqlite3.connect(tmp_path / "proven.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing for seconds
    unwritten = Position.empty(V).play(3).play(4)
    try:
        started = time.perf_counter()
        assert store.get(known) is not None  # readers of a WAL file never wait for the writer
        store.put(
            unwritten, [KnownMove(0, 0, 0, 11)], ALPHA_BETA
        )  # not written: it waited 50 ms, then gave up
        answer = Analyst(lambda v: None, store, SearcherPool(1)).analyze(known.play(5), Budget(0.2))
        assert answer.source is Source.SEARCH
        assert time.perf_counter() - started < 2.0  # 50 ms per wait, not 5 s
    finally:
        holder.rollback()
        holder.close()
    assert store.get(unwritten) is None and store.health.state == "ok"


def test_a_store_busy_when_first_opened_is_a_miss_not_unusable(tmp_path: Path) -> None:
    """Another process holding the file's lock while this one opens it (under load, servers start side
    by side): a miss now, the store in use at the next call; not 30 s of "unusable" (/readyz degraded)."""
    holder = sqlite3.connect(tmp_path / "proven.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # a fresh file in rollback mode: even a reader must wait
    store = ProvenCache(tmp_path)
    known = Position.empty(V).play(0)
    try:
        assert store.get(known) is None and store.open().state == "ok"
    finally:
        holder.rollback()
        holder.close()
    store.put(known, [KnownMove(c, 0, 0, 9) for c in known.legal_moves()], ALPHA_BETA)
    assert store.get(known) is not None and store.health.state == "ok"


def test_the_write_ahead_log_is_cut_back_and_counted(tmp_path: Path) -> None:
    store = filled(tmp_path, count=1)
    reader = sqlite3.connect(tmp_path / "proven.sqlite", isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM proven").fetchone()  # a snapshot: no checkpoint may reset the log
    position = Position.empty(get_variant("5x5k4"))
    for first in range(25):
        for second in range(25):
            if first != second:
                child = position.play(first).play(second)
                store.put(child, [KnownMove(c, 0, 0, 21) for c in child.legal_moves()], ALPHA_BETA)
    wal = store.stats().wal_bytes
    assert wal > JOURNAL_LIMIT_BYTES / 4 and store.stats().bytes > wal  # counted in the bound
    reader.rollback()
    reader.close()
    store.trim()
    assert store.stats().wal_bytes == 0


FULL_DISK = """
import json, os, sys
from pathlib import Path
from service.app import create_app
from service.engine import Position, get_variant
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_record import SEARCH, Origin
from service.engine.search.proof_number import Prover
from service.engine.rules.known_move import KnownMove
ALPHA_BETA = Origin.of(SEARCH, [Prover.ALPHA_BETA])
directory = Path(sys.argv[1])
store = ProvenCache(directory)
known = Position.empty(get_variant("4x4k4")).play(0)
store.put(known, [KnownMove(c, 0, 0, 9) for c in known.legal_moves()], ALPHA_BETA)
with open(directory / "filler", "wb", buffering=0) as filler:  # the disk to its last byte
    try:
        while True:
            filler.write(b"\\0" * 4096)
    except OSError:
        pass
for cell in range(1, 16):  # each a write the disk has no room for
    child = Position.empty(get_variant("4x4k4")).play(cell)
    store.put(child, [KnownMove(c, 0, 0, 9) for c in child.legal_moves()], ALPHA_BETA)
config = {"TESTING": True, "ACCESS_LOG": False, "TABLES_DIR": str(directory), "TABLES_AT_START": []}
client = create_app(config).test_client()
asked = {"board": "XO.X./.OX../O..../...../.....", "variant": "5x5k4", "budget_ms": 3000}  # proven: kept
answer = client.post("/analyze", json=asked)
health, kept, ready = store.health, store.get(known) is not None, client.get("/readyz").get_json()
print(json.dumps({"health": health.state, "problem": health.problem, "kept": kept,
                  "status": answer.status_code, "ready": ready}))
"""


@pytest.mark.slow
def test_a_full_disk_pauses_the_writes_and_keeps_the_reads(tmp_path: Path) -> None:
    """On a 2 MB tmpfs of its own (a mount namespace), filled to its last byte."""
    found = python_on_small_disk(tmp_path / "small", FULL_DISK)
    assert found["health"] == "read-only" and "full" in found["problem"], found
    assert found["kept"] and found["status"] == 200, found
    assert found["ready"]["cache"]["state"] == "read-only", found["ready"]
