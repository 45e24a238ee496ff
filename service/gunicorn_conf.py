"""gunicorn's settings, all here: `gunicorn -c service/gunicorn_conf.py 'service.app:create_app()'`.

Environment: SANMOKU_BIND (default 127.0.0.1:8000), WEB_CONCURRENCY (workers, default 2),
PROMETHEUS_MULTIPROC_DIR (metrics files shared by the workers; a private temporary folder if unset).
"""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

import gevent
from gunicorn.glogging import Logger  # type: ignore[import-untyped]
from gunicorn.workers.ggevent import GeventWorker  # type: ignore[import-untyped]

from service.serving import worker_metrics
from service.serving.observability import LOGGING


def _metrics_dir() -> str:
    """Prometheus' multiprocess mode is chosen when prometheus_client is imported, which preload does
    in this process before any worker exists: so the folder is set here, at configuration time. It is
    emptied later, once (on_starting)."""
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
        return given
    created = tempfile.mkdtemp(prefix="sanmoku-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = created
    owner = os.getpid()

    def remove() -> None:
        if os.getpid() == owner:  # forked workers run atexit too; only the master cleans up
            shutil.rmtree(created, ignore_errors=True)

    atexit.register(remove)
    return created


class AppAccessLogger(Logger):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn's access line is off: the app writes one JSON line per request, with its request id
    (gunicorn's JSON-looking access format writes invalid JSON for some user agents)."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        return None


bind = [os.environ.get("SANMOKU_BIND", "127.0.0.1:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# gevent, not sync: the image is also run exposed, without nginx in front, and a sync worker serves one
# connection at a time, so two clients sending their headers a byte at a time stopped every other
# request. A gevent worker reads each connection in a greenlet: a slow client costs a few kilobytes.
# gthread would not do: a thread stays with a connection that trickles bytes, so 16 slow clients
# take 16 threads. Measured against sync in tests/bench/worker_bench.py (README, Performance). A long
# /solve stream also needs it: a sync worker sends no heartbeat while it streams, and is killed after
# `timeout` seconds; a gevent worker's heartbeat greenlet runs between the stream's writes.
worker_class = "service.serving.gevent_worker.Worker"  # gunicorn's gevent worker, started sooner
worker_connections = 1000  # per worker: greenlets, so slow clients up to this many cost little
preload_app = True  # the app (and its imports) loads once; every worker maps the same table files
timeout = 30  # a lookup takes microseconds; a worker silent this long is stuck
graceful_timeout = 10
keepalive = 5  # idle keep-alive connections (nginx's upstream pool) are closed after this
max_requests = 0  # no leak to hide: the tables are read-only
control_socket_disable = True  # gunicorn >= 25 opens a control socket by default; nothing uses it
WARM_AFTER = 1.0  # seconds after a worker's start at most before its searches are readied (post_worker_init)

accesslog = None
logger_class = AppAccessLogger
logconfig_dict = LOGGING
metrics_dir = _metrics_dir()
worker_metrics.install()  # files named by worker slot: a respawned worker reuses its predecessor's


def on_starting(server: Any) -> None:
    # Once per master, not at configuration time: a SIGHUP (gunicorn's graceful reload) reads this file
    # again, and emptying the folder there reset every counter to 0. The app is
    # preloaded by now, and has written no metrics file in the master.
    worker_metrics.forget_previous_run(metrics_dir)
    # The app is loaded: its objects go where collections never look, in this master and in the workers
    # forked from it (their pages stay shared), and collections resume (stopped by `sanmoku serve`).
    gc.freeze()
    gc.enable()


def pre_fork(server: Any, worker: Any) -> None:
    worker_metrics.assign(server, worker)


def child_exit(server: Any, worker: Any) -> None:
    worker_metrics.release(worker)


def post_fork(server: Any, worker: Any) -> None:
    from service.serving import gunicorn_errors

    worker_metrics.take(worker)
    gunicorn_errors.install()  # gunicorn's own 400, 414 and 431 answers become problem+json
    # Until the worker installs its own signal handlers (gevent's patching takes a moment) it runs the
    # master's, inherited through fork, and a SIGTERM then was lost: the worker served on and the
    # master waited graceful_timeout before killing it. Note the signal; post_worker_init acts on it.
    signal.signal(signal.SIGTERM, lambda signum, frame: setattr(worker, "sanmoku_term", True))


def post_worker_init(worker: Any) -> None:
    from service.serving import sources

    if getattr(worker, "sanmoku_term", False):
        worker.alive = False  # what gunicorn's own SIGTERM handler does: a graceful exit
    # What every search needs is made before the worker takes a request, so that its first search holds
    # its budget; the rest (the large books, the tables to build) after its first answer
    # (post_request), or WARM_AFTER seconds after its start if no request comes first:
    # the first answer never waits for them.
    worker.sanmoku_warm = sources.Warming(worker.wsgi)
    if isinstance(worker, GeventWorker):
        worker.sanmoku_warm.before_requests()
        gevent.spawn_later(WARM_AFTER, worker.sanmoku_warm)


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    # A greenlet yields only when it waits, and a keep-alive client that sends its next request at
    # once never makes it wait: that one connection was served again and again while the others
    # queued (the worker benchmark's p99 went from hundreds of milliseconds to tens; README).
    worker.sanmoku_warm()  # once; at once after this first time
    if isinstance(worker, GeventWorker):
        gevent.sleep(0)
