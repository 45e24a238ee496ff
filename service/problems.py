"""Every error as RFC 9457 problem+json, in one place."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from .engine import EngineError, IllegalMoveError, InvalidPositionError, UnknownVariantError
from .engine.policies import PolicyError
from .payloads import dumps

PROBLEM_MIMETYPE = "application/problem+json"
PROBLEM_BASE = "urn:sanmoku:problem:"

log = logging.getLogger(__name__)


class FieldsError(Exception):
    """The request's fields failed their syntax checks; messages are keyed by field path."""

    def __init__(self, messages: Mapping[str, list[str]]) -> None:
        super().__init__("invalid fields")
        self.messages = dict(messages)


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
    IllegalMoveError: ("illegal-move", "Illegal move"),
    PolicyError: ("no-move", "No move can be chosen"),
}


def engine_problem_body(error: EngineError, **extra: Any) -> dict[str, Any]:
    fallback = ("invalid-request", "Invalid request")
    kind, title = next((v for cls, v in _ENGINE_KINDS.items() if isinstance(error, cls)), fallback)
    field = error.field or "_schema"
    ply = getattr(error, "ply", None)  # a game that goes wrong says at which ply
    if ply is not None:
        extra["ply"] = ply
    return problem_body(
        422, title, error.message, kind, code=error.code, errors={field: [error.message]}, **extra
    )


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
