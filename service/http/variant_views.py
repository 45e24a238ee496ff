"""The variants: the presets, how to name any other, one variant's facts, and its table file."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

from flask import Blueprint, Response, request

from ..engine import (
    GRID,
    LISTED,
    MAX_CELLS,
    MAX_SIDE,
    MAX_TABLE_CELLS,
    MIN_K,
    MIN_SIDE,
    NAME_FORM,
    NAMING,
    Table,
    file_name,
    get_variant,
    listed_games,
    mapped_file,
)
from ..serving.sources import get_supply
from ..serving.streams import get_streams, paced
from .payloads import dumps, variant_detail_payload, variant_payload
from .problems import ProblemError
from .ranges import Representation, respond
from .schemas import MAX_BUDGET_MS, default_budget_ms

bp = Blueprint("variants", __name__)


@bp.get("/variants")
def variants() -> Response:
    body = {
        "variants": [variant_payload(v, get_supply().described(v)) for v in LISTED],
        "naming": NAMING,
        "name_form": NAME_FORM,
        "limits": {
            "min_side": MIN_SIDE,
            "max_side": MAX_SIDE,
            "max_cells": MAX_CELLS,
            "max_table_cells": MAX_TABLE_CELLS,
            "min_k": MIN_K,
            "default_budget_ms": default_budget_ms(),
            "max_budget_ms": MAX_BUDGET_MS,
        },
        "games": [
            {"name": game.name, "rules": game.rules.rules} for game in listed_games() if game.view != GRID
        ],
    }
    return Response(dumps(body), mimetype="application/json")


@bp.get("/variants/<name>")
def variant(name: str) -> Response:
    found = get_variant(name)
    table = get_supply().described(found)
    return Response(dumps(variant_detail_payload(found, table)), mimetype="application/json")


@bp.get("/variants/<name>/table")
def table_file(name: str) -> Response:
    """The file the table was opened from, as RFC 9110 serves a representation (service/ranges.py):
    its bytes and its ETag come from one mapping, so a file replaced or removed meanwhile cannot pair
    new bytes with an old ETag (the store opens the new file within RECHECK_SECONDS)."""
    found = get_variant(name)
    table = get_supply().table_on_disk(found)
    data = mapped_file(table)
    if data is None:  # a small table solved in memory: its file could not be written here
        detail = f"the {found.name} table has no file on this server: {get_supply().store.unbuildable(found)}"
        raise ProblemError(503, "table-not-built", "Table not built", detail)
    # The header (with the table's checksum and build time) tells one file from another.
    etag = hashlib.sha256(json.dumps(table.header, sort_keys=True).encode()).hexdigest()[:32]
    headers = {"Content-Disposition": f"inline; filename={file_name(found)}", "Cache-Control": "no-cache"}
    representation = Representation(data, etag, "application/octet-stream", headers)
    return respond(
        representation,
        request,
        lambda pieces: get_streams().watched(paced(unchanged(pieces, table)), request.environ),
    )


def unchanged(pieces: Iterator[bytes], table: Table) -> Iterator[bytes]:
    """The pieces of the table's file (copies of its mapping), each checked after its copy to be the
    bytes that were verified: a file written into while it is sent stops the transfer short
    (TableChangedError), so the client sees a broken download, never new bytes under the old ETag."""
    for piece in pieces:
        table.check_unchanged()
        yield piece
