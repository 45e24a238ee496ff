"""What holds a gevent worker's event loop, its search slots and its first budget, replayed against a
checkout: one line per finding, with what was measured.

    python -m tests.bench.event_loop_bench                        # this checkout
    python -m tests.bench.event_loop_bench --checkout /tmp/base   # another one (its core built)

- `/move` depth 3 on 8x8: the 3x3 probe's p99 alone, then beside 8 clients of POST /move
  (`policy: depth`, `depth: 3`, an empty 8x8k5 board), one gunicorn worker;
- `/tree` on 8x8: the same probe beside 32 clients of GET /tree on the empty 8x8k5 board (4,097
  nodes), and the time of 300 ms searches asked meanwhile;
- 4 clients of 300 ms searches on 4 slots: one worker of 4 slots, and 2 workers of 2 (the default);
  how many answers were 503;
- the first search of a fresh server (`budget_ms: 1`, the empty 8x8k5 board), from the client, once
  the worker is up without having answered anything yet (its log line), and right after its first
  /readyz.

Each load runs in a process of its own (tests/serving/loads.py); the probe asks one request after
another from this one. Servers run with an empty tables directory of their own and nothing built at
start.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

from tests.serving import harness
from tests.serving.loads import Done, hammering
from tests.serving.slow_clients import probe

HERE = Path(__file__).resolve().parents[2]
EMPTY_8X8 = "." * 64
PROBE_PATH = "/analyze?board=........."
MOVE = {"board": EMPTY_8X8, "variant": "8x8k5", "policy": "depth", "depth": 3}
TREE_PATH = f"/tree?board={EMPTY_8X8}&variant=8x8k5"
SEARCHES = [  # 8x8k5 boards that a 300 ms search does not prove
    {"board": EMPTY_8X8[:27] + "X" + EMPTY_8X8[28:], "variant": "8x8k5", "budget_ms": 300},
    {"board": EMPTY_8X8[:28] + "X" + EMPTY_8X8[29:], "variant": "8x8k5", "budget_ms": 300},
    {"board": EMPTY_8X8[:35] + "X" + EMPTY_8X8[36:], "variant": "8x8k5", "budget_ms": 300},
    {"board": EMPTY_8X8[:36] + "X" + EMPTY_8X8[37:], "variant": "8x8k5", "budget_ms": 300},
]
FIRST = {"board": EMPTY_8X8, "variant": "8x8k5", "budget_ms": 1}


def server(checkout: Path, workdir: Path, workers: int = 1, **settings: str) -> harness.Server:
    env = {"SANMOKU_TABLES_DIR": str(workdir / "tables"), "SANMOKU_TABLES_AT_START": "[]", **settings}
    return harness.start_gunicorn(workdir, workers, settings=env, cwd=checkout)


def post(url: str, body: object, timeout: float = 30) -> tuple[int, float]:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.perf_counter() - started


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def described(done: list[Done]) -> str:
    statuses = Counter(d.status for d in done)
    times = sorted(d.seconds for d in done)
    median = statistics.median(times) if times else float("nan")
    return f"{len(done)} answers {dict(statuses)}, median {ms(median)}, max {ms(max(times, default=0))}"


def beside(checkout: Path, path: str, body: object | None, clients: int, seconds: float) -> str:
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        target = server(checkout, workdir)
        try:
            harness.wait_ready(target)
            probe_url = target.url + PROBE_PATH
            probe(probe_url, 1.0)  # the worker's first answers, its warming
            alone = probe(probe_url, seconds)
            with hammering(target.url + path, body, clients, seconds, workdir) as load:
                loaded = probe(probe_url, seconds)
            return (
                f"probe p99 alone {ms(alone.p99)}, beside {ms(loaded.p99)} (x{loaded.p99 / alone.p99:.1f}; "
                f"medians {ms(alone.median)}, {ms(loaded.median)}; {loaded.failures} failed); "
                f"load: {described(load)}"
            )
        finally:
            target.stop()


def move_load(checkout: Path, seconds: float) -> str:
    return beside(checkout, "/move", MOVE, 8, seconds)


def tree_load(checkout: Path, seconds: float) -> str:
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        target = server(checkout, workdir)
        try:
            harness.wait_ready(target)
            probe_url = target.url + PROBE_PATH
            probe(probe_url, 1.0)
            alone = probe(probe_url, seconds)
            searched_alone = [post(target.url + "/analyze", s) for s in SEARCHES]
            with hammering(target.url + TREE_PATH, None, 32, seconds, workdir) as load:
                loaded = probe(probe_url, seconds / 2)
                searched = [post(target.url + "/analyze", s) for s in SEARCHES]
            return (
                f"probe p99 alone {ms(alone.p99)}, beside {ms(loaded.p99)} (x{loaded.p99 / alone.p99:.1f}; "
                f"{loaded.failures} failed); 300 ms searches alone "
                f"{[f'{s} {ms(t)}' for s, t in searched_alone]}, beside "
                f"{[f'{s} {ms(t)}' for s, t in searched]}; load: {described(load)}"
            )
        finally:
            target.stop()


def slots(checkout: Path, workers: int, per_worker: int, seconds: float) -> str:
    with tempfile.TemporaryDirectory() as folder:
        workdir = Path(folder)
        target = server(checkout, workdir, workers, SANMOKU_SEARCH_SLOTS=str(per_worker))
        try:
            harness.wait_ready(target)
            with ExitStack() as stack:
                lists = [
                    stack.enter_context(
                        hammering(target.url + "/analyze", search, 1, seconds, workdir, settle=0)
                    )
                    for search in SEARCHES
                ]
            done = [d for answers in lists for d in answers]
            busy = sum(d.status == 503 for d in done)
            return f"{busy} of {len(done)} answers 503 ({busy / max(len(done), 1):.0%}); {described(done)}"
        finally:
            target.stop()


READIED = re.compile(r"searches readied in (\d+) ms")


def booted(target: harness.Server, readies: bool, timeout: float = 30) -> float | None:
    """Until the worker has readied its searches (it has answered nothing yet): how long that took (ms).
    A checkout that readies nothing before the first request: until the worker's start is logged,
    then 0.3 s for its hooks (None)."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        log = target.stderr.read_text()
        readied = READIED.search(log)
        if readied:
            return float(readied.group(1))
        if not readies and "Booting worker" in log:
            time.sleep(0.3)
            return None
        time.sleep(0.01)
    raise TimeoutError("no worker booted")


