"""What a gevent worker's event loop and its search slots hold up under load, on real gunicorn servers:
the 3x3 probe (GET /analyze, a table's answer) beside clients of depth-limited moves and of game trees on
8x8 (pure Python for tenths of a second each: on the loop they held every other request, on the threads
they held the interpreter's lock), searches beside the trees, and a client load within the search slots
of two workers.

Latency is compared within one run of one server, as ratios: a probe's p99 beside the load against the
same probe's p99 alone, in rounds, the median round deciding (a shared 2-core machine has busy moments).
"""

from __future__ import annotations

import json
import statistics
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.serving import harness
from tests.serving.loads import Done, hammering
from tests.serving.slow_clients import probe

EMPTY_8X8 = "." * 64
PROBE = "/analyze?board=........."
MOVE = {"board": EMPTY_8X8, "variant": "8x8k5", "policy": "depth", "depth": 3, "budget_ms": 500}
TREE = f"/tree?board={EMPTY_8X8}&variant=8x8k5"  # 4,097 nodes, 976 KB of JSON
ROUNDS, ALONE_SECONDS, LOADED_SECONDS = 3, 1.5, 2.5
RATIO = 3.0  # the probe's p99 beside the load, at most this many times its p99 alone
# The depth moves' bound: the loop held by their reads made the ratio 230 (8 to 1,851 ms); in the full
# suite the other test process's browsers and builds put two of its three rounds at 5.7 to 6.6 while the
# third was 1.0, and the test passes alone: a tenfold bound still fails by far on the fault it guards.
MOVE_RATIO = 10.0
FLOOR = 0.005  # seconds: a p99 alone below it counts as this (scheduling noise on a shared machine)


def one_x(cell: int) -> str:
    return EMPTY_8X8[:cell] + "X" + EMPTY_8X8[cell + 1 :]


def settings(workdir: Path, **more: str) -> dict[str, str]:
    return {"SANMOKU_TABLES_DIR": str(workdir / "tables"), "SANMOKU_TABLES_AT_START": "[]", **more}


def post(url: str, body: object, timeout: float = 30) -> tuple[int, dict[str, Any], float]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, answer = response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        status, answer = error.code, json.loads(error.read())
    return status, answer, time.perf_counter() - started


def ready_with_lanes(server: harness.Server, timeout: float = 60) -> None:
    """Ready, answered once (its tree and move processes start then), and those processes ready."""
    harness.wait_ready(server)
    ends = time.monotonic() + timeout
    while not all(f"a {lane} process is ready" in server.stderr.read_text() for lane in ("tree", "move")):
        assert time.monotonic() < ends, "the tree and move processes never started"
        time.sleep(0.05)


