"""Request syntax only; the game's rules (boards, variants, depths) are the engine's to check."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

from flask import current_app, has_app_context
from marshmallow import Schema, ValidationError, fields, post_load, validate

from .params import AnalyzeParams, SolveParams
from .problems import FieldsError
from .solve_formats import FORMATS, SYMMETRIES

T = TypeVar("T")

BOARD_MAX = 512  # above any supported board (20x20 with its separators: 419); the engine names the size
SIDES = ("X", "O")
DEFAULT_BUDGET_MS, MAX_BUDGET_MS = 1000, 10_000  # a search's time per request (and per batch)
SOURCES = ("auto", "search")  # auto: the table, else a proven position, else a search; search: a search


def default_budget_ms() -> int:
    """A request's budget when it names none: the app's DEFAULT_BUDGET_MS setting, or DEFAULT_BUDGET_MS
    outside an app (the CLI loads the same schemas)."""
    return int(current_app.config["DEFAULT_BUDGET_MS"]) if has_app_context() else DEFAULT_BUDGET_MS


def checked_default_budget(value: object) -> int:
    """The DEFAULT_BUDGET_MS setting when it is a budget a request could name, else a ValueError."""
    if type(value) is not int or not 1 <= value <= MAX_BUDGET_MS:
        raise ValueError(f"DEFAULT_BUDGET_MS is a number of milliseconds, 1 to {MAX_BUDGET_MS}: {value!r}")
    return value


def flatten(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """marshmallow nests messages for list items; clients get flat dotted paths."""
    if isinstance(messages, Mapping):
        out: dict[str, list[str]] = {}
        for key, value in messages.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            out.update(flatten(value, path))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return {prefix or "_schema": list(messages)}
    if isinstance(messages, list):
        return flatten(dict(enumerate(messages)), prefix)
    return {prefix or "_schema": [str(messages)]}


class JSONBoolean(fields.Boolean):
    """Only JSON's true and false: marshmallow's Boolean also takes 0, "yes" and friends."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class JSONInteger(fields.Integer):
    """A JSON Schema integer: 3 and 3.0 alike, but never true, "3" or 3.5."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        number: int = super()._deserialize(value, attr, data, **kwargs)
        return number


CELL_NAME = re.compile(r"[a-tA-T][0-9]{1,2}")  # as the spec's CellName: a column letter, a row number
CELL_NAME_MAX = 8  # of a wrong name, the characters a message quotes


class CellOrName(fields.Field[int | str]):
    """A move: its cell (a JSON integer) or, on a flat board, its name as players write it (`h8`), which
    the engine reads on the board (notation.py)."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> int | str:
        if isinstance(value, str):
            if CELL_NAME.fullmatch(value) is None:
                raise ValidationError(f"{value[:CELL_NAME_MAX]!r} is not a cell's name such as h8")
            return value
        cell: int = JSONInteger()._deserialize(value, attr, data, **kwargs)
        return cell


class PositionRequest(Schema):
    board = fields.String(required=True, validate=validate.Length(max=BOARD_MAX))
    to_move = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["X", "O", "x", "o"]))
    variant = fields.String(load_default="normal")


class SearchOptions(Schema):
    """How far a search may go for an answer a table does not give."""

    budget_ms = JSONInteger(load_default=default_budget_ms, validate=validate.Range(1, MAX_BUDGET_MS))
    source = fields.String(load_default="auto", validate=validate.OneOf(SOURCES))
    estimates = JSONBoolean(load_default=False)


class SearchQuery(Schema):
    """SearchOptions in a query string."""

    budget_ms = fields.Integer(load_default=default_budget_ms, validate=validate.Range(1, MAX_BUDGET_MS))
    source = fields.String(load_default="auto", validate=validate.OneOf(SOURCES))
    estimates = fields.Boolean(load_default=False, truthy={"true"}, falsy={"false"})


class AnalyzeRequest(PositionRequest, SearchOptions):
    mainline = JSONBoolean(load_default=False)

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> AnalyzeParams:
        return AnalyzeParams(**data)


class AnalyzeQuery(PositionRequest, SearchQuery):
    mainline = fields.Boolean(load_default=False, truthy={"true"}, falsy={"false"})

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> AnalyzeParams:
        return AnalyzeParams(**data)


class SolveQuery(Schema):
    variant = fields.String(load_default="normal")
    first = fields.String(load_default="X", validate=validate.OneOf(SIDES))
    symmetry = fields.String(load_default="none", validate=validate.OneOf(list(SYMMETRIES)))
    format = fields.String(load_default="json", validate=validate.OneOf(FORMATS))

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> SolveParams:
        return SolveParams(**data)


def load(schema: Schema, data: Mapping[str, Any] | Any, kind: type[T]) -> T:
    """The request's fields as a `kind`; FieldsError naming every field that fails its syntax."""
    try:
        loaded = schema.load(data)
    except ValidationError as error:
        raise FieldsError(flatten(error.messages)) from None
    assert isinstance(loaded, kind)
    return loaded