def first_search(checkout: Path, after: str, starts: int) -> str:
    times, readying = [], []
    for _ in range(starts):
        with tempfile.TemporaryDirectory() as folder:
            workdir = Path(folder)
            target = server(checkout, workdir)
            try:
                if after == "readyz":
                    harness.wait_ready(target)
                else:
                    readies = "before_requests" in (checkout / "service/serving/sources.py").read_text()
                    readying.append(booted(target, readies))
                status, took = post(target.url + "/analyze", FIRST)
                assert status == 200, status
                times.append(took)
            finally:
                target.stop()
    readied = "" if not readying else f"; readied before the first request in {readying} ms"
    return f"{', '.join(ms(t) for t in times)} (worst {ms(max(times))}; the bar: 51.05 ms){readied}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", type=Path, default=HERE)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="findings whose name contains one of these")
    args = parser.parse_args()
    findings = {
        "move depth 3 on 8x8, 8 clients": lambda: move_load(args.checkout, args.seconds),
        "tree of 8x8, 32 clients": lambda: tree_load(args.checkout, args.seconds),
        "slots: 4 clients, 1 worker of 4": lambda: slots(args.checkout, 1, 4, args.seconds),
        "slots: 4 clients, 2 workers of 2": lambda: slots(args.checkout, 2, 2, args.seconds),
        "first search after the worker's start": lambda: first_search(args.checkout, "boot", args.starts),
        "first search after the first /readyz": lambda: first_search(args.checkout, "readyz", args.starts),
    }
    for name, measure in findings.items():
        if args.only and not any(word in name for word in args.only):
            continue
        try:
            found = measure()
        except Exception as error:
            found = f"failed: {type(error).__name__}: {error}"
        print(f"{name}: {found}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