def ratios(
    server: harness.Server, path: str, body: object | None, clients: int, workdir: Path
) -> list[float]:
    """Per round, the probe's p99 beside `clients` clients of `path` over its p99 alone just before;
    every load's answers are 200 or 503 (never a failure)."""
    found = []
    url = server.url + PROBE
    for _ in range(ROUNDS):
        alone = probe(url, ALONE_SECONDS)
        with hammering(server.url + path, body, clients, LOADED_SECONDS + 0.5, workdir) as load:
            loaded = probe(url, LOADED_SECONDS)
        assert loaded.failures == 0 and len(loaded.latencies) > 50, loaded.failures
        assert load and {d.status for d in load} <= {200, 503}, sorted({d.status for d in load})
        found.append(loaded.p99 / max(alone.p99, FLOOR))
    return found


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_depth_moves_on_8x8_do_not_hold_the_loop(tmp_path: Path) -> None:
    """Before, a depth-3 read on 8x8 ran on the worker's loop for 0.3 to 0.9 s a request: the probe's
    p99 went from 8 ms to 1,851 ms beside 8 such clients in the finding that reported it, from 0.7 to
    565 ms in tests/bench/event_loop_bench.py. The read is within the budget: depth 3 takes a quarter
    of a second on a quiet machine, depth 2 a few hundredths (both play the centre, 27). The answer's
    search runs to its deadline, so the request takes 0.46 s of the 0.5 on a quiet machine; a busy
    moment only adds time, so the quickest of three requests is held to the budget (in the full suite
    one took 0.61 s)."""
    server = harness.start_gunicorn(tmp_path, workers=1, settings=settings(tmp_path))
    try:
        ready_with_lanes(server)
        took = []
        for _ in range(3):
            status, answer, seconds = post(server.url + "/move", MOVE)
            assert status == 200 and answer["policy"] == "depth" and answer["cell"] == 27, answer
            assert answer["read_depth"] in (2, 3), answer
            took.append(seconds)
        assert min(took) < MOVE["budget_ms"] / 1000 * 1.05 + 0.05, took
        found = ratios(server, "/move", MOVE, 8, tmp_path)
        assert statistics.median(found) <= MOVE_RATIO, found
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_trees_on_8x8_starve_neither_lookups_nor_searches(tmp_path: Path) -> None:
    """Before, 32 clients of 8x8 trees put the probe's p99 at 28 to 83 times its value alone, and
    300 ms searches asked meanwhile took up to 12.5 s (the trees held every thread of the pool)."""
    server = harness.start_gunicorn(tmp_path, workers=1, settings=settings(tmp_path))
    try:
        ready_with_lanes(server)
        with urllib.request.urlopen(server.url + TREE, timeout=30) as response:
            assert json.loads(response.read())["nodes"] == 4097
        found = ratios(server, TREE, None, 32, tmp_path)
        assert statistics.median(found) <= RATIO, found
        searches = [{"board": one_x(c), "variant": "8x8k5", "budget_ms": 300} for c in (27, 28, 35)]
        with hammering(server.url + TREE, None, 32, 2.5, tmp_path) as trees:
            searched = [post(server.url + "/analyze", search) for search in searches]
        assert [status for status, _, _ in searched] == [200] * 3
        # The budget, its 5 % overrun, and the host's delay: 0.37 s once on a clean CI run here with
        # 0.05 s allowed, the other test process and the long comparisons busy; before the fix, 12.5 s.
        bar = 0.3 * 1.05 + 0.15
        assert statistics.median(took for _, _, took in searched) <= bar, [t for _, _, t in searched]
        busy = [d for d in trees if d.status == 503]
        assert any(d.status == 200 for d in trees) and all(d.seconds < 5 for d in busy), trees_seen(trees)
    finally:
        server.stop()


def trees_seen(trees: list[Done]) -> str:
    slowest = max(d.seconds for d in trees)
    return f"{len(trees)} trees: {sorted({d.status for d in trees})}, slowest {slowest:.2f} s"


@pytest.mark.slow
def test_a_tree_past_the_processes_answers_503_with_retry_after(tmp_path: Path) -> None:
    """Both tree processes busy and a tree that may not wait (SANMOKU_TREE_WAIT=0): 503 trees-busy,
    with Retry-After; the two trees under way answer."""
    server = harness.start_gunicorn(tmp_path, workers=1, settings=settings(tmp_path, SANMOKU_TREE_WAIT="0"))
    try:
        ready_with_lanes(server)
        with ThreadPoolExecutor(2) as pool:
            growing = [
                pool.submit(urllib.request.urlopen, server.url + TREE + f"&algorithm={a}", timeout=30)
                for a in ("minimax", "alphabeta")
            ]
            time.sleep(0.15)  # both under way: each takes tenths of a second
            try:
                with urllib.request.urlopen(server.url + TREE, timeout=30) as response:
                    pytest.fail(f"answered {response.status} beside two trees")
            except urllib.error.HTTPError as error:
                problem = json.loads(error.read())
                assert error.code == 503 and error.headers["Retry-After"] == "1"
                assert error.headers["Content-Type"] == "application/problem+json"
                assert problem["type"].endswith("trees-busy") and problem["retry_after"] == 1
            assert [g.result().status for g in growing] == [200, 200]
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_four_clients_on_four_slots_get_no_503(tmp_path: Path) -> None:
    """Two workers of two search slots, four clients of 300 ms searches: gunicorn's workers take
    connections as they come, so one worker often holds three; 44 % of the answers were 503 when a
    search waited a tenth of its budget for a slot, none now that it waits its turn within it."""
    server = harness.start_gunicorn(
        tmp_path, workers=2, settings=settings(tmp_path, SANMOKU_SEARCH_SLOTS="2")
    )
    try:
        harness.wait_ready(server)
        with ExitStack() as stack:
            answers = [  # each client its own board: none is proven or cached
                stack.enter_context(hammering(server.url + "/analyze", search, 1, 5.0, tmp_path, settle=0))
                for search in [
                    {"board": one_x(c), "variant": "8x8k5", "budget_ms": 300} for c in (27, 28, 35, 36)
                ]
            ]
        done = [d for each in answers for d in each]
        assert len(done) >= 4 * 5 and {d.status for d in done} == {200}, sorted(d.status for d in done)
    finally:
        server.stop()
