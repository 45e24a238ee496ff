"""The security headers, set in one place: `nosniff` on every answer (a browser must never take a JSON
body or a table file for a script or a page), and a policy on every HTML answer.

HTML comes from three routes: `/` (the front end), Flask's static route (`/static/index.html`) and
Swagger UI at `/docs/`. Each gets the same policy: scripts, styles and images from this origin only,
nothing inline, no framing, no MIME sniffing, no referrer sent elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        # plus the one <style> element Swagger UI writes (its logo's colours), by hash; the docs'
        # browser test fails on any blocked style, so a new Swagger UI with another one is noticed
        "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
        # Swagger UI's stylesheet draws its icons as data: SVG images
        "img-src 'self' data:",
        "connect-src 'self'",
        # the page's web app manifest and its service worker (/sw.js), which keeps 3x3 working offline
        "manifest-src 'self'",
        "worker-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
EVERY_ANSWER_HEADERS = {"X-Content-Type-Options": "nosniff"}
HTML_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors' older spelling, for browsers without CSP level 2
    "Referrer-Policy": "no-referrer",
}


StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]
EVERY_ANSWER = list(EVERY_ANSWER_HEADERS.items())
HTML = list(HTML_HEADERS.items())


class SecurityHeaders:
    """WSGI middleware: the headers added to every answer's list as it starts, the HTML ones where its
    Content-Type says HTML. (A Flask after_request hook did it before, and parsing the response's media
    type there cost a twentieth of a cached answer.)"""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            html = any(name.lower() == "content-type" and _is_html(value) for name, value in headers)
            headers.extend(EVERY_ANSWER)
            if html:
                headers.extend(HTML)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)


def _is_html(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() == "text/html"


def init_app(app: Flask) -> None:
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
