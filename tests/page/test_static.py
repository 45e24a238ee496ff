"""The front end's files as served: no browser needed, so these run wherever the app does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

pytestmark = pytest.mark.slow  # each drives Chromium

STATIC = Path(__file__).resolve().parents[2] / "service" / "static"
TEXT_FILES = sorted(p.name for p in STATIC.iterdir() if p.suffix in {".html", ".js", ".css"})


def test_the_page_is_served_at_the_root(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert b'<script type="module" src="/static/app.js">' in response.data
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy


@pytest.mark.parametrize("name", TEXT_FILES)
def test_every_file_is_served_and_stays_on_this_origin(client: FlaskClient, name: str) -> None:
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    expected = {".html": "text/html", ".js": "javascript", ".css": "text/css"}[Path(name).suffix]
    assert expected in (response.mimetype or "")
    # The SVG namespace is a name that createElementNS needs, not an address anything is fetched from.
    text = response.get_data(as_text=True).replace('"http://www.w3.org/2000/svg"', "")
    # No CDN, no external fonts: every URL in the front end is relative to this service.
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), name


def test_the_readme_screenshot_is_served(client: FlaskClient) -> None:
    response = client.get("/static/img/screenshot.png")
    assert response.status_code == 200
    assert response.data.startswith(b"\x89PNG")
