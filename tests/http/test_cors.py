"""CORS: the service's constant headers are exactly what flask-cors, configured as the service's policy,
would send (flask-cors is the reference here, not a part of the service)."""

from __future__ import annotations

import pytest
import yaml
from flask import Flask

from service.http.cors import EXPOSED
from tests.cors_reference import with_flask_cors
from tests.http.contract import SPEC_PATH

REQUESTS = [
    ("GET", "/analyze?board=X...O....", {}),
    ("GET", "/analyze?board=X...O....", {"Origin": "https://elsewhere.example"}),
    ("POST", "/analyze", {"Origin": "https://elsewhere.example"}),
    ("GET", "/analyze?board=XX.......", {}),  # 422
    ("GET", "/nowhere", {"Origin": "https://elsewhere.example"}),  # 404
    ("DELETE", "/analyze", {}),  # 405
    ("GET", "/solve?variant=misere&format=csv", {"Origin": "null"}),
    ("GET", "/", {}),
    ("OPTIONS", "/analyze", {}),
    ("OPTIONS", "/analyze", {"Origin": "https://a.example", "Access-Control-Request-Method": "POST"}),
    (
        "OPTIONS",
        "/move",
        {
            "Origin": "https://a.example",
            "Access-Control-Request-Method": "post",
            "Access-Control-Request-Headers": "X-Request-ID, content-type",
        },
    ),
    ("OPTIONS", "/analyze", {"Origin": "https://a.example", "Access-Control-Request-Method": "PUT"}),
    (
        "OPTIONS",
        "/analyze",
        {
            "Origin": "https://a.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Private-Network": "true",
        },
    ),
]


def cors_headers(app: Flask, method: str, path: str, headers: dict[str, str]) -> dict[str, str]:
    body = {"board": "X...O...."} if method == "POST" else None
    response = app.test_client().open(path, method=method, headers=headers, json=body)
    names = [k for k, _ in response.headers.items() if k.startswith("Access-Control-") or k == "Vary"]
    assert len(names) == len(set(names)), f"a header twice: {names}"
    return {k: v for k, v in response.headers.items() if k in names}


@pytest.fixture(scope="module")
def flask_cors_app() -> Flask:
    return with_flask_cors({"TESTING": True, "ACCESS_LOG": False})


@pytest.mark.parametrize(("method", "path", "headers"), REQUESTS)
def test_the_headers_are_what_flask_cors_would_send(
    app: Flask, flask_cors_app: Flask, method: str, path: str, headers: dict[str, str]
) -> None:
    ours = cors_headers(app, method, path, headers)
    assert ours == cors_headers(flask_cors_app, method, path, headers)
    assert ours["Access-Control-Allow-Origin"] == "*"


# Response headers a page of any origin may read (the Fetch standard's safelist), and those meant for a
# proxy or a cache rather than a script.
SAFELISTED = {
    "cache-control",
    "content-language",
    "content-length",
    "content-type",
    "expires",
    "last-modified",
}
NOT_FOR_SCRIPTS = {"vary", "x-accel-buffering"}


def spec_headers(node: object) -> set[str]:
    """Every response header the spec documents, anywhere in it."""
    found: set[str] = set()
    if isinstance(node, dict):
        if isinstance(node.get("headers"), dict):
            found |= {name.lower() for name in node["headers"]}
        for value in node.values():
            found |= spec_headers(value)
    elif isinstance(node, list):
        for value in node:
            found |= spec_headers(value)
    return found


def test_every_header_the_spec_gives_a_client_is_exposed(app: Flask) -> None:
    """A page of another origin reads a header only if it is exposed: Retry-After and Content-Range were
    not, so a cross-origin front end could not honour a 503's wait or read a range (seen in Chromium)."""
    documented = spec_headers(yaml.safe_load(SPEC_PATH.read_text()))
    assert {"retry-after", "content-range", "etag"} <= documented
    exposed = app.test_client().get("/healthz").headers["Access-Control-Expose-Headers"]
    assert {name.strip().lower() for name in exposed.split(",")} == {name.lower() for name in EXPOSED}
    assert documented - SAFELISTED - NOT_FOR_SCRIPTS == {name.lower() for name in EXPOSED}
