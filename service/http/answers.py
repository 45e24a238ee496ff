"""Answers as HTTP bodies: a table's is rendered when first asked, kept (bodies.py) and sent with
its ETag; any other (from a book, proven before, or searched within the request's budget) is rendered
for its request only. Which source answers is the analyst's to decide, not this module's."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from flask import Response, current_app, request
from werkzeug.http import quote_etag
from werkzeug.utils import get_content_type

from ..engine import Deadline, Source, game_of
from ..serving.sources import get_analyst, get_supply
from . import request_cost
from .bodies import Body, get_bodies, make_body
from .params import AnalyzeParams
from .payloads import answer_payload, dumps, mainline_payload

RAW_LIMIT = 256  # longer bodies or query strings (padding, repeated fields) are answered, not kept


def answer_body(params: AnalyzeParams, shared: Deadline | None = None) -> Body:
    """The /analyze answer; `shared`: a batch's deadline, which caps the request's own budget."""
    deadline = params.deadline()  # before the position is read: the budget bounds the whole answer
    request_cost.positions()
    position = params.position()
    key = (position, params.mainline, params.estimates)  # a position is a frozen value: it keys itself
    bodies = get_bodies()
    kept = None if params.search_only else bodies.get(key)
    if kept is not None:
        return kept
    if shared is not None and shared.at < deadline.at:
        deadline = shared
    answers = request_cost.counted(get_analyst().answers(deadline, params.search_only))
    answer = answers(position)
    payload = answer_payload(answer, params.estimates, params.budget_ms)
    if params.mainline:  # only where every step is proven
        line = get_analyst().main_line(answer, answers)
        payload["mainline"] = None if line is None else mainline_payload(line)
    lasting = answer.source is Source.TABLE
    as_board = game_of(position).board  # a board's table may be replaced; a whole table is not
    table = get_supply().available(as_board(position).variant) if lasting and as_board is not None else None
    final = answer.exact and not (params.estimates and any(m.estimate is not None for m in answer.moves))
    return bodies.keep(key, make_body(dumps(payload), lasting=lasting, table=table, final=final))


def raw_key(method: str, raw: bytes | None) -> tuple[str, bytes] | None:
    """What keys a request's answer by its bytes: None when `raw` is None or too long to keep."""
    return None if raw is None or len(raw) > RAW_LIMIT else (method, raw)


def by_raw_request(method: str, raw: bytes | None, answer: Callable[[], Body]) -> Body:
    """The same bytes always ask the same question: a repeated request skips JSON, the schema and the
    engine's parse (most of an answer's time). Only answers are kept, so errors take the whole path;
    `raw` None (too long to be a key of the kept bodies) takes it too."""
    key = raw_key(method, raw)
    return answer() if key is None else get_bodies().body(key, answer)


def short_body(environ: dict[str, Any]) -> bytes | None:
    """The request body if it is short enough to be a key of the kept bodies, else
    None. Read straight from the WSGI
    input (werkzeug's stream wrapper cost more than the lookup it keys) and put back, so that the full
    path (get_json, with its limits and errors) reads the same bytes."""
    length = environ.get("CONTENT_LENGTH", "")
    if not length.isdigit() or int(length) > RAW_LIMIT:
        return None
    raw: bytes = environ["wsgi.input"].read(int(length))
    environ["wsgi.input"] = io.BytesIO(raw)
    return raw


def answer_headers(body: Body, cache_control: str) -> list[tuple[str, str]]:
    """The headers of an answer (with Flask's and the middleware's own): a final one (proven values
    only, from any source) with its strong ETag and the app's long-lived Cache-Control, anything else
    (a guess, a bound a later search may narrow) marked for no cache to keep. The view and `repeated`
    both send these."""
    headers = [
        ("Content-Type", get_content_type(body.mimetype, "utf-8")),
        ("Content-Length", str(len(body.data))),
    ]
    if body.final:
        headers += [("ETag", quote_etag(body.etag)), ("Cache-Control", cache_control)]
    else:
        headers.append(("Cache-Control", "no-store"))
    return headers


def send(body: Body, conditional: bool = False) -> Response:
    """`conditional`: a GET, which answers 304 to an If-None-Match naming a final body's ETag."""
    response = Response(body.data, headers=answer_headers(body, current_app.config["CACHE_CONTROL"]))
    # the only validator we answer; skip the work otherwise
    if conditional and body.final and "HTTP_IF_NONE_MATCH" in request.environ:
        response.make_conditional(request)
    return response
