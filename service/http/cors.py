"""Cross-origin requests: any origin may call the API (third-party front ends use it as their backend).

The policy is constant (every origin, answered with "*" so that one answer suits every cache), so its
headers are plain constants added at the WSGI edge, for every answer, errors included; a preflight
(OPTIONS with Access-Control-Request-Method) also gets the methods, the headers it asked for and the
max age. flask-cors, which the service used before, evaluated each request in Flask (path match,
origin resolution, a debug line built eagerly) for about a fifth of a cached answer's cost
(`tests/bench/feature_cost.py`); it stays the reference: a test sends the same requests to an app with
flask-cors configured as this policy and expects the same headers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

# The response headers a page of another origin may read besides the safelisted ones (Cache-Control,
# Content-Length, Content-Type, ...): every one the spec gives a client (a 503's Retry-After, a range's
# Content-Range, the rate limits' RateLimit and RateLimit-Policy), not the proxies' (X-Accel-Buffering) and
# caches' (Vary).
EXPOSED = (  # sorted, as flask-cors
    "Accept-Ranges",
    "Content-Range",
    "ETag",
    "RateLimit",
    "RateLimit-Policy",
    "Retry-After",
    "X-Request-ID",
)
METHODS = ("GET", "HEAD", "OPTIONS", "POST")
MAX_AGE = 86400  # seconds a browser may keep a preflight's answer
SIMPLE = [("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", ", ".join(EXPOSED))]

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def preflight_headers(environ: dict[str, Any]) -> list[tuple[str, str]]:
    """What a preflight gets besides SIMPLE: nothing unless it asks for one of METHODS."""
    if environ.get("HTTP_ACCESS_CONTROL_REQUEST_METHOD", "").upper() not in METHODS:
        return []
    out = [("Access-Control-Max-Age", str(MAX_AGE)), ("Access-Control-Allow-Methods", ", ".join(METHODS))]
    asked = environ.get("HTTP_ACCESS_CONTROL_REQUEST_HEADERS")
    if asked:  # every header is allowed: the ones asked for, named back
        names = sorted(name.strip() for name in asked.split(",") if name.strip())
        out.insert(0, ("Access-Control-Allow-Headers", ", ".join(names)))
    return out


def private_network_headers(environ: dict[str, Any]) -> list[tuple[str, str]]:
    # a public service: a page on the public internet asking to reach it as a private one is refused
    if environ.get("HTTP_ACCESS_CONTROL_REQUEST_PRIVATE_NETWORK") == "true":
        return [("Access-Control-Allow-Private-Network", "false")]
    return []


class CrossOrigin:
    """WSGI middleware: the CORS headers on every answer."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        extra = SIMPLE
        if environ["REQUEST_METHOD"] == "OPTIONS":
            extra = [*SIMPLE, *private_network_headers(environ), *preflight_headers(environ)]

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            headers.extend(extra)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
