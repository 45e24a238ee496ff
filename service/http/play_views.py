"""Views for playing, reviewing and batches: load, ask the engine, dump."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import ValidationError

from ..engine import (
    DEFAULT_DEPTH,
    POLICIES,
    EngineError,
    Position,
    choose_move,
    get_variant,
    review_boards,
    review_game,
)
from ..engine.analyst import SearchBusyError
from ..engine.answer import Answer
from ..engine.play.policies import check_choice, choose_from_answer
from ..engine.play.review import moves_from_columns
from ..engine.search.native import monotonic
from ..serving.searches import get_analyst
from ..serving.streams import paced
from ..serving.tables import get_tables
from .answers import analysis_body, position_from, search_request
from .payloads import dumps
from .play_payloads import move_choice_payload, policy_payload, review_payload
from .play_schemas import BatchRequest, MoveRequest, ReviewRequest
from .problems import busy_body, engine_problem_body, fields_problem_body, unavailable_body, with_instance
from .schemas import AnalyzeRequest, flatten, load
from .table_errors import TableUnavailableError

bp = Blueprint("play", __name__)

_move_request = MoveRequest()
_review_request = ReviewRequest()
_batch_request = BatchRequest()
_analyze_request = AnalyzeRequest()
# A batch's items are answered on the worker's one thread (table lookups and main lines: up to seconds
# for 1,000 items), so the worker's other connections are let in between them: after each 2 ms of
# items the batch waits until the loop is idle, or 2 ms at most, since a worker kept busy by other
# clients is never idle and an unbounded wait held a batch until they stopped (issue 20, item 6;
# tests/bench/batch_bench.py).
BATCH_SLICE = 0.002


@bp.get("/policies")
def policies() -> Response:
    body = {"policies": [policy_payload(p) for p in POLICIES.values()], "default_depth": DEFAULT_DEPTH}
    return Response(dumps(body), mimetype="application/json")


@bp.post("/move")
def move() -> Response:
    data = load(_move_request, request.get_json())
    position = position_from(data)
    check_choice(position, data["policy"], data["depth"])  # before any search is spent on it
    table = None if data["source"] == "search" else get_tables().available(position.variant)
    if table is not None:
        cell = choose_move(table, position, data["policy"], data["depth"], data["seed"])
        answer = Answer.of_table(table.analyze(position))
    else:
        answer = get_analyst().analyze(position, search_request(data))
        cell = choose_from_answer(answer, data["policy"], data["depth"], data["seed"])
    return Response(dumps(move_choice_payload(answer, cell, data["policy"])), mimetype="application/json")


@bp.post("/review")
def review() -> Response:
    data = load(_review_request, request.get_json())
    variant = get_variant(data["variant"])
    table = None if data["source"] == "search" else get_tables().available(variant)
    answers = table if table is not None else shared_budget(data)
    if data["boards"] is not None:
        result = review_boards(answers, data["boards"], data["first"], variant)
    else:
        moves = (
            data["moves"]
            if data["columns"] is None
            else moves_from_columns(data["columns"], data["first"], variant)
        )
        result = review_game(answers, moves, data["first"], variant)
    start = Position.empty(variant, data["first"])
    return Response(dumps(review_payload(result, start)), mimetype="application/json")


@bp.post("/analyze/batch")
def analyze_batch() -> Response:
    batch = load(_batch_request, request.get_json())
    deadline = monotonic() + batch["budget_ms"] / 1000  # one budget for the whole batch
    items = paced(enumerate(batch["positions"]), every=BATCH_SLICE, most=BATCH_SLICE)
    parts = [_batch_item(item, f"#/positions/{i}", deadline) for i, item in items]
    return Response(b'{"results":[' + b",".join(parts) + b"]}", mimetype="application/json")


def shared_budget(data: dict[str, Any]) -> Callable[[Position], Answer]:
    """Answers from the analyst for positions asked one after another, all within the request's budget."""
    deadline = monotonic() + data["budget_ms"] / 1000
    analyst = get_analyst()
    return lambda position: analyst.analyze(position, search_request(data, deadline - monotonic()))


def _batch_item(item: Any, where: str, deadline: float) -> bytes:
    """One analysis, or the problem that item alone has."""
    try:
        data = _analyze_request.load(item)
        return analysis_body(position_from(data), data, deadline - monotonic()).data
    except ValidationError as error:
        return dumps(with_instance(fields_problem_body(flatten(error.messages)), where))
    except EngineError as error:
        return dumps(with_instance(engine_problem_body(error), where))
    except TableUnavailableError as error:
        return dumps(with_instance(unavailable_body(error), where))
    except SearchBusyError as error:
        return dumps(with_instance(busy_body(error), where))
