"""Repeated /analyze requests answered at the WSGI edge, before Flask, at a fraction of its cost.

The view keeps each table's answer among the kept bodies under the request's own bytes (`answers.raw_key`),
so a repeated request is a dictionary lookup; Flask's request context, routing and response object
were then most of what it cost beyond bare Flask. A request that a kept body answers (GET or POST
/analyze, a plain JSON body or a query string short enough to key it, no conditional header) is
answered here, with the very headers the view sends (`answers.answer_headers`); any other, a miss
included, goes on to Flask, whose view renders, keeps and sends it. This sits inside the request id,
the metrics, the access line, CORS and the security headers: its answers carry them as any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from .answers import answer_headers, raw_key, short_body
from .bodies import EXTENSION, KeptBodies
from .rate_limits import EdgeGate, edge_gate

PATH = "/analyze"
StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def request_key(environ: dict[str, Any]) -> tuple[str, bytes] | None:
    """The key among the kept bodies of a request this edge may answer, or None (it goes to Flask)."""
    if environ.get("PATH_INFO") != PATH:
        return None
    method = environ["REQUEST_METHOD"]
    if method == "POST" and environ.get("CONTENT_TYPE") == "application/json":
        return raw_key(method, short_body(environ))
    if method == "GET" and "HTTP_IF_NONE_MATCH" not in environ:  # a 304 is Flask's to make
        return raw_key(method, environ.get("QUERY_STRING", "").encode("latin-1"))
    return None


class RepeatedAnswers:
    """`gate`: the rate limits' count for this edge (rate_limits.EdgeGate), None when they are off; when
    it says no, Flask answers (the 429, or the limiter's way round a failing store)."""

    def __init__(
        self, app: WSGIApp, bodies: KeptBodies, cache_control: str, gate: EdgeGate | None = None
    ) -> None:
        self.app, self.bodies, self.cache_control, self.gate = app, bodies, cache_control, gate

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        key = request_key(environ)
        body = None if key is None else self.bodies.get(key)
        if key is None or body is None or not body.lasting:
            return self.app(environ, start_response)
        headers = answer_headers(body, self.cache_control)
        if self.gate is not None:
            counted = self.gate(environ)
            if counted is None:
                return self.app(environ, start_response)
            headers += counted
        start_response("200 OK", headers)
        return [body.data]


def init_app(app: Flask) -> None:
    """After the kept bodies (bodies.init_app) and the rate limits (rate_limits.init_app), before the
    middleware that every answer passes through."""
    cache_control = app.config["CACHE_CONTROL"]
    gate = edge_gate(app)
    app.wsgi_app = RepeatedAnswers(app.wsgi_app, app.extensions[EXTENSION], cache_control, gate)  # type: ignore[method-assign]
