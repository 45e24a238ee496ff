"""Views for playing, reviewing and batches: load, ask the engine, dump."""

from __future__ import annotations

import time
from functools import partial
from math import perm
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import ValidationError

from ..engine import (
    DEFAULT_DEPTH,
    POLICIES,
    Answer,
    Deadline,
    EngineError,
    Position,
    Reading,
    SearchBusyError,
    TableUnavailableError,
    check_choice,
    choose_move,
    default_depth,
    get_policy,
    moves_from_columns,
    read_ahead,
    review_boards,
    review_game,
)
from ..serving.lanes import Lane, LaneBusyError
from ..serving.offload import Alongside
from ..serving.sources import get_analyst
from ..serving.streams import paced
from . import request_cost
from .answers import answer_body
from .params import AnalyzeParams, BatchParams, MoveParams, ReviewParams
from .payloads import dumps
from .play_payloads import move_choice_payload, policy_payload, review_payload
from .play_schemas import BatchRequest, MoveRequest, ReviewRequest
from .problems import busy_body, engine_problem_body, fields_problem_body, unavailable_body, with_instance
from .schemas import AnalyzeRequest, flatten, load

bp = Blueprint("play", __name__)

_move_request = MoveRequest()
_review_request = ReviewRequest()
_batch_request = BatchRequest()
_analyze_request = AnalyzeRequest()
# A batch's items are answered on the worker's one thread (table lookups and main lines: up to seconds
# for 1,000 items), so the worker's other connections are let in between them: after each 2 ms of
# items the batch waits until the loop is idle, or 2 ms at most, since a worker kept busy by other
# clients is never idle and an unbounded wait held a batch until they stopped
# (tests/bench/batch_bench.py).
BATCH_SLICE = 0.002
INLINE_SEQUENCES = 2_000  # move sequences a depth-limited read takes here (a few milliseconds at most)
MOVE_PROCESSES, MOVE_NICENESS = 2, 10  # a worker's move processes: as many as the default search slots
MOVES = Lane("move", MOVE_PROCESSES, MOVE_NICENESS)  # at the searches' priority: a depth read is one


@bp.get("/policies")
def policies() -> Response:
    body = {"policies": [policy_payload(p) for p in POLICIES.values()], "default_depth": DEFAULT_DEPTH}
    return Response(dumps(body), mimetype="application/json")


@bp.post("/move")
def move() -> Response:
    params = load(_move_request, request.get_json(), MoveParams)
    position = params.position()
    check_choice(position, params.policy, params.depth)  # before any search is spent on it
    deadline = params.deadline()
    # The depth policy reads no value: its read runs beside the search for the move's value (the
    # answer's), each within the whole budget.
    reading = None
    if get_policy(params.policy).uses_depth:
        plies = default_depth(position.geometry) if params.depth is None else params.depth
        reading = Alongside(partial(depth_move, position, plies, deadline))
    answers = request_cost.counted(get_analyst().answers(deadline, params.search_only))
    answer = answers(position)  # if it fails, the read ends on its own, within the budget

    def answered(asked: Position) -> Answer:  # the position's answer is in hand: no second search
        return answer if asked == position else answers(asked)

    if reading is None:
        cell = choose_move(answered, position, params.policy, params.depth, params.seed)
    else:
        read = reading.result()
        cell = read.cell
    payload = move_choice_payload(answer, cell, params.policy)
    if reading is not None:
        payload["read_depth"] = read.depth
    return Response(dumps(payload), mimetype="application/json")


def depth_move(position: Position, depth: int, deadline: Deadline) -> Reading:
    """The depth policy's move, read ahead as deep as `depth` while the budget lasts. A read of up to
    INLINE_SEQUENCES move sequences takes a few milliseconds and is read here; a longer one (8x8 at
    depth 3: a quarter of a second to a second of Python, which held the worker's loop) is read in one of
    the worker's move processes (`MOVES`), taken first come first served within the budget:
    SearchBusyError (503 search-busy) when none comes in time."""
    if perm(len(position.legal_moves()), depth) <= INLINE_SEQUENCES:
        return read_ahead(position, depth)
    ends = time.monotonic() + deadline.left()  # the system's clock: the process reads the same one
    try:
        reading: Reading = MOVES.run("depth", (position, depth, ends), deadline.left(), deadline.left())
    except LaneBusyError as error:
        raise SearchBusyError(str(error)) from error
    return reading


def read_move(position: Position, depth: int, ends: float) -> Reading:
    """The depth policy's read until `ends` (on `time.monotonic`): a move process's job."""
    return read_ahead(position, depth, lambda: time.monotonic() >= ends)


@bp.post("/review")
def review() -> Response:
    params = load(_review_request, request.get_json(), ReviewParams)
    variant = params.game_variant()
    answers = request_cost.counted(get_analyst().answers(params.deadline(), params.search_only))
    if params.boards is not None:
        result = review_boards(answers, params.boards, params.first, variant)
    else:
        moves = (
            params.moves
            if params.columns is None
            else moves_from_columns(params.columns, params.first, variant)
        )
        assert moves is not None  # the schema takes exactly one of the three
        result = review_game(answers, moves, params.first, variant)
    start = Position.empty(variant, params.first)
    return Response(dumps(review_payload(result, start)), mimetype="application/json")


@bp.post("/analyze/batch")
def analyze_batch() -> Response:
    batch = load(_batch_request, request.get_json(), BatchParams)
    deadline = Deadline.after(batch.budget_ms / 1000)  # one budget for the whole batch
    items = paced(enumerate(batch.positions), every=BATCH_SLICE, most=BATCH_SLICE)
    parts = [_batch_item(item, f"#/positions/{i}", deadline) for i, item in items]
    return Response(b'{"results":[' + b",".join(parts) + b"]}", mimetype="application/json")


def _batch_item(item: Any, where: str, deadline: Deadline) -> bytes:
    """One analysis, or the problem that item alone has."""
    try:
        loaded = _analyze_request.load(item)
        assert isinstance(loaded, AnalyzeParams)
        return answer_body(loaded, deadline).data
    except ValidationError as error:
        return dumps(with_instance(fields_problem_body(flatten(error.messages)), where))
    except EngineError as error:
        return dumps(with_instance(engine_problem_body(error), where))
    except TableUnavailableError as error:
        return dumps(with_instance(unavailable_body(error), where))
    except SearchBusyError as error:
        return dumps(with_instance(busy_body(error), where))
