"""CORS headers: the ones set on the hot path are exactly what flask-cors alone would send."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from service import cors
from service.app import create_app

REQUESTS = [
    ("GET", "/analyze?board=X...O....", {}),
    ("GET", "/analyze?board=X...O....", {"Origin": "https://elsewhere.example"}),
    ("POST", "/analyze", {"Origin": "https://elsewhere.example"}),
    ("GET", "/analyze?board=XX.......", {}),  # 422
    ("GET", "/nowhere", {"Origin": "https://elsewhere.example"}),  # 404
    ("DELETE", "/analyze", {}),  # 405
    ("GET", "/solve?variant=misere&format=csv", {"Origin": "null"}),
    ("GET", "/", {}),
    ("OPTIONS", "/analyze", {"Origin": "https://a.example", "Access-Control-Request-Method": "POST"}),
    ("OPTIONS", "/analyze", {}),
]


def cors_headers(app: Flask, method: str, path: str, headers: dict[str, str]) -> dict[str, str]:
    body = {"board": "X...O...."} if method == "POST" else None
    response = app.test_client().open(path, method=method, headers=headers, json=body)
    return {k: v for k, v in response.headers.items() if k.startswith("Access-Control-") or k == "Vary"}


@pytest.fixture(scope="module")
def flask_cors_alone() -> Iterator[Flask]:
    """The same app with flask-cors evaluating every request itself."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cors, "init_app", cors.flask_cors)
        yield create_app({"TESTING": True, "ACCESS_LOG": False})


@pytest.mark.parametrize(("method", "path", "headers"), REQUESTS)
def test_the_hot_path_sends_what_flask_cors_would(
    app: Flask, flask_cors_alone: Flask, method: str, path: str, headers: dict[str, str]
) -> None:
    ours = cors_headers(app, method, path, headers)
    assert ours == cors_headers(flask_cors_alone, method, path, headers)
    assert ours["Access-Control-Allow-Origin"] == "*"
