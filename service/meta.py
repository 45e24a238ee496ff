"""Health checks, the OpenAPI document and its interactive page (Swagger UI), all served locally."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app
from flask.blueprints import BlueprintSetupState
from flask_swagger_ui import get_swaggerui_blueprint

from .payloads import dumps
from .tables import SOLVE_IN_REQUEST_CELLS, get_tables

bp = Blueprint("meta", __name__)

# Swagger UI 5 (OpenAPI 3.1), its files packaged with flask-swagger-ui: nothing comes from a CDN.
docs_bp = get_swaggerui_blueprint("/docs", "/openapi.yaml", config={"app_name": "Sanmoku API"})


@bp.record
def _read_spec(state: BlueprintSetupState) -> None:
    # Read at start-up: a server without its contract fails to start, instead of passing /readyz
    # and answering 500 at /openapi.yaml (as a plain install once did).
    state.app.extensions["sanmoku.openapi"] = Path(state.app.config["OPENAPI_PATH"]).read_bytes()


@bp.get("/healthz")
def healthz() -> Response:
    return Response(dumps({"status": "ok"}), mimetype="application/json")


@bp.get("/readyz")
def readyz() -> Response:
    """Ready once every table named by TABLES_AT_START is open (small ones are solved here; a large one
    whose file is missing or bad is queued for the builder, and the report says what it waits for)."""
    tables = get_tables()
    report: dict[str, dict[str, object]] = {}
    for variant in tables.at_start:
        small = variant.cells <= SOLVE_IN_REQUEST_CELLS
        table = tables.table(variant) if small else tables.ready_table(variant)
        if table is None:
            tables.request_builds([variant])
            report[variant.name] = {
                "ready": False,
                "positions": None,
                "waiting": tables.queue.waiting(variant).reason,
            }
        else:
            report[variant.name] = {"ready": True, "positions": table.positions}
    ready = all(entry["ready"] for entry in report.values())
    body = {"status": "ready" if ready else "starting", "tables": report, "bodies": tables.cached_bodies()}
    return Response(dumps(body), status=200 if ready else 503, mimetype="application/json")


@bp.get("/openapi.yaml")
def openapi() -> Response:
    return Response(current_app.extensions["sanmoku.openapi"], mimetype="application/yaml")
