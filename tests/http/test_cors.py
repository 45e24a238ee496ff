"""CORS: the service's constant headers are exactly what flask-cors, configured as the service's policy,
would send (flask-cors is the reference here, not a part of the service)."""

from __future__ import annotations

import pytest
from flask import Flask

from tests.cors_reference import with_flask_cors

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
