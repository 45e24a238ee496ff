"""/analyze, POST and GET: the engine's facts, through HTTP, true to the spec."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.http.contract import analyze, check_response
from tests.reference import all_reachable, minimax, move_values


def test_opening_position(client: FlaskClient) -> None:
    body = analyze(client, board="X...O....", to_move="X")
    assert body["status"] == "in_progress" and body["result"] == "draw" and body["winner"] is None
    assert body["remoteness"] == 7 and body["best_move"] == 1
    assert body["best_moves"] == [1, 2, 3, 5, 6, 7, 8]
    first = body["moves"][0]  # type: ignore[index]
    assert first == {"cell": 1, "row": 0, "col": 1, "result": "draw", "score": 0, "remoteness": 7,
                     "lower": "draw", "upper": "draw", "board": "XX..O...."}  # fmt: skip
    assert body["source"] == "table" and body["exact"] is True and body["search"] is None


def test_misere_empty_board(client: FlaskClient) -> None:
    body = analyze(client, board="---------", variant="misere")
    assert body["board"] == "........." and body["to_move"] == "X" and body["variant"] == "misere"
    assert body["result"] == "draw" and body["best_moves"] == [4]
    moves = {m["cell"]: m for m in body["moves"]}  # type: ignore[attr-defined]
    assert all(moves[c]["result"] == "loss" and moves[c]["remoteness"] == 9 for c in moves if c != 4)


def test_winner_is_absolute_and_values_are_for_the_side_to_move(client: FlaskClient) -> None:
    body = analyze(client, board="XX.OO....", to_move="O")
    assert body["result"] == "win" and body["winner"] == "O" and body["remoteness"] == 1
    body = analyze(client, board="XX.OO.X..", to_move="O")
    assert body["result"] == "win" and body["winner"] == "O"
    body = analyze(client, board="XX.OO....", to_move="O", variant="misere")
    assert body["winner"] in ("X", "O", None)


@pytest.mark.parametrize(
    ("board", "variant", "status", "result", "winner"),
    [
        ("XXXOO....", "normal", "x_won", "loss", "X"),
        ("XXXOO....", "misere", "o_won", "win", "O"),
        ("XOXXOOOXX", "normal", "draw", "draw", None),
    ],
)
def test_finished_positions(
    client: FlaskClient, board: str, variant: str, status: str, result: str, winner: str | None
) -> None:
    body = analyze(client, board=board, variant=variant)
    assert body["status"] == status and body["result"] == result and body["winner"] == winner
    assert body["moves"] == [] and body["best_move"] is None and body["best_moves"] == []
    assert body["remoteness"] == 0


def test_o_may_start(client: FlaskClient) -> None:
    body = analyze(client, board=".........", to_move="O")
    assert body["to_move"] == "O"
    assert {m["board"] for m in body["moves"]} == {"." * i + "O" + "." * (8 - i) for i in range(9)}  # type: ignore[attr-defined]


def test_get_is_the_same_lookup_and_is_cacheable(client: FlaskClient) -> None:
    post = client.post("/analyze", json={"board": "x...o....", "variant": "misere"})
    get = client.get("/analyze?board=x...o....&variant=misere")
    check_response(get, "/analyze", "get")
    assert get.data == post.data
    assert get.headers["Cache-Control"] == "public, max-age=86400, immutable"
    again = client.get(
        "/analyze?board=x...o....&variant=misere", headers={"If-None-Match": get.headers["ETag"]}
    )
    check_response(again, "/analyze", "get")
    assert again.status_code == 304


REACHABLE = sorted(all_reachable("X").items()) + sorted(all_reachable("O").items())


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(REACHABLE), st.sampled_from(["normal", "misere"]))
def test_answers_agree_with_brute_force(app: Flask, entry: tuple[str, str], variant: str) -> None:
    client = app.test_client()
    board, to_move = entry
    misere = variant == "misere"
    body = analyze(client, board=board, to_move=to_move, variant=variant)
    score, remoteness = minimax(board, to_move, misere)
    assert (body["score"], body["remoteness"]) == (score, remoteness)
    expected = move_values(board, to_move, misere)
    assert {m["cell"]: (m["score"], m["remoteness"]) for m in body["moves"]} == expected  # type: ignore[attr-defined]


def test_requests_are_lookups_never_a_solve(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the tables on disk, no request solves anything: every answer is read from a table."""

    def no_solving(*_: object, **__: object) -> None:
        raise AssertionError("a request solved a table")

    monkeypatch.setattr("service.engine.tables.building.solve_tiers", no_solving)
    monkeypatch.setattr("service.engine.tables.small_tables.solve", no_solving)  # the tables solved in memory
    client = app.test_client()
    for variant in ("normal", "misere", "4x4k4", "3x3k3-torus"):
        for board, to_move in REACHABLE[::97]:
            if variant in ("normal", "misere"):
                query = {"board": board, "to_move": to_move, "variant": variant, "mainline": "true"}
                assert client.get("/analyze", query_string=query).status_code == 200
        for query in ("&format=ndjson", "&symmetry=canonical&format=csv", "&first=O&format=ndjson"):
            response = client.get(f"/solve?variant={variant}{query}", headers={"Accept-Encoding": "gzip"})
            assert response.status_code == 200 and response.headers["Content-Encoding"] == "gzip"
            response.close()  # a 4x4 table is gigabytes: ask for it, do not read it all
        game = {"moves": [4, 0, 8, 2], "variant": variant}
        assert client.post("/review", json=game).status_code == 200
        move = {"board": "." * (16 if variant == "4x4k4" else 9), "policy": "perfect", "variant": variant}
        assert client.post("/move", json=move).status_code == 200
