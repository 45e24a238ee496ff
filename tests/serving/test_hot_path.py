"""/analyze answers repeated requests from a cache of raw bodies and query strings: exactly as the full way.

Each request is sent three times: to a fresh app (the full way), then twice to a warm app (the first
fills the cache, the second is served from it). Status, headers (but the request id) and body agree.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from service.app import create_app
from service.http.answers import RAW_LIMIT
from service.http.bodies import EXTENSION, KeptBodies

POSTS: list[Any] = [
    {"board": "X...O...."},
    {"board": "x...o....", "to_move": None, "variant": "normal"},
    {"board": "X...O....", "mainline": True},
    {"board": "X...O....", "mainline": 1},  # 1 == True in Python; still not a JSON boolean
    {"board": "X...O....", "mainline": 1.0},
    {"board": "X...O....", "mainline": "true"},
    {"board": "X...O....", "variant": None},  # null is not "missing"
    {"board": "X...O....", "to_move": "O"},
    {"board": "X...O....", "extra": 1},
    {"board": ["X...O...."]},
    {"board": "XXXX....."},
    ["X...O...."],
    "X...O....",
    {"board": "X...O....", "pad": " " * 300},  # longer than the cache keeps
]
GETS = [
    "board=X...O....",
    "board=X...O....&mainline=true",
    "board=X...O....&mainline=1",
    "board=X...O....&variant=",
    "board=X...O....&board=XXXX.....",
    "board=XXXX.....&board=X...O....",
    "board=X...O....&to_move=x",
    "board=X...O....&to_move=",
    "board=X...O....&extra=1",
    "board=.........&variant=misere",
]


@pytest.fixture(scope="module")
def warm() -> Flask:
    return create_app({"TESTING": True})


def comparable(response: TestResponse) -> tuple[int, dict[str, str], bytes]:
    headers = {k: v for k, v in response.headers.items() if k != "X-Request-ID"}
    return response.status_code, headers, response.data


def post(app: Flask, body: Any, content_type: str = "application/json") -> TestResponse:
    return app.test_client().post("/analyze", data=json.dumps(body), content_type=content_type)


@pytest.mark.parametrize("body", POSTS, ids=[json.dumps(b) for b in POSTS])
def test_post_answers_alike_cold_and_warm(warm: Flask, body: Any) -> None:
    cold = comparable(post(create_app({"TESTING": True}), body))
    assert comparable(post(warm, body)) == cold
    assert comparable(post(warm, body)) == cold


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "application/problem+json", "text/plain", ""]
)
def test_other_content_types_answer_alike_cold_and_warm(warm: Flask, content_type: str) -> None:
    body = {"board": "X...O...."}
    cold = comparable(post(create_app({"TESTING": True}), body, content_type))
    assert comparable(post(warm, body)) == comparable(post(warm, body))  # fills the cache for JSON
    assert comparable(post(warm, body, content_type)) == cold


@pytest.mark.parametrize("query", GETS)
def test_get_answers_alike_cold_and_warm(warm: Flask, query: str) -> None:
    cold = comparable(create_app({"TESTING": True}).test_client().get(f"/analyze?{query}"))
    assert comparable(warm.test_client().get(f"/analyze?{query}")) == cold
    assert comparable(warm.test_client().get(f"/analyze?{query}")) == cold


def test_a_true_mainline_does_not_answer_for_a_one(warm: Flask) -> None:
    assert post(warm, {"board": "....X....", "mainline": True}).status_code == 200
    assert post(warm, {"board": "....X....", "mainline": 1}).status_code == 422


def bodies_of(app: Flask) -> KeptBodies:
    bodies: KeptBodies = app.extensions[EXTENSION]
    return bodies


def test_the_kept_bodies_are_bounded_by_their_bytes() -> None:
    app = create_app({"TESTING": True, "KEPT_BODIES_BYTES": 20_000})
    for cell in range(9):
        for other in range(9):
            if other != cell:
                board = "".join("X" if i == cell else "O" if i == other else "." for i in range(9))
                assert post(app, {"board": board}).status_code == 200
    held, most = bodies_of(app).bytes_held()
    assert most == 20_000 and 15_000 < held <= most
    assert len(bodies_of(app)) < 2 * 72  # older answers made room for newer ones


@pytest.mark.parametrize("most", [0, 200])
def test_a_bound_too_small_for_a_body_answers_without_keeping_it(most: int) -> None:
    app = create_app({"TESTING": True, "KEPT_BODIES_BYTES": most})  # an answer here is about 1 KB
    assert post(app, {"board": "X...O...."}).status_code == 200
    assert app.test_client().get("/analyze?board=X...O....").status_code == 200
    assert len(bodies_of(app)) == 0


def test_the_settings_first_name_is_still_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """SANMOKU_BODY_CACHE_BYTES, the setting's name before it was KEPT_BODIES_BYTES, still bounds the
    kept bodies; where both are given, the new name wins."""
    monkeypatch.setenv("SANMOKU_BODY_CACHE_BYTES", "20000")
    assert bodies_of(create_app()).bytes_held() == (0, 20_000)
    monkeypatch.setenv("SANMOKU_KEPT_BODIES_BYTES", "30000")
    assert bodies_of(create_app()).bytes_held() == (0, 30_000)


def test_long_query_strings_are_answered_but_not_kept() -> None:
    app = create_app({"TESTING": True})
    query = "board=X...O...." + "&board=X...O...." * 20  # the first value counts, as in the schema
    assert len(query) > RAW_LIMIT
    assert app.test_client().get(f"/analyze?{query}").status_code == 200
    assert not [key for key in bodies_of(app).held_keys() if key[0] == "GET"]


def test_long_bodies_are_answered_but_not_kept() -> None:
    app = create_app({"TESTING": True})
    padded = '{"board": "X...O...."' + " " * RAW_LIMIT + "}"
    response = app.test_client().post("/analyze", data=padded, content_type="application/json")
    assert response.status_code == 200
    assert not [key for key in bodies_of(app).held_keys() if key[0] == "POST"]


def test_repeated_requests_are_answered_before_flask_with_the_same_headers_in_order() -> None:
    app = create_app({"TESTING": True})
    client = app.test_client()

    def both() -> list[TestResponse]:
        return [post(app, {"board": "X...O...."}), client.get("/analyze?board=X...O....&variant=normal")]

    first = both()  # rendered by the view, and kept
    views: list[str] = []

    def counted(name: str, view: Callable[..., Any]) -> Callable[[], Any]:
        def answer() -> Any:
            views.append(name)
            return view()

        return answer

    for name in ("api.analyze_post", "api.analyze_get"):
        app.view_functions[name] = counted(name, app.view_functions[name])
    again = both()
    assert views == []  # answered before Flask
    for full, repeated in zip(first, again, strict=True):
        assert (repeated.status, repeated.data) == (full.status, full.data)
        assert [h for h in repeated.headers.items() if h[0] != "X-Request-ID"] == [
            h for h in full.headers.items() if h[0] != "X-Request-ID"
        ]
    etag = again[1].headers["ETag"]
    conditional = client.get("/analyze?board=X...O....&variant=normal", headers={"If-None-Match": etag})
    assert (conditional.status_code, views) == (304, ["api.analyze_get"])  # a 304 is the view's
