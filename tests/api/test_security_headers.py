"""Every HTML answer carries the same security headers, set in one place (service/security.py)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from service.security import HTML_HEADERS

HTML_ROUTES = ["/", "/static/index.html", "/docs/"]


@pytest.mark.parametrize("path", HTML_ROUTES)
def test_every_html_route_has_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert (response.status_code, response.mimetype) == (200, "text/html")
    assert {name: response.headers.get(name) for name in HTML_HEADERS} == HTML_HEADERS
    policy = dict(part.split(" ", 1) for part in HTML_HEADERS["Content-Security-Policy"].split("; "))
    assert policy["frame-ancestors"] == "'none'" and HTML_HEADERS["X-Frame-Options"] == "DENY"
    assert "unsafe" not in HTML_HEADERS["Content-Security-Policy"]


@pytest.mark.parametrize("path", HTML_ROUTES)
def test_html_pages_have_no_inline_script(client: FlaskClient, path: str) -> None:
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", client.get(path).get_data(as_text=True), re.S)
    assert scripts and all("src=" in attributes and not body.strip() for attributes, body in scripts)


def test_json_answers_are_left_alone(client: FlaskClient) -> None:
    assert "Content-Security-Policy" not in client.get("/healthz").headers
