"""Cross-origin requests: any origin may call the API (third-party front ends use it as their backend).

flask-cors holds the policy and answers preflights. For every other request its headers are the same
two, whatever the request, so they are set here first and flask-cors, seeing them, steps aside: on
the hot path its evaluation (path match, origin resolution, a debug log line built eagerly) cost more
than the lookup being answered (`tests/bench/feature_cost.py`). A test keeps the two equal.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS

EXPOSED = ("ETag", "X-Request-ID")
SIMPLE_HEADERS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": ", ".join(EXPOSED)}


def flask_cors(app: Flask) -> None:
    CORS(
        app,
        send_wildcard=True,  # "*", not the caller's origin echoed back: one answer for every cache
        methods=["GET", "HEAD", "POST", "OPTIONS"],
        expose_headers=list(EXPOSED),
        max_age=86400,
    )


def init_app(app: Flask) -> None:
    flask_cors(app)

    # Registered after flask-cors's own hook, so it runs before it (Flask runs them last to first).
    @app.after_request
    def simple_request(response: Response) -> Response:
        if request.method != "OPTIONS":
            headers = response.headers
            for name, value in SIMPLE_HEADERS.items():
                headers[name] = value
        return response
