"""The store of proven positions in a Redis database that many hosts share, on a real redis-server:
one store's proof is another's, a record that fails its checksum is a miss (and removed), and a store
that does not answer is a miss within the timeout, then skipped at once while its breaker is open."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient

from service.app import create_app
from service.engine import Position, get_variant
from service.engine.rules.canonical import canonical
from service.engine.rules.known_move import KnownMove
from service.engine.search.proof_number import Prover
from service.engine.search.proven import key_of
from service.engine.search.proven_file import OK, UNUSABLE
from service.engine.search.proven_record import SEARCH, Origin
from service.engine.search.proven_redis import SharedProvenStore, name_of
from service.engine.search.proven_store import open_proven_store
from service.engine.search.store_breaker import Breaker
from tests.engine.search.records import ALPHA_BETA
from tests.redis_server import HOST, RedisServer, free_port, redis_server

V = get_variant("5x5k4")
# X to move; cell 4 mirrors to cell 0 left to right, so the mirrored position's record is the same one
POSITION = Position.empty(V).play(4).play(12)
MIRRORED = Position.empty(V).play(0).play(12)
MOVES = [KnownMove(c, -1 if c % 2 else 0, 0, None if c % 2 else 9) for c in POSITION.legal_moves()]
TIMEOUT = 0.05


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with redis_server(tmp_path_factory.mktemp("redis")) as running:
        yield running


@pytest.fixture
def raw(server: RedisServer) -> Iterator[redis.Redis]:
    """A plain client of the same database, to look at and damage what the store wrote."""
    client = redis.Redis.from_url(server.url)
    client.flushdb()
    yield client
    client.close()


def by_cell(moves: tuple[KnownMove, ...]) -> dict[int, tuple[int, int, int | None]]:
    return {m.cell: (m.lower, m.upper, m.remoteness) for m in moves}


def test_one_stores_proof_is_read_by_another(server: RedisServer, raw: redis.Redis) -> None:
    writer, reader = SharedProvenStore(server.url), SharedProvenStore(server.url)
    assert reader.get(POSITION) is None
    writer.put(POSITION, MOVES, ALPHA_BETA)
    record = reader.get(POSITION)
    assert record is not None and by_cell(record.moves) == by_cell(tuple(MOVES))
    assert record.origin == ALPHA_BETA and not record.exact
    mirrored = reader.get(MIRRORED)  # one record for both, its cells turned back for each
    assert mirrored is not None and {m.cell for m in mirrored.moves} == set(MIRRORED.legal_moves())
    assert raw.dbsize() == 1 and writer.health == reader.health == SharedProvenStore(server.url).open()


def test_a_later_proof_keeps_the_tighter_bounds(server: RedisServer, raw: redis.Redis) -> None:
    first, second = SharedProvenStore(server.url), SharedProvenStore(server.url)
    first.put(POSITION, MOVES, ALPHA_BETA)
    odd = next(m.cell for m in MOVES if m.cell % 2)  # at most a draw, as the first proof says
    later = [KnownMove(m.cell, -1, -1, 5) if m.cell == odd else KnownMove(m.cell, -1, 1, None) for m in MOVES]
    second.put(POSITION, later, Origin.of(SEARCH, [Prover.PROOF_NUMBER]))
    record = first.get(POSITION)
    assert record is not None
    expected = by_cell(tuple(MOVES)) | {odd: (-1, -1, 5)}
    assert by_cell(record.moves) == expected
    assert record.origin.provers == frozenset({Prover.ALPHA_BETA, Prover.PROOF_NUMBER})


@pytest.mark.parametrize("where", ["exact flag", "origin", "a move", "checksum"])
def test_a_record_that_fails_its_checksum_is_a_miss_and_removed(
    server: RedisServer, raw: redis.Redis, where: str
) -> None:
    store = SharedProvenStore(server.url)
    store.put(POSITION, MOVES, ALPHA_BETA)
    name = name_of(key_of(V, _masks(POSITION)))
    stored = raw.get(name)
    assert isinstance(stored, bytes)
    value = bytearray(stored)
    at = {"exact flag": 0, "origin": 3, "a move": value[1] + 3, "checksum": len(value) - 1}[where]
    value[at] ^= 0x01
    raw.set(name, bytes(value))
    assert store.get(POSITION) is None
    assert raw.exists(name) == 0  # removed: the next search writes it afresh


def test_a_record_on_another_key_or_cut_short_is_a_miss(server: RedisServer, raw: redis.Redis) -> None:
    store = SharedProvenStore(server.url)
    store.put(POSITION, MOVES, ALPHA_BETA)
    value = raw.get(name_of(key_of(V, _masks(POSITION))))
    assert isinstance(value, bytes)
    other = Position.empty(V).play(6).play(12)
    raw.set(name_of(key_of(V, _masks(other))), value)
    assert store.get(other) is None
    for cut in (b"", value[:1], value[:5], value[:-1]):
        raw.set(name_of(key_of(V, _masks(POSITION))), cut)
        assert store.get(POSITION) is None


def test_a_record_of_another_version_is_a_miss_left_for_it(server: RedisServer, raw: redis.Redis) -> None:
    """Hosts of two versions share the store during a rolling update: what this one cannot read is the
    other's, not damage."""
    store = SharedProvenStore(server.url)
    newer = Origin(SEARCH, frozenset({Prover.ALPHA_BETA}), format=99)
    store.put(POSITION, MOVES, newer)
    assert store.get(POSITION) is None
    assert raw.exists(name_of(key_of(V, _masks(POSITION)))) == 1


