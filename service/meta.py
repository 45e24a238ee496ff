"""Health checks, the OpenAPI document and its interactive page, all served locally."""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from flask import Blueprint, Response, current_app, send_from_directory

from .payloads import dumps
from .prepared import Prepared

bp = Blueprint("meta", __name__)

SWAGGER_DIR = Path(swagger_ui_bundle.swagger_ui_path)

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sanmoku API</title>
<link rel="stylesheet" href="/docs/static/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/static/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({url: "/openapi.yaml", dom_id: "#swagger-ui"});
</script>
</body>
</html>
"""


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
    path = Path(current_app.config["OPENAPI_PATH"])
    return Response(path.read_bytes(), mimetype="application/yaml")


@bp.get("/docs")
def docs() -> Response:
    return Response(DOCS_PAGE, mimetype="text/html")


@bp.get("/docs/static/<path:name>")
def docs_static(name: str) -> Response:
    return send_from_directory(SWAGGER_DIR, name)
