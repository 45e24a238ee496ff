"""Gomoku's rules through the API: the names players use, renju's forbidden points in answers and as
illegal moves, moves named as players write them (h8), and records read and written by POST /record."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.engine.search.continuous_fours import Rules
from tests.engine.search.test_win_tree import Sides, replays, tree_of
from tests.http.contract import check_response

SIZE = 15
EMPTY_ROW = "." * SIZE
# X X X . X X on the top row, white's stones apart on the second: black to move, the gap is an overline
OVERLINE = "/".join(["XXX.XX" + "." * 9, "O.O.O.O.O" + "." * 6] + [EMPTY_ROW] * 13)


def post(client: FlaskClient, path: str, payload: object, status: int = 200) -> Any:
    response = client.post(path, json=payload)
    body = check_response(response, path, "post")
    assert response.status_code == status, body
    return body


def test_gomoku_s_names_are_listed_with_their_rules(client: FlaskClient) -> None:
    body = check_response(client.get("/variants"), "/variants", "get")
    named = {v["name"]: v for v in body["variants"]}
    assert named["15x15k5"]["aliases"] == ["gomoku"] and named["15x15k5-exact"]["aliases"] == [
        "gomoku-standard"
    ]
    renju = named["15x15k5-renju"]
    assert renju["renju"] and renju["aliases"] == ["renju"] and "double-three" in renju["rules"]
    assert body["name_form"]["option_k"] == {"renju": 5} and "renju" in body["name_form"]["options"]
    detail = check_response(client.get("/variants/renju"), "/variants/{name}", "get")
    assert detail["name"] == "15x15k5-renju" and detail["table"] is None and detail["source"] == "search"
    refused = check_response(client.get("/variants/15x15k4-renju"), "/variants/{name}", "get")
    assert refused["code"] == "unknown_variant" and "needs k=5" in refused["detail"]


def test_a_renju_answer_lists_the_forbidden_points_and_never_offers_one(client: FlaskClient) -> None:
    answer = post(client, "/analyze", {"board": OVERLINE, "variant": "renju", "budget_ms": 200})
    assert answer["variant"] == "15x15k5-renju" and answer["forbidden"] == [3]
    assert 3 not in {m["cell"] for m in answer["moves"]} and len(answer["moves"]) == 225 - 10 - 1
    assert not answer["exact"] and answer["result"] == "unknown"
    # no win is proven (the freestyle one is forbidden); white's O.O.O.O.O makes a double four from a
    # gap, so the moves continuous fours prove are losses, with their bound
    assert all(m["lower"] == "loss" for m in answer["moves"])
    assert all(m["remoteness_at_most"] == 4 for m in answer["moves"] if m["upper"] == "loss")
    freestyle = post(client, "/analyze", {"board": OVERLINE, "variant": "gomoku", "budget_ms": 200})
    assert "forbidden" not in freestyle and freestyle["best_move"] == 3 and freestyle["result"] == "win"


def test_white_is_offered_black_s_forbidden_points(client: FlaskClient) -> None:
    board = "/".join(["XXX.XX" + "." * 9, "O.O.O.O" + "." * 8] + [EMPTY_ROW] * 13)
    answer = post(client, "/analyze", {"board": board, "variant": "renju", "budget_ms": 100})
    assert (
        answer["to_move"] == "O" and answer["forbidden"] == [3] and 3 in {m["cell"] for m in answer["moves"]}
    )


def test_a_review_takes_named_moves_and_refuses_a_forbidden_one(client: FlaskClient) -> None:
    game = ["a15", "a1", "b15", "b1", "c15", "c1", "e15", "d1", "f15", "e2", "d15"]
    refused = post(client, "/review", {"moves": game, "variant": "renju", "budget_ms": 50}, 422)
    assert (refused["code"], refused["ply"]) == ("forbidden", 11) and "overline" in refused["detail"]
    review = post(client, "/review", {"moves": ["h8", "h9", 113], "variant": "gomoku", "budget_ms": 50})
    assert [ply["cell"] for ply in review["plies"]] == [112, 97, 113]
    wrong = post(client, "/review", {"moves": ["h8", "p1"], "variant": "gomoku", "budget_ms": 50}, 422)
    assert (wrong["code"], wrong["ply"]) == ("bad_cell_name", 2)


def test_a_record_is_read_either_way_and_written_both(client: FlaskClient) -> None:
    named = post(client, "/record", {"moves": ["h8", "h9", "j10", "g7"], "variant": "renju"})
    assert named["moves"] == [112, 97, 84, 126] and named["variant"] == "15x15k5-renju"
    again = post(client, "/record", {"psq": named["psq"] + "pbrain-a\n-1\n", "variant": "renju"})
    assert again == named
    wide = post(client, "/record", {"psq": "Piskvork 20x20, 11:11, 0\n10,10,0\n11,11,0\n-1\n"})
    assert wide["variant"] == "20x20k5" and wide["names"] == ["j11", "k10"]
    box = post(client, "/record", {"moves": [13, 0], "variant": "3x3x3k3"})
    assert box["names"] is None and box["psq"] is None


def test_a_bad_record_answers_422_with_its_reason(client: FlaskClient) -> None:
    size = post(client, "/record", {"psq": "Piskvork 20x20, 11:11, 0\n1,1,0\n", "variant": "renju"}, 422)
    assert size["code"] == "record_size"
    header = post(client, "/record", {"psq": "10,10,0\n"}, 422)
    assert header["code"] == "bad_record"
    both = post(client, "/record", {"psq": "Piskvork 15x15, 11:11, 0\n", "moves": []}, 422)
    assert both["errors"] == {"_schema": ["give the game as one of `moves` and `psq`"]}


# 9x9, five in a row, X to move: no continuous fours win, but X's three on r7c3 (cell 66) does, a tree
# of six moves (found by the core's tree search on a random position, replayed by the tests' checker).
THREES_WIN = ".XO..O.X..OO..X...XO...O.X.X........O....O.O....X...X....X...XO.XX.....OO.O....X."


def test_a_win_by_threes_carries_its_tree_and_the_tree_replays(client: FlaskClient) -> None:
    body = post(client, "/analyze", {"variant": "9x9k5", "board": THREES_WIN, "to_move": "X"})
    assert body["result"] == "win" and "win_line" not in body
    certificate = body["win_tree"]
    first = next(m for m in body["moves"] if m["cell"] == certificate["root"]["move"])
    assert first["result"] == "win"
    x = sum(1 << i for i, mark in enumerate(THREES_WIN) if mark == "X")
    o = sum(1 << i for i, mark in enumerate(THREES_WIN) if mark == "O")
    assert replays(Sides.alike(Rules(size=9)), tree_of(certificate["root"]), x, o) <= certificate["plies"]
