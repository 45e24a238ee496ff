"""The security headers, set in one place: `nosniff` on every answer (a browser must never take a JSON
body or a table file for a script or a page), and a policy on every HTML answer.

HTML comes from three routes: `/` (the front end), Flask's static route (`/static/index.html`) and
Swagger UI at `/docs/`. Each gets the same policy: scripts, styles and images from this origin only,
nothing inline, no framing, no MIME sniffing, no referrer sent elsewhere.
"""

from __future__ import annotations

from flask import Flask, Response

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


def init_app(app: Flask) -> None:
    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers.update(EVERY_ANSWER_HEADERS)
        if response.mimetype == "text/html":
            response.headers.update(HTML_HEADERS)
        return response
