"""Every error as RFC 9457 problem+json, in one place."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from ..engine import (
    EngineError,
    IllegalMoveError,
    InvalidPositionError,
    NoBoardError,
    NoTableError,
    PolicyError,
    SearchBusyError,
    TableNotReadyError,
    TableUnavailableError,
    TreeTooLargeError,
    UnknownVariantError,
)
from ..serving.sources import get_supply
from .payloads import dumps

PROBLEM_MIMETYPE = "application/problem+json"
PROBLEM_BASE = "urn:sanmoku:problem:"
TABLES_DIR_SETTING = "$SANMOKU_TABLES_DIR"  # what a public answer says instead of the tables directory

log = logging.getLogger(__name__)


class FieldsError(Exception):
    """The request's fields failed their syntax checks; messages are keyed by field path."""

    def __init__(self, messages: Mapping[str, list[str]]) -> None:
        super().__init__("invalid fields")
        self.messages = dict(messages)


class ProblemError(Exception):
    """A request the views refuse for a reason of their own (not the engine's, not the syntax's)."""

    def __init__(self, status: int, kind: str, title: str, detail: str, field: str | None = None) -> None:
        super().__init__(detail)
        self.status, self.kind, self.title, self.detail, self.field = status, kind, title, detail, field


def problem_body(status: int, title: str, detail: str, kind: str = "", **extra: Any) -> dict[str, Any]:
    return {
        "type": PROBLEM_BASE + kind if kind else "about:blank",
        "title": title,
        "status": status,
        "detail": detail,
        **extra,
    }


def problem(status: int, title: str, detail: str, kind: str = "", **extra: Any) -> Response:
    return _as_response(problem_body(status, title, detail, kind, **extra))


_ENGINE_KINDS: dict[type[EngineError], tuple[str, str]] = {
    InvalidPositionError: ("invalid-position", "Impossible position"),
    UnknownVariantError: ("unknown-variant", "Unknown variant"),
    NoBoardError: ("no-board", "Not a board"),
    IllegalMoveError: ("illegal-move", "Illegal move"),
    PolicyError: ("no-move", "No move can be chosen"),
    NoTableError: ("no-table", "No solved table"),
    TreeTooLargeError: ("tree-too-large", "Tree too large"),
}
SEARCH_BUSY_RETRY_S = 1


def engine_problem_body(error: EngineError, **extra: Any) -> dict[str, Any]:
    fallback = ("invalid-request", "Invalid request")
    kind, title = next((v for cls, v in _ENGINE_KINDS.items() if isinstance(error, cls)), fallback)
    field = error.field or "_schema"
    ply = getattr(error, "ply", None)  # a game that goes wrong says at which ply
    if ply is not None:
        extra["ply"] = ply
    if isinstance(error, TreeTooLargeError):  # the bound, and the deepest tree within it
        extra.update(max_nodes=error.limit, fits_depth=error.fits)
    return problem_body(
        422, title, error.message, kind, code=error.code, errors={field: [error.message]}, **extra
    )


def unavailable_body(error: TableUnavailableError) -> dict[str, Any]:
    detail = without_paths(str(error))
    if isinstance(error, TableNotReadyError):
        return problem_body(503, "Table not ready", detail, "table-not-ready", retry_after=error.retry_after)
    return problem_body(503, "Table not built", detail, "table-not-built")


def without_paths(text: str) -> str:
    """A sentence for the public (a 503's detail, /readyz) that names the setting, not the directory:
    where the tables live on the host is the operator's to know."""
    directory = str(get_supply().store.directory)
    return text.replace(directory, TABLES_DIR_SETTING) if directory else text


def busy_body(error: SearchBusyError) -> dict[str, Any]:
    detail = f"{error}: every search this worker may run at once is running; ask again in a moment"
    return problem_body(503, "Search busy", detail, "search-busy", retry_after=SEARCH_BUSY_RETRY_S)


def fields_problem_body(messages: Mapping[str, list[str]]) -> dict[str, Any]:
    names = ", ".join(sorted(messages))
    return problem_body(
        422, "Invalid fields", f"these fields are invalid: {names}", "invalid-fields", errors=dict(messages)
    )


def register_problem_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        response = problem(status, error.name, error.description or error.name)
        allow = error.get_response().headers.get("Allow")
        if allow:  # a custom handler would otherwise drop the Allow header of a 405
            response.headers["Allow"] = ", ".join(sorted(allow.split(", ")))
        return response

    @app.errorhandler(FieldsError)
    def field_errors(error: FieldsError) -> Response:
        return _as_response(fields_problem_body(error.messages))

    @app.errorhandler(EngineError)
    def engine_error(error: EngineError) -> Response:
        return _as_response(engine_problem_body(error))

    @app.errorhandler(ProblemError)
    def refused(error: ProblemError) -> Response:
        extra = {} if error.field is None else {"errors": {error.field: [error.detail]}}
        return _as_response(problem_body(error.status, error.title, error.detail, error.kind, **extra))

    @app.errorhandler(TableUnavailableError)
    def unavailable(error: TableUnavailableError) -> Response:
        response = _as_response(unavailable_body(error))
        if error.retry_after is not None:
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    @app.errorhandler(SearchBusyError)
    def busy(error: SearchBusyError) -> Response:
        response = _as_response(busy_body(error))
        response.headers["Retry-After"] = str(SEARCH_BUSY_RETRY_S)
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return problem(500, "Internal Server Error", "the server failed to answer; the error was logged")


def with_instance(body: dict[str, Any], instance: str) -> dict[str, Any]:
    """The body with `instance` after the standard members, before the extensions."""
    standard = ("type", "title", "status", "detail")
    return {
        **{k: body[k] for k in standard},
        "instance": instance,
        **{k: v for k, v in body.items() if k not in standard},
    }


def _as_response(body: dict[str, Any]) -> Response:
    body = with_instance(body, request.path)
    return Response(dumps(body), status=body["status"], mimetype=PROBLEM_MIMETYPE)
