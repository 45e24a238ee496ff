"""Caching says what is proven: every answer whose values are all proven (from a table, a book, the
proven store, or a search that proved every move) carries a strong ETag and long-lived cache headers;
any answer with something unproven (a bound, an unknown result, an estimate) is `no-store`, without an
ETag. Checked per source, for GET and POST, and over random positions of every kind of board."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import create_app
from service.engine import Position, get_variant

LONG_LIVED = "public, max-age=86400, immutable"


def headers_match_claims(response: TestResponse) -> dict[str, Any]:
    """The answer's cache headers agree with its own `exact`; returns the answer."""
    assert response.status_code == 200, response.get_data(as_text=True)
    body: dict[str, Any] = response.get_json()
    proven = body["exact"] and not any(m.get("estimate") is not None for m in body["moves"])
    if proven:
        assert response.headers["Cache-Control"] == LONG_LIVED
        assert response.headers["ETag"].startswith('"') and not response.headers["ETag"].startswith("W/")
    else:
        assert response.headers["Cache-Control"] == "no-store" and "ETag" not in response.headers
    return body


def both(client: FlaskClient, request: dict[str, Any]) -> list[dict[str, Any]]:
    """The answer by POST and by GET, each checked."""
    query = {key: str(value).lower() if isinstance(value, bool) else value for key, value in request.items()}
    return [
        headers_match_claims(client.post("/analyze", json=request)),
        headers_match_claims(client.get("/analyze", query_string=query)),
    ]


def test_a_tables_answer_is_cacheable(client: FlaskClient) -> None:
    for body in both(client, {"board": "X...O....", "variant": "normal"}):
        assert body["source"] == "table" and body["exact"]


def test_a_books_answer_is_cacheable(client: FlaskClient) -> None:
    for body in both(client, {"board": "." * 25, "variant": "5x5k4"}):  # the packaged 5x5k4 book
        assert body["source"] == "book" and body["exact"]


def test_a_proven_search_and_the_store_are_cacheable_and_a_guess_is_not(tmp_path: Path) -> None:
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": []}).test_client()
    request = {"board": "XO.X./.OX../O..../..X../.....", "variant": "5x5k4", "budget_ms": 10000}
    searched = headers_match_claims(client.post("/analyze", json={**request, "source": "search"}))
    assert searched["source"] == "search" and searched["exact"]
    stored = headers_match_claims(client.post("/analyze", json=request))
    assert stored["source"] == "cache" and stored["exact"]
    with_estimates = headers_match_claims(client.post("/analyze", json={**request, "estimates": True}))
    assert with_estimates["exact"]  # every move proven: no estimate is left to guess
    guess = {"board": "." * 64, "variant": "8x8k5", "budget_ms": 20}
    for body in both(client, guess):
        assert body["source"] == "search" and not body["exact"]


def test_a_conditional_get_of_a_proven_search_answers_304(tmp_path: Path) -> None:
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": []}).test_client()
    url = "/analyze?board=XO.X./.OX../O..../..X../.....&variant=5x5k4&budget_ms=10000"
    first = client.get(url)
    headers_match_claims(first)
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    # the store's answer has other bytes (no search stats) than the search's: 200 unless the same
    assert again.status_code == 200 or again.headers["ETag"] == first.headers["ETag"]
    repeated = client.get(url, headers={"If-None-Match": again.headers.get("ETag", first.headers["ETag"])})
    assert repeated.status_code == 304 and repeated.data == b""


@pytest.mark.parametrize("name", ["5x5k4", "5x5k4-misere", "4x5k4-gravity", "6x6k4", "4x4x4k4"])
def test_no_proven_answer_without_an_etag_nor_a_guess_with_one(client: FlaskClient, name: str) -> None:
    rng = random.Random(name)
    variant = get_variant(name)
    for _ in range(6):
        position = Position.empty(variant)
        for _ in range(rng.randrange(0, variant.cells // 2)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        budget_ms = rng.choice([1, 5, 50])
        request = {
            "board": position.cells,
            "to_move": position.to_move,
            "variant": name,
            "budget_ms": budget_ms,
        }
        if rng.random() < 0.3:
            request["estimates"] = True
        headers_match_claims(client.post("/analyze", json=request))
