"""Health checks, the OpenAPI document and its interactive page (Swagger UI), all served locally."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app
from flask.blueprints import BlueprintSetupState
from flask_swagger_ui import get_swaggerui_blueprint

from .payloads import dumps
from .prepared import Prepared

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
    prepared: Prepared | None = current_app.extensions.get("sanmoku")
    if prepared is None:
        return Response(dumps({"status": "starting"}), status=503, mimetype="application/json")
    caches = {name: {"entries": len(s.table)} for name, s in prepared.solvers.items()}
    body = {"status": "ready", "positions": len(prepared.analyses), "caches": caches}
    return Response(dumps(body), mimetype="application/json")


@bp.get("/openapi.yaml")
def openapi() -> Response:
    return Response(current_app.extensions["sanmoku.openapi"], mimetype="application/yaml")
