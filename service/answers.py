"""Answers rendered from the tables when asked, kept in the app's body cache, and sent with their ETag."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request

from .engine import Position, get_variant, main_line
from .payloads import analysis_payload, dumps, mainline_payload
from .tables import Body, get_tables, make_body

RAW_LIMIT = 256  # longer bodies or query strings (padding, repeated fields) are answered, not kept


def position_from(data: dict[str, Any]) -> Position:
    return Position.parse(data["board"], data["to_move"], get_variant(data["variant"]))


def analysis_body(position: Position, mainline: bool = False) -> Body:
    """The /analyze answer for `position`, rendered once and then kept in the body cache."""
    tables = get_tables()
    key = ("analysis", position.variant, position.x, position.o, position.to_move, mainline)

    def render() -> Body:
        table = tables.table(position.variant)
        payload = analysis_payload(table.analyze(position))
        if mainline:
            payload["mainline"] = mainline_payload(main_line(table, position))
        return make_body(dumps(payload))

    return tables.body(key, render)


def by_raw_request(method: str, raw: bytes | None, answer: Callable[[], Body]) -> Body:
    """The same bytes always ask the same question: a repeated request skips JSON, the schema and the
    engine's parse (most of an answer's time). Only answers are kept, so errors take the whole path;
    `raw` None (too long to key the cache) takes it too."""
    if raw is None or len(raw) > RAW_LIMIT:
        return answer()
    return get_tables().body((method, raw), answer)


def short_body(environ: dict[str, Any]) -> bytes | None:
    """The request body if it is short enough to key the cache, else None. Read straight from the WSGI
    input (werkzeug's stream wrapper cost more than the lookup it keys) and put back, so that the full
    path (get_json, with its limits and errors) reads the same bytes."""
    length = environ.get("CONTENT_LENGTH", "")
    if not length.isdigit() or int(length) > RAW_LIMIT:
        return None
    raw: bytes = environ["wsgi.input"].read(int(length))
    environ["wsgi.input"] = io.BytesIO(raw)
    return raw


def send(body: Body, cacheable: bool = False) -> Response:
    response = Response(body.data, mimetype=body.mimetype)
    if cacheable:
        response.set_etag(body.etag)
        response.headers["Cache-Control"] = current_app.config["CACHE_CONTROL"]
        if "HTTP_IF_NONE_MATCH" in request.environ:  # the only validator we answer; skip the work otherwise
            response.make_conditional(request)
    return response
