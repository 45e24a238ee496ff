"""Every answer is `nosniff`, and every HTML answer carries the same policy, set in one place
(service/security.py)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from service.http.security import EVERY_ANSWER_HEADERS, HTML_HEADERS

HTML_ROUTES = ["/", "/static/index.html", "/docs/"]


@pytest.mark.parametrize("path", HTML_ROUTES)
def test_every_html_route_has_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert (response.status_code, response.mimetype) == (200, "text/html")
    assert {name: response.headers.get(name) for name in HTML_HEADERS} == HTML_HEADERS
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    policy = dict(part.split(" ", 1) for part in HTML_HEADERS["Content-Security-Policy"].split("; "))
    assert policy["frame-ancestors"] == "'none'" and HTML_HEADERS["X-Frame-Options"] == "DENY"
    assert "unsafe" not in HTML_HEADERS["Content-Security-Policy"]


@pytest.mark.parametrize("path", HTML_ROUTES)
def test_html_pages_have_no_inline_script(client: FlaskClient, path: str) -> None:
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", client.get(path).get_data(as_text=True), re.S)
    assert scripts and all("src=" in attributes and not body.strip() for attributes, body in scripts)


def test_json_answers_are_left_alone(client: FlaskClient) -> None:
    assert "Content-Security-Policy" not in client.get("/healthz").headers


# Answers of every kind: JSON, problems of several statuses, a preflight, a conditional 304, a script,
# a stream, plain text (metrics), the spec.
EVERY_KIND = [
    ("GET", "/healthz", {}, 200),
    ("GET", "/analyze?board=.........", {}, 200),
    ("GET", "/analyze?board=XXXXXXXXX", {}, 422),
    ("GET", "/nowhere", {}, 404),
    ("DELETE", "/analyze", {}, 405),
    ("POST", "/analyze", {"data": "{x", "content_type": "application/json"}, 400),
    ("OPTIONS", "/analyze", {"headers": {"Origin": "http://example.org"}}, 200),
    ("GET", "/static/app.js", {}, 200),
    ("GET", "/solve?variant=normal", {}, 200),
    ("GET", "/openapi.yaml", {}, 200),
    ("GET", "/metrics", {}, 200),
]


@pytest.mark.parametrize(("method", "path", "options", "status"), EVERY_KIND)
def test_every_answer_is_nosniff(
    client: FlaskClient, method: str, path: str, options: dict[str, object], status: int
) -> None:
    response = client.open(path, method=method, **options)
    assert response.status_code == status
    assert {name: response.headers.get(name) for name in EVERY_ANSWER_HEADERS} == EVERY_ANSWER_HEADERS


def test_a_not_modified_answer_is_nosniff(client: FlaskClient) -> None:
    etag = client.get("/analyze?board=.........").headers["ETag"]
    response = client.get("/analyze?board=.........", headers={"If-None-Match": etag})
    assert (response.status_code, response.headers.get("X-Content-Type-Options")) == (304, "nosniff")
