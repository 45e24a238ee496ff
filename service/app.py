"""The application factory, one of the two composition roots (with gunicorn_conf.py): configuration, the
engine's sources of answers, the rendered bodies kept to send again, views, errors and the middleware
around them."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import BadRequest

from .engine import BACKGROUND_BUILD_CELLS
from .http import (
    analyze_views,
    bodies,
    client_address,
    cors,
    meta_views,
    page_views,
    play_views,
    rate_limits,
    record_views,
    repeated,
    security,
    tree_views,
    variant_views,
)
from .http.body_limit import ChunkedBodyLimit
from .http.problems import register_problem_handlers
from .http.schemas import DEFAULT_BUDGET_MS, checked_default_budget
from .serving import observability, sources, streams

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 128 * 1024,
    "CACHE_CONTROL": "public, max-age=86400, immutable",
    "ACCESS_LOG": True,  # one JSON line per request on stdout
    # the contract at the repository root, shipped in the package through the symlink service/openapi.yaml
    "OPENAPI_PATH": str(Path(__file__).resolve().parent / "openapi.yaml"),
    "TABLES_DIR": None,  # None: $SANMOKU_TABLES_DIR, else ~/.cache/sanmoku/tables (platformdirs, on Linux)
    "TABLES_AT_START": "presets",  # "presets", a comma-separated string of variant names, or a list
    "BACKGROUND_BUILDS": True,  # False: a missing large table stays missing (503) until built elsewhere
    # Tables of more cells (up to 22: minutes and gigabytes) are built only by `sanmoku tables build`,
    # or at start when TABLES_AT_START names them.
    "BACKGROUND_BUILD_CELLS": BACKGROUND_BUILD_CELLS,
    # False: a missing Connect Four book (a build of 1.5 GB) is not built by this instance, but once,
    # elsewhere (docker-compose.yml's `book`); it is read as soon as it is there
    "BOOK_BUILDS": True,
    "SEARCH_SLOTS": 2,  # searches one worker runs at once (each a real thread and a 32 MB table)
    # threads one search uses, 1 or 2: the second takes the provers' second family (with a 10 MB table)
    # and half of the moves' alpha-beta searches (with a second 32 MB table per slot)
    "PROVER_THREADS": 2,
    "PROVEN_MAX_BYTES": 256 * 2**20,  # the cache of proven positions beside the tables
    # redis://host:port/db: the proven positions in one database that many hosts share; None: the
    # SQLite file beside the tables, this host's alone
    "STORE_URL": None,
    "KEPT_BODIES_BYTES": 32 * 1024 * 1024,  # rendered answers kept per process
    # Whole-table /solve streams one worker runs at once; more get 503 with Retry-After (see streams.py)
    "SOLVE_STREAMS_PER_WORKER": 4,
    "STREAM_STALL_SECONDS": 30.0,  # a stream whose client has read nothing for this long is closed
    # Each client's quota of units (rate_limits.py, docs/pages/api.md): flask-limiter's notation, or "off"
    "RATE_LIMITS": rate_limits.DEFAULT_LIMITS,
    "TRUSTED_PROXIES": 0,  # proxies in front whose X-Forwarded-For names the client (client_address.py)
    # A search's time when a request names no budget_ms: a smaller one costs less processor time per
    # request of the page and of clients that leave it out, and proves less
    "DEFAULT_BUDGET_MS": DEFAULT_BUDGET_MS,
}


class JSONRequest(Request):
    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:  # not a JSON content type: Flask answers 415
            return super().on_json_loading_failed(e)
        # Flask hides the parser's reason outside debug mode; it is the useful part.
        raise BadRequest(f"the request body is not valid JSON: {e}")


class JSONProvider(DefaultJSONProvider):
    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError as e:
            # A body of a thousand "[" is under 2 KB and exhausts the parser's stack: it is as unreadable
            # as any other malformed body, so it takes the same 400 path (a ValueError), not a 500.
            raise ValueError("nested too deeply to parse") from e


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.request_class = JSONRequest
    app.json = JSONProvider(app)
    app.config.from_mapping(DEFAULTS)
    if test_config is None:
        app.config.from_prefixed_env("SANMOKU")
        if "BODY_CACHE_BYTES" in app.config:  # the setting's first name, still read where the new one is not
            first = app.config.pop("BODY_CACHE_BYTES")
            if "SANMOKU_KEPT_BODIES_BYTES" not in os.environ:
                app.config["KEPT_BODIES_BYTES"] = first
    else:
        app.config.from_mapping(test_config)
    app.config["DEFAULT_BUDGET_MS"] = checked_default_budget(app.config["DEFAULT_BUDGET_MS"])

    sources.init_app(app)
    bodies.init_app(app)
    streams.init_app(app)
    register_problem_handlers(app)
    app.register_blueprint(analyze_views.bp)
    app.register_blueprint(variant_views.bp)
    app.register_blueprint(meta_views.bp)
    app.register_blueprint(meta_views.docs_bp)
    app.register_blueprint(play_views.bp)
    app.register_blueprint(record_views.bp)
    app.register_blueprint(tree_views.bp)
    app.register_blueprint(page_views.bp)
    rate_limits.init_app(app)
    repeated.init_app(app)
    client_address.init_app(app)
    security.init_app(app)
    app.wsgi_app = ChunkedBodyLimit(app.wsgi_app, app.config["MAX_CONTENT_LENGTH"])  # type: ignore[method-assign]
    app.wsgi_app = cors.CrossOrigin(app.wsgi_app)  # type: ignore[method-assign]
    observability.init_app(app)
    return app
