"""Health checks, the OpenAPI document and its interactive page (Swagger UI), all served locally."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app
from flask.blueprints import BlueprintSetupState
from flask_swagger_ui import get_swaggerui_blueprint

from ..engine import TableNotReadyError, TableSupply, TableUnavailableError, Variant, book_build_report
from ..serving.sources import get_analyst, get_supply, proven_health
from .bodies import get_bodies
from .payloads import dumps
from .problems import without_paths

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
    whose file is missing or bad is queued for the builder, and the report says what it waits for).
    A table that cannot be built here (a read-only directory, a file this account may not read and
    cannot replace, a directory in its place) is reported with the reason: the server serves the
    others ("degraded", 200: waiting would not help), and a small one is solved in memory. The Connect
    Four book's build is reported beside them (`books`)."""
    supply = get_supply()
    report = {variant.name: _readiness(supply, variant) for variant in supply.at_start}
    waiting = any("waiting" in entry for entry in report.values())
    ready = all(entry["ready"] for entry in report.values())
    # The cache of proven positions is only a cache: one it cannot use (a read-only directory, a damaged
    # or foreign file, a full disk) leaves the searches to answer without it, which the report says.
    store = proven_health()
    ready = ready and (store is None or store.state == "ok")
    status = "ready" if ready else "starting" if waiting else "degraded"
    body: dict[str, object] = {"status": status, "tables": report, "bodies": len(get_bodies())}
    if store is not None:
        body["cache"] = {"state": store.state, "problem": store.problem}
        body["proven_store"] = body["cache"]  # its first name, kept for clients of API v1
    unwritable = supply.store.unwritable()
    if unwritable:
        body["cannot_build"] = without_paths(f"{unwritable}: no table missing from it can be built")
    body["books"] = {"connect4": _book_build()}
    return Response(dumps(body), status=503 if status == "starting" else 200, mimetype="application/json")


def _readiness(supply: TableSupply, variant: Variant) -> dict[str, object]:
    try:
        table = supply.table(variant)
    except TableUnavailableError as error:
        # Waiting would not help a table that cannot be built here, even while its build is retried.
        why = supply.store.unbuildable(variant)
        if isinstance(error, TableNotReadyError) and why is None:
            return {"ready": False, "positions": None, "waiting": without_paths(error.reason)}
        return {"ready": False, "positions": None, "cannot_build": without_paths(why or str(error))}
    entry: dict[str, object] = {"ready": True, "positions": table.positions}
    why = supply.store.unbuildable(variant) if table.path is None else None
    if why is not None:  # a small table whose file cannot be written here (else its file is on its way)
        entry["cannot_build"] = without_paths(f"{why}: solved in memory by each worker")
    return entry


def _book_build() -> dict[str, object]:
    """The Connect Four book's build: it does not change the status (the search answers meanwhile), it
    says whether the book is coming, and if not, why and when it is tried again."""
    books = get_analyst().books
    if books is None:
        return {"state": "missing", "reason": "this service reads no opening books"}
    build = book_build_report(books.on_missing, books.folders)
    entry: dict[str, object] = {"state": build.state, "attempts": build.attempts}
    if build.reason is not None:
        entry["reason"] = without_paths(build.reason)
    if build.retry_after is not None:
        entry["retry_after"] = build.retry_after
    return entry


@bp.get("/openapi.yaml")
def openapi() -> Response:
    return Response(current_app.extensions["sanmoku.openapi"], mimetype="application/yaml")
