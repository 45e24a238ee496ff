"""Request ids, one JSON access line per request, and Prometheus metrics at /metrics.

`init_app(app)` wires all three, and must come last in create_app (it wraps the WSGI app). The access
line is written straight to stdout as one JSON object: it is on every request's path, where the logging
module alone cost more than the lookup being logged. Other logs become JSON where LOGGING is applied
(gunicorn_conf does), through python-json-logger. Metrics are shared across gunicorn workers when
PROMETHEUS_MULTIPROC_DIR is set, and kept per app otherwise (tests, the flask dev server).
"""

from __future__ import annotations

import atexit
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

import orjson
from flask import Flask
from gevent import get_hub
from gevent.monkey import is_module_patched

REQUEST_ID_HEADER = "X-Request-ID"
# Ids from outside end up in logs: only a short, plain token is trusted, anything else is replaced.
SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")
ACCESS_LOGGER = "sanmoku.access"
METRICS_PATH = "/metrics"
# Answers are lookups: most take well under a millisecond, so the low buckets are the useful ones.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger", "process": "pid"},
        },
    },
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"},
    },
    "root": {"level": "INFO", "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
        "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
    },
}

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def request_id(given: str | None) -> str:
    # 32 hex digits, as uuid4's, from the random module (reseeded in every forked worker): the id names a
    # request in the logs, it guards nothing, and os.urandom's system call was a tenth of the middleware.
    return given if given and SAFE_REQUEST_ID.fullmatch(given) else f"{random.getrandbits(128):032x}"


class Routes:
    """The metrics' route label: the URL rule a path matches, so that unknown URLs cannot grow the
    label set. A dictionary and a few prefixes, not a second routing pass."""

    def __init__(self, app: Flask) -> None:
        rules = [rule.rule for rule in app.url_map.iter_rules()]
        self.static = {rule for rule in rules if "<" not in rule}
        prefixes = [(rule[: rule.index("<")], rule) for rule in rules if "<" in rule]
        self.dynamic = sorted(prefixes, key=lambda p: -len(p[0]))

    def __call__(self, path: str) -> str:
        if path in self.static:
            return path
        return next((rule for prefix, rule in self.dynamic if path.startswith(prefix)), "<unmatched>")


class Metrics:
    """The request counter and latency histogram, named as prometheus-flask-exporter names them.
    Recorded by the middleware below instead of the exporter's Flask hooks, which cost more than the
    lookup they measure; label children are cached for the same reason."""

    def __init__(self, app: Flask) -> None:
        # Imported here, not at the top: prometheus_client picks multiprocess mode on first import, and
        # gunicorn_conf imports this module before it sets PROMETHEUS_MULTIPROC_DIR.
        from prometheus_client import CollectorRegistry, Counter, Histogram
        from prometheus_flask_exporter import PrometheusMetrics
        from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            exporter = GunicornInternalPrometheusMetrics(app, path=METRICS_PATH, export_defaults=False)
        else:  # a registry per app: a second create_app in one process (tests) counts on its own
            exporter = PrometheusMetrics(
                app, path=METRICS_PATH, export_defaults=False, registry=CollectorRegistry()
            )
        self.total = Counter(
            "flask_http_request_total",
            "Total number of HTTP requests",
            ("method", "status"),
            registry=exporter.registry,
        )
        self.duration = Histogram(
            "flask_http_request_duration_seconds",
            "Flask HTTP request duration in seconds",
            ("method", "route", "status"),
            buckets=BUCKETS,
            registry=exporter.registry,
        )
        self.app = app
        self.routes: Routes | None = None  # built on first use, when every route is registered
        self.children: dict[tuple[str, str, str], tuple[Any, Any]] = {}

    def observe(self, method: str, path: str, status: str, seconds: float) -> None:
        if path == METRICS_PATH:  # scrapes are not traffic
            return
        if self.routes is None:
            self.routes = Routes(self.app)
        key = (method if method in METHODS else "other", self.routes(path), status)
        child = self.children.get(key)
        if child is None:
            child = (self.total.labels(key[0], key[2]), self.duration.labels(*key))
            self.children[key] = child
        child[0].inc()
        child[1].observe(seconds)


class Clock:
    """The access line's time, as `datetime.now(UTC).isoformat(timespec="milliseconds")` writes it, with
    the date and time of day formatted once a second (formatting them took a third of the line)."""

    def __init__(self) -> None:
        self._second, self._prefix = -1, ""

    def now(self) -> str:
        nanoseconds = time.time_ns()
        second, milliseconds = divmod(nanoseconds // 1_000_000, 1000)
        if second != self._second:
            prefix = datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")[: -len("+00:00")]
            self._second, self._prefix = second, prefix
        return f"{self._prefix}.{milliseconds:03d}+00:00"


class Pid:
    """This process's id, looked up again in a forked child only (os.getpid is a system call)."""

    value = os.getpid()


os.register_at_fork(after_in_child=lambda: setattr(Pid, "value", os.getpid()))
CLOCK = Clock()


def access_line(fields: dict[str, Any]) -> str:
    """One access record as a JSON line, with the members every other log line has. orjson, not json:
    the line is on every request's path, and the standard encoder took a tenth of a cached answer."""
    head = {
        "time": CLOCK.now(),
        "level": "INFO",
        "logger": ACCESS_LOGGER,
        "pid": Pid.value,
        "message": "request",
    }
    return orjson.dumps({**head, **fields}, option=orjson.OPT_APPEND_NEWLINE).decode()


class AccessLog:
    """The access lines to stdout. In a gevent worker the lines of one turn of its event loop are written
    and flushed together at the end of that turn, microseconds later (a write and a flush per request
    cost more than the line itself); elsewhere each line is written and flushed at once."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        atexit.register(self.flush)  # a worker that stops between a line and the end of its loop's turn

    def write(self, line: str) -> None:
        self._lines.append(line)
        if not is_module_patched("socket"):
            self.flush()
        elif len(self._lines) == 1:
            get_hub().loop.run_callback(self.flush)

    def flush(self) -> None:
        lines, self._lines = self._lines, []
        out = sys.stdout  # looked up each time, so a redirected stdout is honoured
        out.write("".join(lines))
        out.flush()


class RequestContext:
    """WSGI middleware, outermost: every answer carries X-Request-ID (errors and 304s too), is counted
    and is logged once. Plain WSGI rather than Flask hooks, because it is on every request's path."""

    def __init__(self, app: WSGIApp, metrics: Metrics, access_log: bool) -> None:
        self.app = app
        self.metrics = metrics
        self.access_log = access_log
        self.lines = AccessLog()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        rid = request_id(environ.get("HTTP_X_REQUEST_ID"))
        environ["sanmoku.request_id"] = rid

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.append((REQUEST_ID_HEADER, rid))
            # The body is prepared bytes already: the time to here is the time spent answering.
            seconds = time.perf_counter() - started
            method, path, code = environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""), status[:3]
            self.metrics.observe(method, path, code, seconds)
            if self.access_log:
                fields = {
                    "method": method,
                    "path": path,
                    "status": int(code),
                    "duration_ms": round(seconds * 1000, 3),
                    "request_id": rid,
                    "remote_addr": environ.get("REMOTE_ADDR"),
                    "user_agent": environ.get("HTTP_USER_AGENT"),
                }
                self.lines.write(access_line(fields))
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def init_app(app: Flask) -> None:
    access_log = bool(app.config.get("ACCESS_LOG", True))
    app.wsgi_app = RequestContext(app.wsgi_app, Metrics(app), access_log)  # type: ignore[method-assign]
