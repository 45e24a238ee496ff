"""Per-client rate limits (service/http/rate_limits.py): the published fields, the 429 past them, the
costs (a search more than a lookup, a batch per position), one client's count apart from another's,
and a store that fails or is shared.

The suite turns the shipped limits off (tests/conftest.py); every app here sets its own.
"""

from __future__ import annotations

import math
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import create_app
from service.http.rate_limits import DEFAULT_LIMITS, POLICY_HEADER, STATE_HEADER
from service.http.request_cost import SEARCH_UNITS_PER_SECOND
from service.http.window_counts import WindowCounts
from tests.conftest import SHIPPED_RATE_LIMITS

QUOTA = 40
DOCS = Path(__file__).resolve().parents[2] / "docs" / "pages" / "api.md"
STATE = re.compile(r'^"minute";r=(\d+);t=(\d+)$')


def limited_app(tables: str, quota: int = QUOTA, **settings: Any) -> Flask:
    limits = f"{quota} per minute"
    return create_app(
        {"TESTING": True, "ACCESS_LOG": False, "TABLES_DIR": tables, "RATE_LIMITS": limits, **settings}
    )


@pytest.fixture
def app(store: Any) -> Flask:  # a fresh count for each test
    return limited_app(str(store.directory))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def remaining(response: TestResponse) -> int:
    match = STATE.match(response.headers[STATE_HEADER])
    assert match, response.headers[STATE_HEADER]
    return int(match.group(1))


def lookups(client: FlaskClient) -> Iterator[TestResponse]:
    """Table answers of every kind, round and round: the edge's repeated /analyze among them."""
    while True:
        yield client.get("/analyze?board=X...O....")
        yield client.post("/analyze", json={"board": "X...O....", "variant": "normal"})
        yield client.get("/variants/4x4k3")
        yield client.get("/policies")


def test_the_shipped_default_is_on_and_is_the_published_one() -> None:
    assert SHIPPED_RATE_LIMITS == DEFAULT_LIMITS == "1200 per minute"
    text = DOCS.read_text()
    assert "1,200 units a minute" in text
    assert f"{SEARCH_UNITS_PER_SECOND} units for each second" in text
    shipped = create_app({"TESTING": True, "RATE_LIMITS": SHIPPED_RATE_LIMITS, "ACCESS_LOG": False})
    answer = shipped.test_client().get("/policies")
    assert answer.headers[POLICY_HEADER] == '"minute";q=1200;w=60'


def test_a_client_within_its_quota_is_never_refused_and_sees_it_count_down(client: FlaskClient) -> None:
    answers = lookups(client)
    left = [remaining(next(answers)) for _ in range(QUOTA)]
    assert left == list(range(QUOTA - 1, -1, -1))  # each lookup 1 unit, the last one let in too


def test_past_its_quota_a_client_gets_a_problem_with_retry_after(client: FlaskClient) -> None:
    answers = lookups(client)
    assert all(next(answers).status_code == 200 for _ in range(QUOTA))
    for _ in range(4):  # every kind of request, the edge's repeated answers among them
        refused = next(answers)
        assert refused.status_code == 429
        assert refused.content_type == "application/problem+json"
        body = refused.get_json()
        assert {k: body[k] for k in ("type", "title", "status")} == {
            "type": "urn:sanmoku:problem:rate-limited",
            "title": "Too Many Requests",
            "status": 429,
        }
        assert "40 units per minute" in body["detail"]
        wait = int(refused.headers["Retry-After"])
        assert 1 <= wait <= 60 and body["retry_after"] == wait
        assert refused.headers["Cache-Control"] == "no-store"
        assert remaining(refused) == 0
        assert refused.headers[POLICY_HEADER] == '"minute";q=40;w=60'


def test_a_search_costs_more_than_a_lookup_and_a_batch_each_position(client: FlaskClient) -> None:
    left = remaining(client.post("/analyze", json={"board": "X...O...."}))
    looked_up = client.post("/analyze", json={"board": "X...O....", "mainline": True})
    assert looked_up.get_json()["source"] == "table"
    assert left - remaining(looked_up) == 1
    left = remaining(looked_up)

    searched = client.post("/analyze", json={"board": "X...O....", "source": "search", "budget_ms": 200})
    assert searched.status_code == 200 and searched.get_json()["source"] == "search"
    cost = left - remaining(searched)
    most = 1 + math.ceil(SEARCH_UNITS_PER_SECOND * 0.2) + 1  # the budget, and a rounding's margin
    assert 2 <= cost <= most
    left = remaining(searched)

    boards = ["X...O....", "XO.......", "....X....", "X.......O", "XO..X...."]
    batch = client.post("/analyze/batch", json={"positions": [{"board": b} for b in boards]})
    assert batch.status_code == 200 and len(batch.get_json()["results"]) == 5
    assert left - remaining(batch) == 5


