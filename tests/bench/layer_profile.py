"""Where the time of one 3x3 POST /analyze goes, in microseconds per layer.

Run: python -m tests.bench.layer_profile [--requests 20000] [--rounds 5] [--duration 5] [--no-server]

In-process: the app's WSGI callable answers the same POST /analyze (3x3) again and again, once answered
from the kept bodies (a repeated request, as under wrk) and once with them emptied before every
request (the full path: schema, searcher, payload). Each layer is wrapped in a timer (perf_counter_ns)
that counts its own time, less the layers it calls: the request id, the metrics, the access line (its
line made, then written), the rest of the request-id middleware, CORS, the chunked-body limit, Flask
(request context, routing, response object, hooks but the security headers'), the security headers,
the view (with the raw-request cache), the schema's load, the searcher (the position read and the table's
answer) and the payload with its JSON. The access lines go to a file, as under gunicorn, each written and
flushed at once (no gevent loop here: a gevent worker writes those of one loop turn together). Medians of
`rounds` rounds; the timers' own cost is the difference between the sum and the unwrapped app's time.

With a server (unless --no-server): gunicorn (service/gunicorn_conf.py, 2 gevent workers) serving bare
Flask and then the service, wrk POSTing for `duration` seconds; the workers' CPU time (utime + stime
from /proc) per request, less the app's in-process time, is what the WSGI server (gunicorn, gevent:
parsing the request, writing the answer) costs.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service.app import create_app
from service.engine import Analyst
from service.http import analyze_views, answers, bodies, cors, params, security

try:
    from service.http import repeated
except ImportError:  # a baseline without the edge
    repeated = None  # type: ignore[assignment]
from service.http.body_limit import ChunkedBodyLimit
from service.serving import observability
from tests.bench.ceiling_app import REQUESTS
from tests.bench.ceiling_app import bare as ceiling_bare
from tests.bench.feature_cost import BODY, environ
from tests.bench.wrk import POST, wrk, wrk_arguments
from tests.serving import harness
from tests.serving.harness import Server

LAYERS = (
    "request id",
    "metrics",
    "access line: made",
    "access line: written",
    "request-id middleware, the rest",
    "CORS",
    "chunked-body limit",
    "security headers",
    "repeated request answered at the edge",
    "Flask",
    "view: raw-request cache, kept bodies, Response",
    "schema load",
    "searcher: position and answer",
    "payload and JSON",
)


MIDDLEWARE = {  # class name: layer
    "RequestContext": "request-id middleware, the rest",
    "CrossOrigin": "CORS",
    "ChunkedBodyLimit": "chunked-body limit",
    "SecurityHeaders": "security headers",
    "RepeatedAnswers": "repeated request answered at the edge",
}


class Timers:
    """Exclusive nanoseconds per layer: a timed call's time, less that of the timed calls inside it."""

    def __init__(self) -> None:
        self.spent: dict[str, int] = defaultdict(int)
        self._inner: list[int] = []

    def wrap(self, layer: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._inner.append(0)
            started = time.perf_counter_ns()
            try:
                return function(*args, **kwargs)
            finally:
                elapsed = time.perf_counter_ns() - started
                inner = self._inner.pop()
                self.spent[layer] += elapsed - inner
                if self._inner:
                    self._inner[-1] += elapsed

        return timed


@contextmanager
def timed_layers(timers: Timers) -> Iterator[None]:
    """The layers' functions wrapped, where the app looks them up, while the app is made and runs."""
    with pytest.MonkeyPatch.context() as patch:
        for owner, name, layer in (
            (observability, "request_id", "request id"),
            (observability.Metrics, "observe", "metrics"),
            (observability, "access_line", "access line: made"),
            (getattr(observability, "AccessLog", None), "write", "access line: written"),
            (observability.RequestContext, "__call__", "request-id middleware, the rest"),
            (cors.CrossOrigin, "__call__", "CORS"),
            (ChunkedBodyLimit, "__call__", "chunked-body limit"),
            (getattr(security, "SecurityHeaders", None), "__call__", "security headers"),
            (getattr(repeated, "RepeatedAnswers", None), "__call__", "repeated request answered at the edge"),
            (Flask, "wsgi_app", "Flask"),
            (analyze_views, "load", "schema load"),
            (params.AnalyzeParams, "position", "searcher: position and answer"),
            (answers, "answer_payload", "payload and JSON"),
            (answers, "dumps", "payload and JSON"),
            (answers, "make_body", "payload and JSON"),
        ):
            if hasattr(
                owner, name
            ):  # an older checkout (a baseline) may lack one: its time goes to its caller
                patch.setattr(owner, name, timers.wrap(layer, getattr(owner, name)))
        answers_of = Analyst.answers

        def timed_answers(self: Analyst, *args: Any, **kwargs: Any) -> Any:
            return timers.wrap("searcher: position and answer", answers_of(self, *args, **kwargs))

        patch.setattr(Analyst, "answers", timed_answers)
        yield


def time_start_responses(app: Flask, timers: Timers) -> None:
    """Each middleware's start_response, which the app inside it calls, timed as that middleware's (the
    headers it adds, the metrics and the access line it records), not as its caller's."""
    middleware: Any = app.wsgi_app
    while (layer := MIDDLEWARE.get(type(middleware).__name__)) is not None:
        inner = middleware.app

        def shim(environ: Any, start: Any, inner: Any = inner, layer: str = layer) -> Any:
            return inner(environ, timers.wrap(layer, start))

        middleware.app = shim
        middleware = inner


def made_app(timers: Timers | None) -> Flask:
    with ExitStack() as stack:
        if timers is not None:
            stack.enter_context(timed_layers(timers))
        app = create_app({"TABLES_AT_START": []})
    if timers is not None:
        time_start_responses(app, timers)
        hooks = app.after_request_funcs[None]
        hooks[:] = [timers.wrap("security headers", hook) for hook in hooks]
        view = "api.analyze_post"
        app.view_functions[view] = timers.wrap(
            "view: raw-request cache, kept bodies, Response", app.view_functions[view]
        )
    return app


def answer(app: Flask, requests: int, cached: bool, path: str = "/analyze") -> float:
    """Microseconds per request, the whole app; not `cached`: its kept bodies emptied before each."""
    template = environ(path)
    cache: Any = app.extensions.get(bodies.EXTENSION)  # bare Flask has none (it is always "cached")

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        assert status.startswith("200"), status

    spent = 0
    for _ in range(requests):
        if not cached:
            cache._bodies.clear()
        env = dict(template)
        env["wsgi.input"] = io.BytesIO(BODY)
        started = time.perf_counter_ns()
        for _chunk in app(env, start_response):  # type: ignore[arg-type]
            pass
        spent += time.perf_counter_ns() - started
    return spent / requests / 1000


def in_process(args: argparse.Namespace, cached: bool, log: Path) -> tuple[dict[str, float], float, float]:
    """Median µs per request of each layer, of the timed app's whole, and of the untimed app."""
    layers: dict[str, list[float]] = defaultdict(list)
    wholes, plain_wholes = [], []
    with log.open("a") as out, redirect_stdout(out):
        timers = Timers()
        with timed_layers(timers):
            timed_app = made_app(timers)
            answer(timed_app, 300, cached)  # warm-up: the table opened, the body kept
            for _ in range(args.rounds):
                timers.spent.clear()
                wholes.append(answer(timed_app, args.requests, cached))
                for layer in LAYERS:
                    layers[layer].append(timers.spent[layer] / args.requests / 1000)
        plain = made_app(None)
        answer(plain, 300, cached)
        plain_wholes = [answer(plain, args.requests, cached) for _ in range(args.rounds)]
    medians = {layer: statistics.median(samples) for layer, samples in layers.items()}
    return medians, statistics.median(wholes), statistics.median(plain_wholes)


def workers_cpu(server: Server) -> float:
    """CPU seconds (user and system) the server's workers have used so far."""
    master = server.process.pid
    workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    fields = [Path(f"/proc/{w}/stat").read_text().rsplit(")", 1)[1].split() for w in workers]
    return sum(int(f[11]) + int(f[12]) for f in fields) / os.sysconf("SC_CLK_TCK")


def worker_cpu_per_request(app: str, path: str, args: argparse.Namespace, workdir: Path) -> float:
    """Microseconds of the gunicorn workers' CPU per POST, under wrk."""
    server = harness.start_gunicorn(workdir, 2, app)
    try:
        harness.wait_ready(server, "/ceiling/3x3" if "ceiling" in app else "/readyz")
        url = server.url + path
        wrk(url, args, POST, duration=2)  # warm-up
        used = workers_cpu(server)
        run = wrk(url, args, POST)
        return float((workers_cpu(server) - used) / (run.rps * args.duration) * 1e6)
    finally:
        server.kill()


def main() -> None:
    parser = wrk_arguments(__doc__)
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--no-server", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-layers-") as tmp:
        log = Path(tmp) / "access.log"
        found = {cached: in_process(args, cached, log) for cached in (True, False)}
        bare = statistics.median(
            answer(ceiling_bare, args.requests, True, "/ceiling/3x3") for _ in range(args.rounds)
        )
        server = {}
        if not args.no_server:
            server["bare"] = worker_cpu_per_request(
                "tests.bench.ceiling_app:bare", "/ceiling/3x3", args, Path(tmp)
            )
            server["service"] = worker_cpu_per_request(harness.APP, "/analyze", args, Path(tmp))
    print(
        f"POST /analyze {REQUESTS['3x3']}, µs per request, median of {args.rounds} rounds x {args.requests}"
    )
    print(f"(load average {os.getloadavg()[0]:.1f})\n")
    print("| layer | answered from the kept bodies | full path (none kept) |")
    print("|---|---:|---:|")
    for layer in LAYERS:
        print(f"| {layer} | {found[True][0][layer]:.1f} | {found[False][0][layer]:.1f} |")
    print(f"| sum of the layers (timers included) | {found[True][1]:.1f} | {found[False][1]:.1f} |")
    print(f"| the app untimed | {found[True][2]:.1f} | {found[False][2]:.1f} |")
    print(f"| bare Flask, same body, in-process | {bare:.1f} | |")
    if server:
        print(f"| gunicorn workers' CPU per request, bare Flask | {server['bare']:.1f} | |")
        print(f"| gunicorn workers' CPU per request, the service | {server['service']:.1f} | |")
        server_only = server["bare"] - bare
        print(f"| WSGI server (gunicorn, gevent): bare Flask's CPU less in-process | {server_only:.1f} | |")


if __name__ == "__main__":
    main()
