"""The analysis views: load the request, ask the engine, answer with prepared bytes."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, request

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
    return send(analysis_body(load(_analyze_request, request.get_json())))


@bp.get("/analyze")
def analyze_get() -> Response:
    return send(analysis_body(load(_analyze_query, request.args)), cacheable=True)


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
