"""A fresh worker's first search holds its budget: what any search needs (the slots' tables, the store,
the core's caches and helper thread on each search thread, the imports) is made before the worker takes
its first request, not within that request's budget (the first search with `budget_ms: 1` took up to
586 ms, 106 ms in the finding that reported it). So do the listed boards' shapes (lines, symmetries,
the proven positions' keys): 15x15's took 0.1 s, and its first answer at `budget_ms: 1` took 45 to 68
ms (22 ms made before)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

from tests.serving import harness

FIRST = {"board": "." * 64, "variant": "8x8k5", "budget_ms": 1}  # no table, no book: a search
BAR = FIRST["budget_ms"] / 1000 * 1.05 + 0.050  # seconds: the budget, 5 % and 50 ms
STARTS = 5
READIED = re.compile(r"searches readied in \d+ ms")


def readied(server: harness.Server, timeout: float = harness.START_TIMEOUT) -> None:
    """Until the worker says its searches are ready, having answered nothing (no request is sent)."""
    ends = time.monotonic() + timeout
    while not READIED.search(server.stderr.read_text()):
        assert server.process.poll() is None, server.stderr.read_text()
        assert time.monotonic() < ends, "the worker never readied its searches"
        time.sleep(0.01)


def first_search(
    workdir: Path, body: dict[str, object] = FIRST, then: dict[str, object] | None = None
) -> tuple[float, dict[str, object]]:
    """A fresh server's first request, timed from the client; with `then`, the seconds that first
    request took beyond a second one, `then`, on the same worker (warm; a question not asked before)."""
    workdir.mkdir()
    settings = {"SANMOKU_TABLES_DIR": str(workdir / "tables"), "SANMOKU_TABLES_AT_START": "[]"}
    server = harness.start_gunicorn(workdir, workers=1, settings=settings)
    try:
        readied(server)
        took, answer = timed(server, body)
        if then is not None:
            took -= timed(server, then)[0]
        return took, answer
    finally:
        server.stop()


def timed(server: harness.Server, body: dict[str, object]) -> tuple[float, dict[str, object]]:
    request = urllib.request.Request(
        server.url + "/analyze", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
    return time.perf_counter() - started, answer


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_a_fresh_workers_first_search_holds_its_budget(tmp_path: Path) -> None:
    """Five fresh servers; at least four of their first answers within the bar (one may meet a busy
    moment of a shared 2-core machine), and every one a search's."""
    times = []
    for start in range(STARTS):
        took, answer = first_search(tmp_path / f"start-{start}")
        assert answer["source"] == "search", answer
        times.append(took)
    within = sum(took <= BAR for took in times)
    assert within >= STARTS - 1, [f"{t * 1000:.1f} ms" for t in times]


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")
def test_a_fresh_workers_first_search_past_64_cells_holds_its_budget(tmp_path: Path) -> None:
    """15x15 five in a row at 1 ms, on three fresh servers: in at least two the first request takes at
    most 25 ms more than a second one on the same worker (the shapes made within the first took 0.1 s).
    Against the second, not a fixed bar: on a loaded host the fixed path alone took 40 to 58 ms."""
    wide = {**FIRST, "board": "." * 225, "variant": "15x15k5"}
    warm = {**wide, "to_move": "O"}  # the same search, O first: not a kept answer
    more = [first_search(tmp_path / f"start-{start}", wide, warm)[0] for start in range(3)]
    assert sum(extra <= 0.025 for extra in more) >= 2, [f"{t * 1000:.1f} ms" for t in more]
