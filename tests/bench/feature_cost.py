"""What each cross-cutting feature costs a request, in-process: the WSGI app called directly, no server.

Run: python -m tests.bench.feature_cost [--requests 20000] [--rounds 5]
     python -m tests.bench.feature_cost --instructions [--requests 2000]  (callgrind: deterministic)

POST /analyze on a 3x3 board (answered from the kept bodies, as a repeated request is) through the whole
app, then the same app with one feature switched off at a time (CORS, the request id, the metrics, the
access line), then with all four off, and the bare Flask app sending the same bytes. Rounds are
interleaved; medians of microseconds per request, and each one's difference from the whole app.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, redirect_stdout
from typing import Any

from flask import Flask
from werkzeug.test import EnvironBuilder

from service.app import create_app
from service.http import cors
from service.serving import observability
from tests.bench.ceiling_app import REQUESTS, bare
from tests.cors_reference import with_flask_cors

BOARD, VARIANT = REQUESTS["3x3"]
BODY = f'{{"board":"{BOARD}","variant":"{VARIANT}"}}'.encode()
WSGI = Callable[[dict[str, Any], Callable[..., Any]], Any]
BARE = "bare Flask, same body"
FLASK_CORS = "flask-cors instead of the constant headers"


@contextmanager
def without_cors() -> Iterator[None]:
    original = cors.CrossOrigin
    cors.CrossOrigin = lambda wsgi_app: wsgi_app  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        cors.CrossOrigin = original  # type: ignore[misc]


@contextmanager
def without_request_id() -> Iterator[None]:
    original = observability.request_id
    observability.request_id = lambda given: "fixed"  # type: ignore[assignment]
    try:
        yield
    finally:
        observability.request_id = original


@contextmanager
def without_metrics() -> Iterator[None]:
    original = observability.Metrics.observe
    observability.Metrics.observe = lambda *args: None  # type: ignore[assignment]
    try:
        yield
    finally:
        observability.Metrics.observe = original  # type: ignore[method-assign]


SWITCHES: dict[str, list[Callable[[], Any]]] = {
    "whole app": [],
    "no CORS": [without_cors],
    "no request id": [without_request_id],
    "no metrics": [without_metrics],
    "no access line": [],
    "none of the four": [without_cors, without_request_id, without_metrics],
}


def environ(path: str) -> dict[str, Any]:
    headers = {"User-Agent": "bench"}
    built = EnvironBuilder(
        path=path, method="POST", data=BODY, content_type="application/json", headers=headers
    )
    return built.get_environ()


def timed(app: WSGI, requests: int, switches: list[Callable[[], Any]], path: str = "/analyze") -> float:
    """Microseconds per request; the switches stay on while the app answers (some act at request time)."""
    template = environ(path)

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        return None

    with ExitStack() as stack:
        for switch in switches:
            stack.enter_context(switch())
        started = time.perf_counter()
        for _ in range(requests):
            env = dict(template)
            env["wsgi.input"] = io.BytesIO(BODY)
            for _chunk in app(env, start_response):
                pass
        return (time.perf_counter() - started) / requests * 1e6


def build(name: str) -> WSGI:
    switches = SWITCHES[name]
    with ExitStack() as stack:
        for switch in switches:
            stack.enter_context(switch())
        config: dict[str, Any] = {"TABLES_AT_START": []}
        if name in ("no access line", "none of the four"):
            config["ACCESS_LOG"] = False
        app: Flask = create_app(config)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", action="store_true", help="count instructions under callgrind")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: one app, inside callgrind
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return run_one(args.one, args.requests, args.measure)
    report = sys.stdout
    if args.instructions:
        counts = {name: [instructions(name, args.requests)] for name in [*SWITCHES, FLASK_CORS, BARE]}
        unit, title = "instructions", f"instructions per request (callgrind, {args.requests} requests)"
    else:
        with open(os.devnull, "w") as nowhere, redirect_stdout(nowhere):  # the access lines go nowhere
            counts = measure(args)
        unit, title = "µs", f"µs per request, median of {args.rounds} rounds x {args.requests}"
    whole = statistics.median(counts["whole app"])
    print(f"POST /analyze (3x3, cached), in-process, {title}", file=report)
    print(f"| app | {unit} per request | difference from the whole app |", file=report)
    print("|---|---:|---:|", file=report)
    for name, samples in counts.items():
        median = statistics.median(samples)
        print(f"| {name} | {median:,.1f} | {median - whole:+,.1f} |", file=report)


def app_named(name: str) -> WSGI:
    if name == BARE:
        return bare
    return with_flask_cors({"TABLES_AT_START": []}) if name == FLASK_CORS else build(name)


def run_one(name: str, requests: int, measure: bool) -> None:
    """Inside callgrind: warm up, then (with `measure`) answer `requests` more."""
    with open(os.devnull, "w") as nowhere, redirect_stdout(nowhere):
        app, path = app_named(name), "/ceiling/3x3" if name == BARE else "/analyze"
        timed(app, 300, SWITCHES.get(name, []), path)
        if measure:
            timed(app, requests, SWITCHES.get(name, []), path)


def instructions(name: str, requests: int) -> float:
    """Instructions per request: the run with `requests` more requests less the warm-up alone."""
    totals = []
    for measure in (False, True):
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m"]
        command += ["tests.bench.feature_cost", "--one", name, "--requests", str(requests)]
        command += ["--measure"] if measure else []
        env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dictionaries, the same count
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise RuntimeError(done.stderr)
        totals.append(int(found.group(1)))
    return (totals[1] - totals[0]) / requests


def measure(args: argparse.Namespace) -> dict[str, list[float]]:
    apps = {name: app_named(name) for name in [*SWITCHES, FLASK_CORS, BARE]}
    paths = {name: "/ceiling/3x3" if name == BARE else "/analyze" for name in apps}
    times: dict[str, list[float]] = {name: [] for name in apps}
    for name, app in apps.items():  # warm-up: the first answer fills the kept bodies
        timed(app, 200, SWITCHES.get(name, []), paths[name])
    for _ in range(args.rounds):
        for name, app in apps.items():
            times[name].append(timed(app, args.requests, SWITCHES.get(name, []), paths[name]))
    return times


if __name__ == "__main__":
    main()
