"""The analysis views: load the request, ask the engine, answer with prepared bytes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, request
from flask.blueprints import BlueprintSetupState

from .engine import VARIANTS, Position, get_variant
from .payloads import dumps, variant_payload
from .prepared import Body, Prepared
from .schemas import AnalyzeQuery, AnalyzeRequest, SolveQuery, load

bp = Blueprint("api", __name__)

_analyze_request = AnalyzeRequest()
_analyze_query = AnalyzeQuery()
_solve_query = SolveQuery()


def tables() -> Prepared:
    prepared: Prepared = current_app.extensions["sanmoku"]
    return prepared


def position_from(data: dict[str, Any]) -> Position:
    return Position.parse(data["board"], data["to_move"], get_variant(data["variant"]))


def analysis_body(data: dict[str, Any]) -> Body:
    return tables().analysis(position_from(data), data["mainline"])


CACHE_LIMIT = 20_000  # raw spellings per endpoint; the canonical ones are 2 x 2 x 5,478
RAW_LIMIT = 256  # longer bodies or query strings (padding, repeated fields) are answered, not kept


class BodyCache:
    """Raw request -> the prepared body it led to, filled on first success, so that a repeated
    request skips JSON parsing, the schema and the engine's parse (most of an answer's time). The
    same bytes always parse to the same fields. Only answers are kept: a request that fails goes the
    whole way every time, so every error stays as it was."""

    def __init__(self) -> None:
        self.bodies: dict[bytes, Body] = {}

    def get(self, raw: bytes, answer: Callable[[], Body]) -> Body:
        body = self.bodies.get(raw) if len(raw) <= RAW_LIMIT else None
        if body is None:
            body = answer()
            if len(raw) <= RAW_LIMIT and len(self.bodies) < CACHE_LIMIT:
                self.bodies[raw] = body
        return body


@bp.record
def _add_caches(state: BlueprintSetupState) -> None:
    # one per app, as the tables are: an app whose tables differ (tests) never sees another's bodies
    state.app.extensions["sanmoku.bodies"] = {"POST": BodyCache(), "GET": BodyCache()}


def cached(method: str) -> BodyCache:
    cache: BodyCache = current_app.extensions["sanmoku.bodies"][method]
    return cache


def send(body: Body, cacheable: bool = False) -> Response:
    response = Response(body.data, mimetype=body.mimetype)
    if body.encoding:
        response.headers["Content-Encoding"] = body.encoding
    if cacheable:
        response.set_etag(body.etag)
        response.headers["Cache-Control"] = current_app.config["CACHE_CONTROL"]
        if "HTTP_IF_NONE_MATCH" in request.environ:  # the only validator we answer; skip the work otherwise
            response.make_conditional(request)
    return response


def analyze_json() -> Body:
    return analysis_body(load(_analyze_request, request.get_json()))


@bp.post("/analyze")
def analyze_post() -> Response:
    # Plain "application/json" is a string compare; any other type takes the full path (and its 415).
    if request.environ.get("CONTENT_TYPE") != "application/json" and not request.is_json:
        return send(analyze_json())
    return send(cached("POST").get(request.get_data(cache=True), analyze_json))


@bp.get("/analyze")
def analyze_get() -> Response:
    answer = cached("GET").get(
        request.query_string, lambda: analysis_body(load(_analyze_query, request.args))
    )
    return send(answer, cacheable=True)


@bp.get("/solve")
def solve() -> Response:
    query = load(_solve_query, request.args)
    variant = get_variant(query["variant"])
    bodies = tables().solve(variant.name, query["first"], query["symmetry"], query["format"])
    wants_gzip = request.accept_encodings["gzip"] > 0
    response = send(bodies.gzip if wants_gzip else bodies.plain, cacheable=True)
    response.vary.add("Accept-Encoding")
    return response


@bp.get("/variants")
def variants() -> Response:
    body = dumps({"variants": [variant_payload(v) for v in VARIANTS.values()]})
    return Response(body, mimetype="application/json")
