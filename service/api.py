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
_ANALYZE_FIELDS = tuple(_analyze_request.fields)


def tables() -> Prepared:
    prepared: Prepared = current_app.extensions["sanmoku"]
    return prepared


def position_from(data: dict[str, Any]) -> Position:
    return Position.parse(data["board"], data["to_move"], get_variant(data["variant"]))


def analysis_body(data: dict[str, Any]) -> Body:
    return tables().analysis(position_from(data), data["mainline"])


_MISSING = object()
_PLAIN = frozenset({str, bool, type(None)})
CACHE_LIMIT = 20_000  # raw spellings per endpoint; the canonical ones are 2 x 2 x 5,478
QUERY_LIMIT = 256  # longer query strings (repeated fields, say) are answered but not kept


class BodyCache:
    """Raw request -> the prepared body it led to, filled on first success, so that a repeated
    request skips the schema and the engine's parse (most of an answer's time). Only answers are
    kept: a request that fails goes the whole way every time, so every error stays as it was."""

    def __init__(self) -> None:
        self.bodies: dict[object, Body] = {}

    def get(self, key: object | None, answer: Callable[[], Body]) -> Body:
        body = None if key is None else self.bodies.get(key)
        if body is None:
            body = answer()
            if key is not None and len(self.bodies) < CACHE_LIMIT:
                self.bodies[key] = body
        return body


def json_key(data: Any, names: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The fields of a JSON body as a key, or None for anything the schema must look at: not an
    object, unknown fields, or a value other than a string, a boolean or null (in Python 1 == True,
    yet JSON's 1 must still fail the schema)."""
    if not isinstance(data, dict) or not data.keys() <= frozenset(names):
        return None
    key = tuple(data.get(name, _MISSING) for name in names)
    return key if all(v is _MISSING or type(v) in _PLAIN for v in key) else None


def query_key() -> bytes | None:
    """The raw query string: the same bytes always parse to the same arguments."""
    raw = request.query_string
    return raw if len(raw) <= QUERY_LIMIT else None


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
        response.make_conditional(request)
    return response


@bp.post("/analyze")
def analyze_post() -> Response:
    data = request.get_json()
    key = json_key(data, _ANALYZE_FIELDS)
    return send(cached("POST").get(key, lambda: analysis_body(load(_analyze_request, data))))


@bp.get("/analyze")
def analyze_get() -> Response:
    answer = cached("GET").get(query_key(), lambda: analysis_body(load(_analyze_query, request.args)))
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
