"""Request syntax for playing, reviewing and batches; the engine checks the game's rules."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..engine import MAX_CELLS
from .params import BatchParams, MoveParams, ReviewParams
from .schemas import (
    BOARD_MAX,
    MAX_BUDGET_MS,
    SIDES,
    CellOrName,
    JSONInteger,
    PositionRequest,
    SearchOptions,
    default_budget_ms,
)

BATCH_MAX = 1000
GAME_FIELDS = ("moves", "boards", "columns")  # the ways a review takes a game
GAME_MAX = MAX_CELLS  # the longest game of the largest board; the engine names the ply that fails


class MoveRequest(PositionRequest, SearchOptions):
    policy = fields.String(required=True)
    depth = JSONInteger(load_default=None, allow_none=True)
    seed = JSONInteger(load_default=None, allow_none=True)

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> MoveParams:
        return MoveParams(**data)


class ReviewRequest(SearchOptions):
    moves = fields.List(
        CellOrName(), load_default=None, allow_none=False, validate=validate.Length(max=GAME_MAX)
    )
    boards = fields.List(
        fields.String(validate=validate.Length(max=BOARD_MAX)),
        load_default=None,
        allow_none=False,
        validate=validate.Length(max=GAME_MAX),
    )
    variant = fields.String(load_default="normal")
    first = fields.String(load_default="X", validate=validate.OneOf(SIDES))

    columns = fields.List(
        JSONInteger(), load_default=None, allow_none=False, validate=validate.Length(max=GAME_MAX)
    )

    @validates_schema
    def one_way(self, data: dict[str, Any], **_: Any) -> None:
        # The spec says the same with oneOf: exactly one of the three.
        if sum(data.get(way) is not None for way in GAME_FIELDS) != 1:
            raise ValidationError("give the game as one of `moves`, `boards` and `columns` (gravity boards)")

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> ReviewParams:
        return ReviewParams(**data)


class BatchRequest(Schema):
    # Items are checked one by one, so one bad item (null included) does not fail the rest.
    positions = fields.List(
        fields.Raw(allow_none=True), required=True, validate=validate.Length(min=1, max=BATCH_MAX)
    )
    budget_ms = JSONInteger(load_default=default_budget_ms, validate=validate.Range(1, MAX_BUDGET_MS))

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> BatchParams:
        return BatchParams(**data)
