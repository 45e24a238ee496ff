"""Two gunicorn instances (gevent workers) counting each client's quota in one real redis-server
(SANMOKU_STORE_URL), on loopback: one count, whichever host answers; the Redis killed, they answer on
(counting in memory), never a 500."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_server import RedisServer, redis_server
from tests.serving import harness
from tests.serving.harness import Server

QUOTA = 8
STATE = re.compile(r'^"minute";r=(\d+);t=(\d+)$')


def ask(server: Server, path: str = "/variants/4x4k3") -> tuple[int, str | None]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=10) as response:
            return response.status, response.headers["RateLimit"]
    except urllib.error.HTTPError as error:
        return error.code, error.headers["RateLimit"]


def left(state: str | None) -> int:
    match = STATE.match(state or "")
    assert match, state
    return int(match.group(1))


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RedisServer, list[Server]]]:
    workdir: Path = tmp_path_factory.mktemp("shared-limits")
    with redis_server(workdir / "redis") as store:
        settings = {"SANMOKU_STORE_URL": store.url, "SANMOKU_RATE_LIMITS": f"{QUOTA} per minute"}
        hosts = [harness.start_gunicorn(workdir, workers=1, settings=settings) for _ in range(2)]
        try:
            for host in hosts:
                harness.wait_ready(host)
            yield store, hosts
        finally:
            for host in hosts:
                host.kill()


@pytest.mark.slow
def test_hosts_count_each_client_once_and_answer_on_without_their_store(
    stack: tuple[RedisServer, list[Server]],
) -> None:
    store, hosts = stack
    answers = [ask(hosts[i % 2]) for i in range(QUOTA)]
    assert [status for status, _ in answers] == [200] * QUOTA
    assert [left(state) for _, state in answers] == list(range(QUOTA - 1, -1, -1))
    assert [ask(host)[0] for host in hosts] == [429, 429]

    store.kill()
    after = [ask(host) for host in hosts for _ in range(2)]
    assert [status for status, _ in after] == [200] * 4  # each host's memory counts meanwhile
    assert all(left(state) < QUOTA for _, state in after)
