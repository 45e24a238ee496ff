"""Answers: a table's rendered when first asked, kept in the app's body cache and sent with its ETag; any
other (proven before, or searched within the request's budget) rendered for its request only."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request

from ..engine import Position, get_variant, main_line
from ..engine.analyst import Request
from ..engine.answer import Answer
from ..engine.play.mainline import proven_line
from ..engine.search import Budget
from ..engine.search.native import monotonic
from ..serving.searches import get_analyst
from ..serving.tables import Body, get_tables, make_body
from .payloads import analysis_payload, dumps, mainline_payload

RAW_LIMIT = 256  # longer bodies or query strings (padding, repeated fields) are answered, not kept


def position_from(data: dict[str, Any]) -> Position:
    return Position.parse(data["board"], data["to_move"], get_variant(data["variant"]))


def search_request(data: dict[str, Any], seconds: float | None = None) -> Request:
    """The search options of a request; `seconds` (what is left of a shared budget) caps its own."""
    budget = data["budget_ms"] / 1000 if seconds is None else min(seconds, data["budget_ms"] / 1000)
    return Request(Budget(max(0.0, budget)), data["source"] == "search")


def analysis_body(position: Position, data: dict[str, Any], seconds: float | None = None) -> Body:
    """The /analyze answer for `position`: a table's rendered once and then kept in the body cache, any
    other rendered for this request (`seconds`: what is left of a batch's budget)."""
    tables = get_tables()
    mainline = data["mainline"]
    table = None if data["source"] == "search" else tables.available(position.variant)
    if table is not None:
        key = ("analysis", position.variant, position.x, position.o, position.to_move, mainline)

        def render() -> Body:
            payload = analysis_payload(Answer.of_table(table.analyze(position)), data["estimates"])
            if mainline:
                payload["mainline"] = mainline_payload(main_line(table, position))
            return make_body(dumps(payload))

        return tables.body(key, render)
    deadline = monotonic() + search_request(data, seconds).budget.seconds  # type: ignore[operator]
    analyst = get_analyst()

    def analyze(at: Position) -> Answer:
        return analyst.analyze(at, search_request(data, deadline - monotonic()))

    answer = analyze(position)
    payload = analysis_payload(answer, data["estimates"], data["budget_ms"])
    if mainline:  # only where every step is proven
        line = proven_line(analyze, position, answer) if answer.exact else None
        payload["mainline"] = None if line is None else mainline_payload(line)
    return make_body(dumps(payload), lasting=False)


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
    """The body as a response; a `cacheable` one (if lasting: a table's answer) with its ETag and the
    app's Cache-Control, anything else marked for no cache to keep (a search may prove more later)."""
    response = Response(body.data, mimetype=body.mimetype)
    if not body.lasting:
        response.headers["Cache-Control"] = "no-store"
    elif cacheable:
        response.set_etag(body.etag)
        response.headers["Cache-Control"] = current_app.config["CACHE_CONTROL"]
        if "HTTP_IF_NONE_MATCH" in request.environ:  # the only validator we answer; skip the work otherwise
            response.make_conditional(request)
    return response
