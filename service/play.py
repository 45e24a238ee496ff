"""Views for playing, reviewing and batches: load, ask the engine, dump."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request
from marshmallow import ValidationError

from .api import analysis_body, position_from, tables
from .engine import EngineError, Position, get_variant
from .engine.policies import choose_move
from .engine.review import review_boards, review_game
from .payloads import dumps, move_choice_payload, review_payload
from .play_schemas import BatchRequest, MoveRequest, ReviewRequest
from .problems import engine_problem_body, fields_problem_body, flatten, with_instance
from .schemas import AnalyzeRequest, load

bp = Blueprint("play", __name__)

_move_request = MoveRequest()
_review_request = ReviewRequest()
_batch_request = BatchRequest()
_analyze_request = AnalyzeRequest()


@bp.post("/move")
def move() -> Response:
    data = load(_move_request, request.get_json())
    position = position_from(data)
    solver = tables().solvers[position.variant.name]
    cell = choose_move(solver, position, data["policy"], data["depth"], data["seed"])
    value = next(m.value for m in solver.analyze(position).moves if m.cell == cell)
    return Response(
        dumps(move_choice_payload(position, cell, value, data["policy"])), mimetype="application/json"
    )


@bp.post("/review")
def review() -> Response:
    data = load(_review_request, request.get_json())
    variant = get_variant(data["variant"])
    solver = tables().solvers[variant.name]
    if data["moves"] is not None:
        result = review_game(solver, data["moves"], data["first"])
    else:
        result = review_boards(solver, data["boards"], data["first"])
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
        return analysis_body(_analyze_request.load(item)).data
    except ValidationError as error:
        return dumps(with_instance(fields_problem_body(flatten(error.messages)), where))
    except EngineError as error:
        return dumps(with_instance(engine_problem_body(error), where))
