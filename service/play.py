"""Views for playing, reviewing and batches: load, ask the engine, dump."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request
from marshmallow import ValidationError

from .answers import analysis_body, position_from
from .engine import (
    DEFAULT_DEPTH,
    POLICIES,
    EngineError,
    Position,
    choose_move,
    get_variant,
    review_boards,
    review_game,
)
from .payloads import dumps, move_choice_payload, policy_payload, review_payload
from .play_schemas import BatchRequest, MoveRequest, ReviewRequest
from .problems import engine_problem_body, fields_problem_body, unavailable_body, with_instance
from .schemas import AnalyzeRequest, flatten, load
from .tables import TableUnavailableError, get_tables

bp = Blueprint("play", __name__)

_move_request = MoveRequest()
_review_request = ReviewRequest()
_batch_request = BatchRequest()
_analyze_request = AnalyzeRequest()


@bp.get("/policies")
def policies() -> Response:
    body = {"policies": [policy_payload(p) for p in POLICIES.values()], "default_depth": DEFAULT_DEPTH}
    return Response(dumps(body), mimetype="application/json")


@bp.post("/move")
def move() -> Response:
    data = load(_move_request, request.get_json())
    position = position_from(data)
    table = get_tables().table(position.variant)
    cell = choose_move(table, position, data["policy"], data["depth"], data["seed"])
    value = next(m.value for m in table.analyze(position).moves if m.cell == cell)
    return Response(
        dumps(move_choice_payload(position, cell, value, data["policy"])), mimetype="application/json"
    )


@bp.post("/review")
def review() -> Response:
    data = load(_review_request, request.get_json())
    variant = get_variant(data["variant"])
    table = get_tables().table(variant)
    if data["moves"] is not None:
        result = review_game(table, data["moves"], data["first"])
    else:
        result = review_boards(table, data["boards"], data["first"])
    start = Position.empty(variant, data["first"])
    return Response(dumps(review_payload(result, start)), mimetype="application/json")


@bp.post("/analyze/batch")
def analyze_batch() -> Response:
    items = load(_batch_request, request.get_json())["positions"]
    parts = [_batch_item(item, f"#/positions/{i}") for i, item in enumerate(items)]
    return Response(b'{"results":[' + b",".join(parts) + b"]}", mimetype="application/json")


def _batch_item(item: Any, where: str) -> bytes:
    """One analysis, or the problem that item alone has."""
    try:
        data = _analyze_request.load(item)
        return analysis_body(position_from(data), data["mainline"]).data
    except ValidationError as error:
        return dumps(with_instance(fields_problem_body(flatten(error.messages)), where))
    except EngineError as error:
        return dumps(with_instance(engine_problem_body(error), where))
    except TableUnavailableError as error:
        return dumps(with_instance(unavailable_body(error), where))
