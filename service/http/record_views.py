"""Game records: a move list (cells, or names such as `h8`) or a Piskvork `.psq` record, read, checked by
playing it from the empty board, and written back as both."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, request
from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..engine import (
    MAX_CELLS,
    MAX_RECORD_CHARS,
    board_variant,
    cell_name,
    cells_of,
    psq_size,
    psq_text,
    read_psq,
    replayed,
)
from .payloads import dumps
from .schemas import SIDES, CellOrName, load

bp = Blueprint("records", __name__)
DEFAULT_VARIANT = "gomoku"
FIVE = 5  # a .psq record is a game of five in a row


@dataclass(frozen=True)
class RecordParams:
    variant: str | None
    first: str
    moves: Sequence[int | str] | None
    psq: str | None


class RecordRequest(Schema):
    variant = fields.String(load_default=None, allow_none=True)
    first = fields.String(load_default="X", validate=validate.OneOf(SIDES))
    moves = fields.List(
        CellOrName(), load_default=None, allow_none=False, validate=validate.Length(max=MAX_CELLS)
    )
    psq = fields.String(load_default=None, allow_none=False, validate=validate.Length(max=MAX_RECORD_CHARS))

    @validates_schema
    def one_way(self, data: dict[str, Any], **_: Any) -> None:
        if (data.get("moves") is None) == (data.get("psq") is None):
            raise ValidationError("give the game as one of `moves` and `psq`")

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> RecordParams:
        return RecordParams(**data)


_record_request = RecordRequest()


@bp.post("/record")
def record() -> Response:
    params = load(_record_request, request.get_json(), RecordParams)
    name = params.variant
    if name is None:  # a .psq record names its board; five in a row is its game
        name = DEFAULT_VARIANT if params.psq is None else "{1}x{0}k{2}".format(*psq_size(params.psq), FIVE)
    variant = board_variant(name)
    cells = read_psq(variant, params.psq) if params.psq is not None else cells_of(variant, params.moves or ())
    final = replayed(variant, cells, params.first)
    flat = variant.layers == 1
    body = {
        "variant": variant.name,
        "first": params.first,
        "moves": cells,
        "names": [cell_name(variant, cell) for cell in cells] if flat else None,
        "psq": psq_text(variant, cells) if flat else None,
        "board": final.cells,
        "status": final.status.value,
    }
    return Response(dumps(body), mimetype="application/json")
