"""The reference web front end: a static page that plays and analyses through the public HTTP API.

The page lives in ``service/static/`` (plain ES modules and CSS, no build step, nothing fetched from
elsewhere). ``/`` answers its index.html; ``/static/...`` is Flask's own static route, which serves the
same folder. Their security headers (a Content-Security-Policy that allows only this origin) come from
security.py.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

bp = Blueprint("web", __name__)


@bp.get("/")
def index() -> Response:
    return send_from_directory(STATIC_DIR, "index.html", max_age=0)


@bp.get("/sw.js")
def service_worker() -> Response:
    """The page's service worker, from the root: a worker controls only the paths under its own, and the
    page is at ``/``. It is asked again on every load (no-cache), so a new one is found at once."""
    response = send_from_directory(STATIC_DIR, "sw.js", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response
