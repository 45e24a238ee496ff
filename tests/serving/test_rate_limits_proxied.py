"""The per-client rate limits behind deploy/nginx.conf, on loopback, as docker-compose.yml runs them
(SANMOKU_TRUSTED_PROXIES=1): the client is the address nginx saw, whatever X-Forwarded-For it wrote; an
answer replayed from nginx's cache carries no client's count; past the quota, the app's 429 comes
through with its fields readable by a page of another origin."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.serving import harness
from tests.serving.harness import HOST, Server

QUOTA = 12
SETTINGS = {"SANMOKU_RATE_LIMITS": f"{QUOTA} per minute", "SANMOKU_TRUSTED_PROXIES": "1"}
STATE = re.compile(r'^"minute";r=(\d+);t=(\d+)$')


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def ask(
    port: int, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> Answer:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request(method, path, body=body or None, headers=headers or {})
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        connection.close()


def left(answer: Answer) -> int:
    match = STATE.match(answer.headers["RateLimit"] or "")
    assert match, answer.headers
    return int(match.group(1))


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    harness.require_nginx()
    workdir = tmp_path_factory.mktemp("rate-limits")
    origin = harness.start_gunicorn(workdir, workers=1, settings=SETTINGS)  # one worker: one count in memory
    try:
        harness.wait_ready(origin)
        with harness.nginx([origin.port]) as proxy:
            yield origin, proxy
    finally:
        origin.kill()


@pytest.mark.slow
def test_behind_nginx_a_client_is_counted_once_and_refused_past_its_quota(
    stack: tuple[Server, Server],
) -> None:
    origin, proxy = stack
    policy = f'"minute";q={QUOTA};w=60'
    fresh = ask(proxy.port, "GET", "/analyze?board=X...O....")
    assert (fresh.status, fresh.headers["X-Cache-Status"]) == (200, "MISS")
    assert fresh.headers["RateLimit-Policy"] == policy and left(fresh) == QUOTA - 1

    kept = ask(proxy.port, "GET", "/analyze?board=X...O....")  # from the cache: nobody's count, no cost
    assert (kept.status, kept.headers["X-Cache-Status"]) == (200, "HIT")
    assert kept.headers["RateLimit-Policy"] == policy and kept.headers["RateLimit"] is None

    # What the client writes in X-Forwarded-For is not its address: nginx appends the one it saw
    spoofed = ask(proxy.port, "GET", "/variants/4x4k3", {"X-Forwarded-For": "203.0.113.5"})
    assert spoofed.status == 200 and left(spoofed) == QUOTA - 2

    body = json.dumps({"board": "X...O...."}).encode()
    post = {"Content-Type": "application/json", "Origin": "https://elsewhere.example"}
    answers = [ask(proxy.port, "POST", "/analyze", post, body) for _ in range(QUOTA - 1)]
    assert [a.status for a in answers] == [200] * (QUOTA - 2) + [429]
    refused = answers[-1]
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert json.loads(refused.body)["type"] == "urn:sanmoku:problem:rate-limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60 and left(refused) == 0
    exposed = {name.strip() for name in refused.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"RateLimit", "RateLimit-Policy", "Retry-After"} <= exposed

    # Straight to the backend, trusting one proxy that is not there: the client would pick its address.
    # That is why the setting is 0 unless a proxy fronts the service.
    direct = ask(origin.port, "GET", "/variants/4x4k3", {"X-Forwarded-For": "203.0.113.5"})
    assert direct.status == 200 and left(direct) == QUOTA - 1
