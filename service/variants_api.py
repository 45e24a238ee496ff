"""The variants: the presets, how to name any other, one variant's facts, and its table file."""

from __future__ import annotations

import hashlib
import json

from flask import Blueprint, Response, send_file

from .engine import NAMING, PRESETS, get_variant
from .engine.variants import MAX_CELLS, MAX_SIDE, MAX_TABLE_CELLS, MIN_K, MIN_SIDE
from .payloads import dumps, variant_detail_payload, variant_payload
from .problems import ProblemError
from .tables import SOLVE_IN_REQUEST_CELLS, get_tables, without_table_refused

bp = Blueprint("variants", __name__)


@bp.get("/variants")
def variants() -> Response:
    body = {
        "variants": [variant_payload(v) for v in PRESETS],
        "naming": NAMING,
        "limits": {
            "min_side": MIN_SIDE,
            "max_side": MAX_SIDE,
            "max_cells": MAX_CELLS,
            "max_table_cells": MAX_TABLE_CELLS,
            "min_k": MIN_K,
        },
    }
    return Response(dumps(body), mimetype="application/json")


@bp.get("/variants/<name>")
def variant(name: str) -> Response:
    found = get_variant(name)
    tables = get_tables()
    # A small table is solved on the spot, as any request for it would; a large one is only reported.
    table = None
    if found.has_table:
        table = tables.table(found) if found.cells <= SOLVE_IN_REQUEST_CELLS else tables.ready_table(found)
    return Response(dumps(variant_detail_payload(found, table)), mimetype="application/json")


@bp.get("/variants/<name>/table")
def table_file(name: str) -> Response:
    found = get_variant(name)
    table = get_tables().table(without_table_refused(found))
    if table.path is None:  # every table of the service comes from its store, so from a file
        raise ProblemError(404, "no-table-file", "No table file", f"the {found.name} table has no file")
    # The header (with the table's checksum and build time) tells one file from another.
    etag = hashlib.sha256(json.dumps(table.header, sort_keys=True).encode()).hexdigest()[:32]
    return send_file(
        table.path,
        mimetype="application/octet-stream",
        download_name=table.path.name,
        etag=etag,
        conditional=True,
        max_age=None,
    )