def silent_listener() -> socket.socket:
    """A port whose connections are accepted by the kernel and never answered: a store that hangs."""
    listener = socket.socket()
    listener.bind((HOST, 0))
    listener.listen(64)
    return listener


def test_a_store_that_does_not_answer_is_a_miss_within_its_timeout() -> None:
    with silent_listener() as listener:
        store = SharedProvenStore(f"redis://{HOST}:{listener.getsockname()[1]}/0", timeout=TIMEOUT, pause=30)
        started = time.perf_counter()
        assert store.get(POSITION) is None
        first = time.perf_counter() - started
        assert TIMEOUT <= first < 4 * TIMEOUT, first  # a connection, then a reply it waits for in vain
        assert store.health.state == UNUSABLE and "TimeoutError" in str(store.health.problem)
        assert str(listener.getsockname()[1]) not in str(store.health.problem)  # public: no address
        started = time.perf_counter()
        for _ in range(100):  # the breaker is open: no wait (each would be 50 ms or more without it)
            assert store.get(POSITION) is None
            store.put(POSITION, MOVES, ALPHA_BETA)
        assert time.perf_counter() - started < 1.0  # 200 waits would be 10 s; a busy machine's slack


def test_a_refused_store_is_a_miss_and_is_used_again_once_it_answers(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis", port=free_port())  # nothing listens there yet
    store = SharedProvenStore(server.url, timeout=TIMEOUT, pause=0.2)
    started = time.perf_counter()
    store.put(POSITION, MOVES, ALPHA_BETA)
    assert store.get(POSITION) is None and time.perf_counter() - started < 4 * TIMEOUT  # refused at once
    assert store.open().state == UNUSABLE
    server.start()
    try:
        time.sleep(0.25)  # the breaker's pause
        assert store.open().state == OK
        store.put(POSITION, MOVES, ALPHA_BETA)
        assert store.get(POSITION) is not None
    finally:
        server.kill()


def test_the_breaker_lets_one_call_try_after_its_pause() -> None:
    now = [100.0]
    breaker = Breaker(1.0, clock=lambda: now[0])
    assert breaker.allows() and breaker.allows()  # closed
    breaker.failed()
    assert not breaker.allows() and breaker.is_open
    now[0] += 1.0
    assert breaker.allows()  # the one try
    assert not breaker.allows()  # the others skip while it runs
    breaker.failed()
    now[0] += 0.5
    assert not breaker.allows()
    now[0] += 0.5
    assert breaker.allows()
    breaker.succeeded()
    assert breaker.allows() and breaker.allows() and not breaker.is_open


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:6379/0", "rediss://127.0.0.1:6379/0", "redis:///0", "redis://h:6379/x"]
)
def test_a_url_it_cannot_use_fails_at_start(url: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="SANMOKU_STORE_URL"):
        open_proven_store(tmp_path, url)


def client(tables: Path, url: str) -> FlaskClient:
    config = {"TESTING": True, "ACCESS_LOG": False, "TABLES_DIR": str(tables), "TABLES_AT_START": []}
    return create_app({**config, "STORE_URL": url}).test_client()


def test_a_position_proven_by_one_app_is_answered_by_another_from_the_store(
    server: RedisServer, raw: redis.Redis, tmp_path: Path
) -> None:
    request = {"board": ".OX.O..O.........XXX.....", "variant": "5x5k4", "budget_ms": 10000}
    first = client(tmp_path / "a", server.url).post("/analyze", json=request).get_json()
    other = client(tmp_path / "b", server.url)
    again = other.post("/analyze", json=request).get_json()
    assert first["source"] == "search" and first["exact"]
    assert again["source"] == "cache" and again["search"] is None and again["moves"] == first["moves"]
    assert other.get("/readyz").get_json()["cache"] == {"state": "ok", "problem": None}
    assert not (tmp_path / "b" / "proven.sqlite").exists()  # the shared store instead of the file


def test_an_app_whose_store_is_down_answers_from_the_search(tmp_path: Path) -> None:
    app = client(tmp_path, f"redis://{HOST}:{free_port()}/0")
    request = {"board": ".OX.O..O.........XXX.....", "variant": "5x5k4", "budget_ms": 10000}
    answer = app.post("/analyze", json=request)
    body = answer.get_json()
    assert answer.status_code == 200 and body["source"] == "search" and body["exact"]
    ready = app.get("/readyz").get_json()
    assert ready["status"] == "degraded" and ready["cache"]["state"] == UNUSABLE, ready


def _masks(position: Position) -> tuple[int, int]:
    return canonical(position.variant, position.mine, position.theirs)[1]