def test_another_client_keeps_its_own_count(client: FlaskClient) -> None:
    answers = lookups(client)
    assert [next(answers).status_code for _ in range(QUOTA + 1)][-1] == 429
    other = client.get("/analyze?board=X...O....", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 200 and remaining(other) == QUOTA - 1
    assert client.get("/analyze?board=X...O....").status_code == 429


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_client(store: Any) -> None:
    def ask(app: Flask, forwarded: str) -> TestResponse:
        return app.test_client().get("/policies", headers={"X-Forwarded-For": forwarded})

    behind = limited_app(str(store.directory), quota=3, TRUSTED_PROXIES=1)
    assert [ask(behind, "198.51.100.1").status_code for _ in range(4)] == [200, 200, 200, 429]
    assert ask(behind, "198.51.100.2").status_code == 200  # another client behind the same proxy
    # The nearest proxy's entry counts, not what the client wrote before it
    assert ask(behind, "203.0.113.9, 198.51.100.1").status_code == 429

    exposed = limited_app(str(store.directory), quota=3)  # trusting nothing: a client cannot pick its key
    assert [ask(exposed, f"198.51.100.{i}").status_code for i in range(4)] == [200, 200, 200, 429]


def test_the_probes_the_page_and_the_contract_are_not_limited(store: Any) -> None:
    client = limited_app(str(store.directory), quota=1).test_client()
    for _ in range(3):
        for path in ("/healthz", "/readyz", "/openapi.yaml", "/"):
            answer = client.get(path)
            assert answer.status_code == 200 and STATE_HEADER not in answer.headers, path
        assert client.options("/analyze").status_code == 200  # a preflight costs nothing


def test_off_means_no_limit_and_no_fields(store: Any) -> None:
    for off in ("off", "", False, None):
        config = {"TESTING": True, "TABLES_DIR": str(store.directory), "RATE_LIMITS": off}
        client = create_app(config).test_client()
        answers = [client.get("/analyze?board=X...O....") for _ in range(3)]
        assert [a.status_code for a in answers] == [200] * 3
        assert not any(POLICY_HEADER in a.headers or STATE_HEADER in a.headers for a in answers)


@pytest.mark.parametrize("setting", ["12 per fortnight", "many", 7])
def test_a_setting_that_is_no_limit_stops_the_start(store: Any, setting: object) -> None:
    with pytest.raises(ValueError):
        create_app({"TESTING": True, "TABLES_DIR": str(store.directory), "RATE_LIMITS": setting})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_a_store_that_cannot_be_reached_never_fails_an_answer(store: Any) -> None:
    """Nothing listens at the URL: the counts go on in memory, every answer within the quota is 200 with
    its fields, and the quota still holds."""
    dead = f"redis://127.0.0.1:{free_port()}/0"
    client = limited_app(str(store.directory), quota=6, STORE_URL=dead).test_client()
    started = time.monotonic()
    answers = lookups(client)
    first = [next(answers) for _ in range(6)]
    assert [a.status_code for a in first] == [200] * 6
    assert [remaining(a) for a in first][1:] == [4, 3, 2, 1, 0]  # the first's count may be the store's try
    assert next(answers).status_code == 429
    assert time.monotonic() - started < 5


def test_hosts_that_share_a_store_share_each_clients_count(store: Any, tmp_path: Path) -> None:
    from tests.redis_server import redis_server

    with redis_server(tmp_path / "redis") as server:
        apps = [limited_app(str(store.directory), quota=6, STORE_URL=server.url) for _ in range(2)]
        hosts = [app.test_client() for app in apps]
        left = [remaining(hosts[i % 2].get("/policies")) for i in range(6)]
        assert left == [5, 4, 3, 2, 1, 0]  # one count, whichever host answers
        assert hosts[0].get("/analyze?board=X...O....").status_code == 429
        elsewhere = {"REMOTE_ADDR": "192.0.2.7"}
        assert hosts[1].get("/analyze?board=X...O....", environ_base=elsewhere).status_code == 200
        server.kill()  # the store goes away: answers go on, counted in memory
        answer = hosts[1].get("/policies", environ_base={"REMOTE_ADDR": "192.0.2.8"})
        assert answer.status_code == 200 and remaining(answer) == 5


def test_a_window_over_is_a_fresh_quota_and_its_count_is_dropped(store: Any) -> None:
    app = create_app(
        {
            "TESTING": True,
            "ACCESS_LOG": False,
            "TABLES_DIR": str(store.directory),
            "RATE_LIMITS": "3 per second",
        }
    )
    client = app.test_client()
    assert [client.get("/policies").status_code for _ in range(4)] == [200, 200, 200, 429]
    counts = app.extensions["limiter"].copy().pop().storage
    assert isinstance(counts, WindowCounts) and len(counts) == 1
    time.sleep(1.05)
    assert client.get("/policies", environ_base={"REMOTE_ADDR": "192.0.2.9"}).status_code == 200
    assert len(counts) == 1  # the first client's window ended: its count went with the next one made
    assert client.get("/policies").status_code == 200


def test_a_store_that_accepts_and_never_answers_costs_one_request_its_timeout(store: Any) -> None:
    """A Redis that hangs (here, a socket that takes connections and says nothing) holds the first request
    for the store's timeout (0.25 s a call), then the counts go on in memory."""
    silent = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    taking = threading.Thread(target=lambda: held.extend(silent.accept()[0] for _ in range(4)), daemon=True)
    taking.start()
    try:
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        client = limited_app(str(store.directory), quota=6, STORE_URL=url).test_client()
        answers, seconds = lookups(client), []
        for _ in range(4):
            started = time.monotonic()
            answer = next(answers)
            seconds.append(time.monotonic() - started)
            assert answer.status_code == 200 and remaining(answer) < 6
        assert 0.2 < seconds[0] < 2 and max(seconds[1:]) < 0.2, seconds
    finally:
        silent.close()
        for connection in held:
            connection.close()
