"""The analysis views: load the request, ask the engine, send the answer (`/analyze`) or stream the
variant's whole table (`/solve`)."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request

from ..engine import board_variant, file_size
from ..serving.sources import get_supply
from ..serving.streams import RETRY_AFTER, get_streams, paced
from .answers import answer_body, by_raw_request, send, short_body
from .bodies import Body, MadeFrom, get_bodies
from .params import AnalyzeParams, SolveParams
from .problems import ProblemError, problem
from .schemas import AnalyzeQuery, AnalyzeRequest, SolveQuery, load
from .solve_formats import (
    MEDIA_TYPES,
    WHOLE_BODY_POSITIONS,
    SolveRequest,
    gzipped,
    render,
)

bp = Blueprint("api", __name__)

_analyze_request = AnalyzeRequest()
_analyze_query = AnalyzeQuery()
_solve_query = SolveQuery()


def analyze_json() -> Body:
    return answer_body(load(_analyze_request, request.get_json(), AnalyzeParams))


def analyze_query() -> Body:
    return answer_body(load(_analyze_query, request.args, AnalyzeParams))


@bp.post("/analyze")
def analyze_post() -> Response:
    # Plain "application/json" is a string compare; any other type takes the full path (and its 415).
    if request.environ.get("CONTENT_TYPE") != "application/json" and not request.is_json:
        return send(analyze_json())
    return send(by_raw_request("POST", short_body(request.environ), analyze_json))


@bp.get("/analyze")
def analyze_get() -> Response:
    return send(by_raw_request("GET", request.query_string, analyze_query), conditional=True)


@bp.get("/solve")
def solve() -> Response:
    query = load(_solve_query, request.args, SolveParams)
    variant = board_variant(query.variant)
    wanted = SolveRequest(get_supply().table(variant), query.first, query.symmetry, query.format)
    refusal = wanted.refusal()
    if refusal is not None:
        raise ProblemError(422, "too-large-for-json", "Too large for one JSON document", refusal, "format")
    encoding = "gzip" if request.accept_encodings["gzip"] > 0 else None
    etag = wanted.etag(encoding)
    headers = {"Cache-Control": current_app.config["CACHE_CONTROL"], "Vary": "Accept-Encoding"}
    if encoding:
        headers["Content-Encoding"] = encoding
    if request.if_none_match.contains(etag):
        response = Response(status=304, headers=headers)
        response.headers.pop("Content-Encoding", None)  # a 304 has no body to encode
    elif wanted.table.positions <= WHOLE_BODY_POSITIONS:
        # A small table's answer is rendered once and kept (a few hundred kilobytes at most), with its
        # length known: repeated requests cost a lookup, and caches in front can keep it.
        key = ("solve", variant, wanted.first, wanted.symmetry, wanted.format, encoding)
        body = get_bodies().body(
            key,
            lambda: Body(b"".join(pieces(wanted, encoding)), "", etag, made_from=MadeFrom.of(wanted.table)),
        )
        response = Response(body.data, mimetype=MEDIA_TYPES[wanted.format], headers=headers)
    else:
        stream = get_streams().open(pieces(wanted, encoding), request.environ)
        if stream is None:
            return too_many_streams(wanted)
        response = Response(stream, mimetype=MEDIA_TYPES[wanted.format], headers=headers)
        # nginx relays it as it comes instead of spooling it to disk for a client that reads slowly
        response.headers["X-Accel-Buffering"] = "no"
    response.set_etag(etag)
    return response


def pieces(wanted: SolveRequest, encoding: str | None) -> Iterator[bytes]:
    # Paced before gzip: the compressor swallows several pieces before it gives out bytes.
    rendered = paced(render(wanted))
    return gzipped(rendered) if encoding else rendered


def too_many_streams(wanted: SolveRequest) -> Response:
    name = wanted.table.variant.name
    size = file_size(wanted.table.variant) / 1e6
    detail = (
        f"this worker streams {get_streams().limit} whole tables already, as many as it runs at once: "
        f"ask again in {RETRY_AFTER} s, or GET /variants/{name}/table for the same table as one "
        f"{size:,.1f} MB file"
    )
    response = problem(503, "Too many streams", detail, "too-many-streams", retry_after=RETRY_AFTER)
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response
