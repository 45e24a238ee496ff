"""Request syntax only; the game's rules are the engine's to check."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from .problems import FieldsError, flatten

BOARD_MAX = 64  # far above any registered board; the engine names the exact length


class PositionRequest(Schema):
    board = fields.String(required=True, validate=validate.Length(max=BOARD_MAX))
    to_move = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["X", "O", "x", "o"]))
    variant = fields.String(load_default="normal")


class JSONBoolean(fields.Boolean):
    """Only JSON's true and false: marshmallow's Boolean also takes 0, "yes" and friends."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class AnalyzeRequest(PositionRequest):
    mainline = JSONBoolean(load_default=False)


class AnalyzeQuery(PositionRequest):
    mainline = fields.Boolean(load_default=False, truthy={"true"}, falsy={"false"})


class SolveQuery(Schema):
    variant = fields.String(load_default="normal")
    first = fields.String(load_default="X", validate=validate.OneOf(["X", "O"]))
    symmetry = fields.String(load_default="none", validate=validate.OneOf(["none", "canonical"]))
    format = fields.String(load_default="json", validate=validate.OneOf(["json", "ndjson", "csv"]))


def load(schema: Schema, data: Mapping[str, Any] | Any) -> dict[str, Any]:
    try:
        loaded: dict[str, Any] = schema.load(data)
    except ValidationError as error:
        raise FieldsError(flatten(error.messages)) from None
    return loaded
