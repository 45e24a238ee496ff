"""Answers from the opening books through the real stack: POST /analyze to gunicorn (service/gunicorn_conf.py,
2 workers) on loopback, one request at a time over a kept-alive connection, for random positions the
books answer (Connect Four plies 0-11, 5x5k4 plies 0-3): the latency the client sees and the time
inside the service (its access log), median, 90th percentile and most. Each book request alternates
with one the 3x3 table answers (the cheapest answer there is), so that a loaded machine's noise shows
in both: the ratio of their medians is what the book costs beyond the stack. With --first-start, also how
long a service started on an empty tables directory takes to answer the empty Connect Four board from
its book (the book built in the background meanwhile).

Run: python -m tests.bench.book_serving_bench [--dir TABLES_DIR] [--count 400] [--first-start]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from service.engine import Position, get_variant
from service.engine.books.check import sample_entries
from service.engine.books.source import Books
from service.engine.tables.store import default_directory
from tests.serving import harness


def ask(connection: http.client.HTTPConnection, position: Position) -> tuple[float, dict[str, Any]]:
    request = {"board": position.cells, "variant": position.variant.name, "to_move": position.to_move}
    body = json.dumps(request)
    started = time.perf_counter()
    connection.request("POST", "/analyze", body, {"Content-Type": "application/json"})
    answer = json.loads(connection.getresponse().read())
    return (time.perf_counter() - started) * 1000, answer


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered):.2f} ms, p90 {p90:.2f} ms, max {ordered[-1]:.2f} ms"


def positions(directory: Path, count: int, rng: random.Random) -> dict[str, list[Position]]:
    found = {}
    for name in ("connect4", "5x5k4"):
        book = Books([directory]).book(get_variant(name))
        if book is None:
            raise SystemExit(f"no {name} book in {directory} or the package (sanmoku book build {name})")
        plies = list(range(book.data.deepest))
        found[name] = sample_entries(book, plies, -(-count // len(plies)), rng)
    return found


def latencies(directory: Path, count: int, seed: int) -> None:
    sample = positions(directory, count, random.Random(seed))
    with tempfile.TemporaryDirectory(prefix="sanmoku-bench-") as work:
        server = harness.start_gunicorn(Path(work), 2, settings={"SANMOKU_TABLES_DIR": str(directory)})
        try:
            harness.wait_ready(server)
            connection = http.client.HTTPConnection(harness.HOST, server.port, timeout=30)
            tic_tac_toe = Position.parse("X...O....", None, get_variant("normal"))
            for name, chosen in sample.items():
                ask(connection, chosen[0])  # each worker opens the book once
                ask(connection, chosen[0])
                times, table_times = [], []
                for position in chosen:
                    took, answer = ask(connection, position)
                    assert answer["source"] == "book" and answer["result"] != "unknown", position.cells
                    times.append(took)
                    table_times.append(ask(connection, tic_tac_toe)[0])
                inside = server_times(server, 2 * len(chosen))[::2]
                print(f"{name}: {len(chosen)} book positions; client {summary(times)}")
                print(f"{'':>{len(name)}}  inside the service {summary(inside)}")
                print(f"{'':>{len(name)}}  3x3 from its table, in turn: client {summary(table_times)}")
        finally:
            server.kill()


def server_times(server: harness.Server, count: int) -> list[float]:
    lines = [json.loads(x) for x in server.stdout.read_text().splitlines() if x.startswith("{")]
    return [line["duration_ms"] for line in lines if line.get("path") == "/analyze"][-count:]


def first_start(timeout: float = 900.0) -> None:
    empty = Position.empty(get_variant("connect4"))
    with tempfile.TemporaryDirectory(prefix="sanmoku-bench-") as work:
        tables = Path(work) / "tables"
        started = time.perf_counter()
        server = harness.start_gunicorn(Path(work), 2, settings={"SANMOKU_TABLES_DIR": str(tables)})
        try:
            ready = harness.wait_ready(server)
            connection = http.client.HTTPConnection(harness.HOST, server.port, timeout=30)
            sources = []
            while time.perf_counter() - started < timeout:
                _, answer = ask(connection, empty)
                sources.append(answer["source"])
                if answer["source"] == "book":
                    break
                time.sleep(2)
            took = time.perf_counter() - started
            print(
                f"first start: ready in {ready:.1f} s; the empty connect4 board from a book at {took:.0f} s"
            )
            print(f"  answers meanwhile: {', '.join(dict.fromkeys(sources))}")
        finally:
            server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=default_directory(), help="a tables dir with the books")
    parser.add_argument("--count", type=int, default=400, help="positions per board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-start", action="store_true")
    args = parser.parse_args()
    latencies(args.dir, args.count, args.seed)
    if args.first_start:
        first_start()


if __name__ == "__main__":
    main()
