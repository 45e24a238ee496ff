"""Two hosts sharing one store of proven positions, as docker-compose.yml runs them, with the same
programs on loopback: a real redis-server, two gunicorn instances of the service with tables
directories of their own (SANMOKU_STORE_URL names the same database), and deploy/nginx.conf in front.

A position proven by one host is answered by the other from the store (`source: cache`), within 5 ms
at the median on a quiet machine. The store killed (SIGKILL) and started again in the middle of a load
through nginx costs no answer: every one is a 200 with the values the first answers had (the search
answers meanwhile), and the answers come from the store again soon after it is back.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.redis_server import RedisServer, redis_server
from tests.serving import harness

VARIANT = "5x5k4"  # no table, past its book: the search proves these in tens of milliseconds
BOARDS = [
    ".OX.O..O.........XXX.....",
    ".X.....X...........O.OXO.",
    ".OO...O.X...X.X....O.X...",
    "...O..O...O......X..XX...",
    ".OO.....O.........XX..XXO",
    "..O.X....OO....XX.....OX.",
    "..........OX.O...OXO...XX",
    "....X.X..OO.....XO.......",
]
BUDGET_MS = 2_000  # each request adds a few (below 10,000): a key of its own, no rendered answer sent again
KEYS = 7_000
ROUNDS = 12
# The goal for an answer from the store on loopback, HTTP included: 5 ms at the median. On a machine
# that other work slows, the yardstick is the same host's answer from a 3x3 table beside it: a 5x5
# answer from the store took 1.8 to 2.7 times as long as one (at load averages of 12 to 17, 2 cores).
STORE_GOAL, TABLE_RATIO = 0.005, 4.0
TABLE_BOARD, TABLE_VARIANT = "X...O....", "normal"
THREADS = 3
UP, DOWN = 0.6, 1.2  # seconds of load before the kill, and with the store down
BACK = 5.0  # the most seconds after the restart until the store answers again (its breaker: 1 s)


@dataclass
class Hosts:
    store: RedisServer
    backends: list[harness.Server]
    proxy: harness.Server


@pytest.fixture(scope="module")
def hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hosts]:
    harness.require_nginx()
    workdir = tmp_path_factory.mktemp("shared-store")
    with redis_server(workdir / "redis") as store:
        backends: list[harness.Server] = []
        try:
            for name in ("a", "b"):
                settings = {
                    "SANMOKU_TABLES_DIR": str(workdir / name),
                    "SANMOKU_TABLES_AT_START": "[]",
                    "SANMOKU_STORE_URL": store.url,
                }
                backends.append(harness.start_gunicorn(workdir, workers=1, settings=settings))
            for backend in backends:
                harness.wait_ready(backend)
            with harness.nginx([b.port for b in backends]) as proxy:
                yield Hosts(store, backends, proxy)
        finally:
            for backend in backends:
                backend.kill()


def analyze(url: str, board: str, extra_ms: int, variant: str = VARIANT) -> tuple[int, dict[str, Any]]:
    payload = {"board": board, "variant": variant, "budget_ms": BUDGET_MS + extra_ms % KEYS}
    request = urllib.request.Request(
        url + "/analyze", json.dumps(payload).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {"detail": error.read().decode(errors="replace")}


def values(answer: dict[str, Any]) -> tuple[object, ...]:
    return answer["result"], answer["remoteness"], answer["moves"]


@pytest.fixture(scope="module")
def first(hosts: Hosts) -> dict[str, tuple[object, ...]]:
    """Each board proven by the first host: the values every later answer must have."""
    proven = {}
    for board in BOARDS:
        status, answer = analyze(hosts.backends[0].url, board, 0)
        assert status == 200 and answer["source"] == "search" and answer["exact"], answer
        proven[board] = values(answer)
    return proven


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_a_position_proven_by_one_host_is_answered_by_the_other_from_the_store(
    hosts: Hosts, first: dict[str, tuple[object, ...]]
) -> None:
    other = hosts.backends[1].url
    analyze(other, TABLE_BOARD, 0, TABLE_VARIANT)  # its table, solved in memory at the first request
    from_store, from_table = [], []
    for i in range(ROUNDS * len(BOARDS)):  # interleaved with answers that read no store: a yardstick
        board = BOARDS[i % len(BOARDS)]
        started = time.perf_counter()
        status, answer = analyze(other, board, 1 + i)
        from_store.append(time.perf_counter() - started)
        assert status == 200 and answer["source"] == "cache" and answer["search"] is None, answer
        assert values(answer) == first[board]
        started = time.perf_counter()
        status, answer = analyze(other, TABLE_BOARD, 1 + i, TABLE_VARIANT)
        from_table.append(time.perf_counter() - started)
        assert status == 200 and answer["source"] == "table"
    store, table = (statistics.median(times[len(BOARDS) :]) for times in (from_store, from_table))
    print(
        f"medians on the other host: from the store {store * 1000:.2f} ms, from a table {table * 1000:.2f} ms"
    )
    assert store < max(STORE_GOAL, TABLE_RATIO * table), (store, table)


@dataclass(frozen=True)
class Answered:
    at: float
    status: int
    source: str
    right: bool  # the values of the first answer


def load(
    hosts: Hosts, first: dict[str, tuple[object, ...]], stop: threading.Event, offset: int
) -> list[Answered]:
    answered = []
    i = 0
    while not stop.is_set():
        board = BOARDS[i % len(BOARDS)]
        status, answer = analyze(hosts.proxy.url, board, offset + i)
        right = status == 200 and values(answer) == first[board]
        answered.append(Answered(time.monotonic(), status, str(answer.get("source")), right))
        i += THREADS
    return answered


@pytest.mark.slow
def test_the_store_killed_and_started_again_under_load_costs_no_answer(
    hosts: Hosts, first: dict[str, tuple[object, ...]]
) -> None:
    stop = threading.Event()
    results: list[list[Answered]] = [[] for _ in range(THREADS)]

    def client(n: int) -> None:
        results[n] = load(hosts, first, stop, 1000 + n)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(UP)
        killed = time.monotonic()
        hosts.store.kill()
        time.sleep(DOWN)
        hosts.store.start()  # the same port and folder: its append-only file holds every proof
        restarted = time.monotonic()
        deadline = restarted + BACK
        while time.monotonic() < deadline and not _back(results, restarted):
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    answered = sorted((a for per in results for a in per), key=lambda a: a.at)
    assert [a for a in answered if a.status != 200] == []
    assert [a for a in answered if not a.right] == []
    before = [a.source for a in answered if a.at < killed]
    down = [a.source for a in answered if killed + 0.1 < a.at < restarted]
    assert before and set(before) == {"cache"}, before
    assert "search" in down, down  # the store was gone: the hosts searched
    assert _back(results, restarted), [(round(a.at - restarted, 2), a.source) for a in answered[-20:]]
    again = next(a.at for a in answered if a.at > restarted and a.source == "cache")
    print(
        f"{len(answered)} answers, {down.count('search')} searched while the store was down; "
        f"from the store again {again - restarted:.2f} s after its restart"
    )


def _back(results: list[list[Answered]], restarted: float) -> bool:
    """Whether the answers come from the store again: 2 × THREADS in a row after the restart (through
    nginx, which spreads them over both hosts). On a loaded machine a read may still pass its 50 ms now
    and then: a miss, as meant, and the search answers."""
    after = sorted((a for per in results for a in list(per) if a.at > restarted), key=lambda a: a.at)
    run = 0
    for answer in after:
        run = run + 1 if answer.source == "cache" else 0
        if run >= 2 * THREADS:
            return True
    return False
