"""The reference web front end: a static page that plays and analyses through the public HTTP API.

The page lives in ``service/static/`` (plain ES modules and CSS, no build step, nothing fetched from
elsewhere). ``/`` answers its index.html with a Content-Security-Policy that allows only this origin;
``/static/...`` is Flask's own static route, which serves the same folder.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

STATIC_DIR = Path(__file__).resolve().parent / "static"

# Nothing inline, nothing from another origin: the page talks only to the service that served it.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)

bp = Blueprint("web", __name__)


@bp.get("/")
def index() -> Response:
    response = send_from_directory(STATIC_DIR, "index.html", max_age=0)
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
