"""/move, /review, the main line and batches, against the brute-force reference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from service.app import create_app
from service.engine import TableStore, get_variant
from service.engine.play.policies import POLICIES
from service.http.schemas import MAX_BUDGET_MS
from tests.http.contract import SPEC, check_response, resolve
from tests.reference import all_reachable, children, game_over, has_line, minimax, move_values, opponent


def post(client: FlaskClient, path: str, payload: object, status: int = 200) -> Any:
    response = client.post(path, json=payload)
    body = check_response(response, path, "post")
    assert response.status_code == status, body
    return body


def test_policy_enum_is_the_registry() -> None:
    assert SPEC["components"]["schemas"]["PolicyName"]["enum"] == list(POLICIES)


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_every_policy_plays_a_legal_move_with_its_exact_value(
    client: FlaskClient, policy: str, variant: str
) -> None:
    board = "X...O...."
    body = post(client, "/move", {"board": board, "policy": policy, "variant": variant, "seed": 1})
    cell = body["cell"]
    assert board[cell] == "." and body["board"] == board[:cell] + "X" + board[cell + 1 :]
    assert (body["row"], body["col"]) == divmod(cell, 3)
    assert body["player"] == "X" and body["to_move"] == "O" and body["policy"] == policy
    assert (body["score"], body["remoteness"]) == move_values(board, "X", variant == "misere")[cell]


@pytest.mark.parametrize("policy", [name for name in POLICIES if name != "human"])  # human: tables only
def test_every_policy_plays_on_15x15_without_naming_a_depth(client: FlaskClient, policy: str) -> None:
    """The default depth (3) is past what 15x15 allows (2: a third ply reads 11 million sequences), so a
    request that names none reads the board's deepest; one that names 3 is told the range."""
    board = "." * 112 + "X" + "." * 112
    request = {"board": board, "variant": "15x15k5", "policy": policy, "seed": 1, "budget_ms": 300}
    body = post(client, "/move", request)
    assert board[body["cell"]] == "." and body["player"] == "O" and "layer" not in body
    variant = check_response(client.get("/variants/15x15k5"), "/variants/{name}", "get")
    assert variant["depth"] == {"min": 1, "max": 2, "default": 2}
    refused = post(client, "/move", {**request, "depth": 3}, 422)
    assert refused["code"] == "bad_depth" and "between 1 and 2" in refused["detail"]


def test_perfect_takes_the_fastest_win(client: FlaskClient) -> None:
    body = post(client, "/move", {"board": "XX.OO....", "policy": "perfect"})
    assert (
        body["cell"] == 2
        and body["status"] == "x_won"
        and body["result"] == "win"
        and body["remoteness"] == 1
    )


def test_seeded_random_policies_are_reproducible(client: FlaskClient) -> None:
    for policy in ("random", "random-best"):
        request = {"board": ".........", "policy": policy, "seed": 42}
        cells = {post(client, "/move", request)["cell"] for _ in range(5)}
        assert len(cells) == 1
    spread = {
        post(client, "/move", {"board": ".........", "policy": "random", "seed": s})["cell"]
        for s in range(30)
    }
    assert len(spread) > 3


@pytest.mark.parametrize(
    ("payload", "code", "field"),
    [
        ({"board": ".........", "policy": "psychic"}, "unknown_policy", "policy"),
        ({"board": ".........", "policy": "depth", "depth": 9}, "bad_depth", "depth"),
        ({"board": ".........", "policy": "depth", "depth": 0}, "bad_depth", "depth"),
        ({"board": "XXXOO....", "policy": "perfect"}, "game_over", "board"),
        ({"board": "XX.......", "policy": "perfect"}, "impossible_counts", "board"),
    ],
)
def test_move_errors_name_the_field(client: FlaskClient, payload: object, code: str, field: str) -> None:
    body = post(client, "/move", payload, 422)
    assert body["code"] == code and field in body["errors"]


@pytest.mark.parametrize(
    ("payload", "fields"),
    [
        ({"board": "........."}, {"policy"}),
        ({"board": ".........", "policy": "depth", "depth": "3"}, {"depth"}),
        ({"board": ".........", "policy": "random", "seed": 1.5}, {"seed"}),
        ({"board": ".........", "policy": "perfect", "mainline": True}, {"mainline"}),
    ],
)
def test_move_field_errors(client: FlaskClient, payload: object, fields: set[str]) -> None:
    assert set(post(client, "/move", payload, 422)["errors"]) == fields


def reference_verdict(board: str, mover: str, cell: int, misere: bool) -> str:
    values = move_values(board, mover, misere)
    best = minimax(board, mover, misere)
    played = values[cell]
    drop = best[0] - played[0]
    if drop == 2:
        return "blunder"
    if drop == 1:
        return "mistake"
    return "best" if played == best else "slower"


@st.composite
def games(draw: st.DrawFn) -> tuple[list[int], str]:
    board, mover, moves = "." * 9, draw(st.sampled_from("XO")), []
    first = mover
    while not game_over(board):
        cell, board = draw(st.sampled_from(children(board, mover)))
        moves.append(cell)
        mover = opponent(mover)
    return moves, first


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(games(), st.sampled_from(["normal", "misere"]))
def test_review_agrees_with_the_reference(app: Flask, game: tuple[list[int], str], variant: str) -> None:
    moves, first = game
    misere = variant == "misere"
    body = post(app.test_client(), "/review", {"moves": moves, "variant": variant, "first": first})
    board, mover = "." * 9, first
    counts: dict[str, dict[str, int]] = {
        s: dict.fromkeys(("best", "slower", "mistake", "blunder", "unknown"), 0) for s in "XO"
    }
    for ply, cell in zip(body["plies"], moves, strict=True):
        assert ply["player"] == mover and ply["cell"] == cell
        assert (ply["before"]["score"], ply["before"]["remoteness"]) == minimax(board, mover, misere)
        assert (ply["played"]["score"], ply["played"]["remoteness"]) == move_values(board, mover, misere)[
            cell
        ]
        assert ply["verdict"] == reference_verdict(board, mover, cell, misere)
        counts[mover][ply["verdict"]] += 1
        board = board[:cell] + mover + board[cell + 1 :]
        assert ply["board"] == board
        mover = opponent(mover)
    for side in "XO":
        assert {k: v for k, v in body["summary"][side].items() if k != "moves"} == counts[side]
    line_maker = "X" if has_line(board, "X") else "O" if has_line(board, "O") else None
    if line_maker is None:
        assert body["status"] == "draw"
    else:
        winner = opponent(line_maker) if misere else line_maker
        assert body["status"] == f"{winner.lower()}_won"


def test_review_by_boards_equals_review_by_moves(client: FlaskClient) -> None:
    by_moves = post(client, "/review", {"moves": [4, 1, 0]})
    by_boards = post(client, "/review", {"boards": ["....X....", ".O..X....", "XO..X...."]})
    assert by_moves == by_boards
    assert [p["verdict"] for p in by_moves["plies"]] == ["best", "mistake", "best"]


@pytest.mark.parametrize(
    ("payload", "ply", "code"),
    [
        ({"moves": [4, 4]}, 2, "cell_taken"),
        ({"moves": [0, 3, 1, 4, 2, 5]}, 6, "game_over"),
        ({"moves": [4, 9]}, 2, "cell_out_of_range"),
        ({"boards": ["....X....", "....X...X"]}, 2, "bad_step"),
    ],
)
def test_an_illegal_sequence_names_the_ply(client: FlaskClient, payload: object, ply: int, code: str) -> None:
    body = post(client, "/review", payload, 422)
    assert body["ply"] == ply and body["code"] == code
    assert f"ply {ply}" in body["detail"]


@pytest.mark.parametrize(
    "payload", [{}, {"moves": [1], "boards": ["X........"]}, {"moves": ["4"]}, {"moves": [4], "first": "Z"}]
)
def test_review_field_errors(client: FlaskClient, payload: object) -> None:
    assert post(client, "/review", payload, 422)["type"] == "urn:sanmoku:problem:invalid-fields"


REACHABLE = sorted(all_reachable("X").items()) + sorted(all_reachable("O").items())


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.sampled_from(REACHABLE), st.sampled_from(["normal", "misere"]))
def test_main_line_is_perfect_play_to_the_end(app: Flask, entry: tuple[str, str], variant: str) -> None:
    board, to_move = entry
    misere = variant == "misere"
    body = post(
        app.test_client(),
        "/analyze",
        {"board": board, "to_move": to_move, "variant": variant, "mainline": True},
    )
    line = body["mainline"]["cells"]
    assert len(line) == body["remoteness"] == minimax(board, to_move, misere)[1]
    mover = to_move
    for cell in line:  # every ply keeps the value: each is a best move for its side
        value = minimax(board, mover, misere)
        assert move_values(board, mover, misere)[cell] == value
        board = board[:cell] + mover + board[cell + 1 :]
        mover = opponent(mover)
    assert game_over(board)
    final = post(app.test_client(), "/analyze", {"board": board, "to_move": mover, "variant": variant})
    assert body["mainline"]["status"] == final["status"]
    query = {"board": entry[0], "to_move": to_move, "variant": variant, "mainline": "true"}
    get = app.test_client().get("/analyze", query_string=query)
    assert get.get_json() == body


def test_batch_answers_in_order_and_isolates_bad_items(client: FlaskClient) -> None:
    items = [
        {"board": "X...O...."},
        {"board": "XX......."},
        "nonsense",
        {"board": ".........", "variant": "giant"},
        {"board": ".........", "mainline": True},
        {"board": ".........", "oops": 1},
    ]
    results = post(client, "/analyze/batch", {"positions": items})["results"]
    assert len(results) == len(items)
    assert results[0] == post(client, "/analyze", items[0])
    assert results[1]["code"] == "impossible_counts" and results[1]["instance"] == "#/positions/1"
    assert results[2]["errors"] == {"_schema": ["Invalid input type."]} and results[2]["status"] == 422
    assert results[3]["code"] == "unknown_variant"
    assert len(results[4]["mainline"]["cells"]) == 9
    assert results[5]["errors"] == {"oops": ["Unknown field."]}


@pytest.mark.slow
def test_batch_takes_up_to_a_thousand(client: FlaskClient) -> None:
    results = post(client, "/analyze/batch", {"positions": [{"board": "........."}] * 1000})["results"]
    assert len(results) == 1000 and all(r["remoteness"] == 9 for r in results)
    body = post(client, "/analyze/batch", {"positions": [{"board": "........."}] * 1001}, 422)
    assert "positions" in body["errors"]
    assert "positions" in post(client, "/analyze/batch", {"positions": []}, 422)["errors"]


def example_pair(path: str, request_example: str | None) -> tuple[Any, Any]:
    operation = SPEC["paths"][path]["post"]
    media = operation["requestBody"]["content"]["application/json"]
    request = media["examples"][request_example]["value"] if request_example else media["example"]
    ok = resolve(operation["responses"]["200"])["content"]["application/json"]
    return request, ok["example"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "example"), [("/move", "perfect"), ("/review", "boards"), ("/analyze/batch", None)]
)
def test_spec_examples_are_real_answers(
    client: FlaskClient, path: str, example: str | None, tmp_path: Path
) -> None:
    request, response = example_pair(path, example)
    if path == "/analyze/batch":  # its example shows a search's answer: a fresh directory, no proofs kept
        config = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": []}
        client = create_app(config).test_client()
    assert without_search_counts(post(client, path, request)) == without_search_counts(response)


def without_search_counts(payload: Any) -> Any:
    """The payload with what varies from run to run left out: a search's nodes, time and depth."""
    if isinstance(payload, list):
        return [without_search_counts(item) for item in payload]
    if not isinstance(payload, dict):
        return payload
    out = {k: without_search_counts(v) for k, v in payload.items()}
    if isinstance(out.get("search"), dict):
        out["search"] = {"budget_ms": out["search"]["budget_ms"]}
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("request_name", "answer_name"),
    [
        ("opening", "OpeningAnalysis"),
        ("fourByFour", "FourByFourAnalysis"),
        ("fiveByFive", "FiveByFiveSearch"),
        ("renju", "RenjuAnalysis"),
    ],
)
def test_analyze_examples_are_real_answers(request_name: str, answer_name: str, tmp_path: Path) -> None:
    operation = SPEC["paths"]["/analyze"]["post"]
    request = operation["requestBody"]["content"]["application/json"]["examples"][request_name]["value"]
    expected = resolve(SPEC["components"]["examples"][answer_name])["value"]
    config = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": ["4x4k4"]}
    if request.get("variant") == "4x4k4":
        TableStore(tmp_path).get(get_variant("4x4k4"))
    client = create_app(config).test_client()
    assert without_search_counts(post(client, "/analyze", request)) == without_search_counts(expected)


def test_the_budget_example_claims_only_what_is_true(client: FlaskClient) -> None:
    """The 5 ms example cannot be replayed to the node, but every result and remoteness it calls proven
    must be what a search without a budget proves."""
    operation = SPEC["paths"]["/analyze"]["post"]
    request = operation["requestBody"]["content"]["application/json"]["examples"]["fiveByFiveBudget"]["value"]
    shown = resolve(SPEC["components"]["examples"]["FiveByFiveUnknown"])["value"]
    exact = post(client, "/analyze", {**request, "budget_ms": MAX_BUDGET_MS, "source": "search"})
    assert exact["exact"] is True and shown["exact"] is False
    truth = {m["cell"]: m for m in exact["moves"]}
    kinds = set()
    for move in shown["moves"]:
        real = truth[move["cell"]]
        order = ("loss", "draw", "win")
        assert order.index(move["lower"]) <= order.index(real["result"]) <= order.index(move["upper"])
        if move["result"] != "unknown":
            assert move["result"] == real["result"]
        if move["remoteness"] is not None:
            assert move["remoteness"] == real["remoteness"]
        kinds.add((move["result"], move["remoteness"] is None, move["lower"], move["upper"]))
    # it shows each kind of knowledge: proven and finished, a result without its remoteness, a bound
    assert {k[0] for k in kinds} >= {"win", "unknown"} and any(
        k[0] == "unknown" and k[2] == "draw" for k in kinds
    )


def test_policies_are_listed_from_the_registry(client: FlaskClient) -> None:
    body = check_response(client.get("/policies"), "/policies", "get")
    assert [p["name"] for p in body["policies"]] == list(POLICIES)
    assert body["default_depth"] == 3
    depth = next(p for p in body["policies"] if p["name"] == "depth")
    assert depth["uses_depth"] and not depth["uses_seed"] and depth["summary"] == POLICIES["depth"].summary


def test_a_null_batch_item_gets_its_own_problem_and_the_rest_their_answers(client: FlaskClient) -> None:
    results = post(client, "/analyze/batch", {"positions": [None, {"board": "........."}, None]})["results"]
    assert [r.get("status") for r in results] == [422, "in_progress", 422]
    assert results[0]["instance"] == "#/positions/0" and results[2]["instance"] == "#/positions/2"
    assert results[0]["errors"] == {"_schema": ["Invalid input type."]}


def test_review_takes_exactly_one_of_moves_boards_and_columns_as_the_spec_says(client: FlaskClient) -> None:
    """The spec's oneOf and the code agree: two or none is a 422, any one alone is answered."""
    one_of = SPEC["components"]["schemas"]["ReviewRequest"]["oneOf"]
    assert one_of == [{"required": ["moves"]}, {"required": ["boards"]}, {"required": ["columns"]}]
    for payload in ({"moves": [4], "boards": ["....X...."]}, {}, {"moves": [4], "columns": [1]}):
        body = post(client, "/review", payload, 422)
        assert body["errors"] == {
            "_schema": ["give the game as one of `moves`, `boards` and `columns` (gravity boards)"]
        }
    assert post(client, "/review", {"moves": [4]})["plies"][0]["cell"] == 4


@pytest.mark.slow
def test_review_takes_a_gravity_game_by_columns(client: FlaskClient) -> None:
    """On Connect Four's board a column is the move: the mark lands on the column's lowest empty cell."""
    body = post(client, "/review", {"columns": [3, 3, 2], "variant": "connect4", "budget_ms": 3000})
    assert [p["cell"] for p in body["plies"]] == [38, 31, 37] and [p["col"] for p in body["plies"]] == [
        3,
        3,
        2,
    ]
    for columns, code in (([7], "column_out_of_range"), ([0] * 7, "column_full")):
        problem = post(client, "/review", {"columns": columns, "variant": "connect4"}, 422)
        assert problem["code"] == code and problem["ply"] == len(columns)
    flat = post(client, "/review", {"columns": [0], "variant": "normal"}, 422)
    assert flat["code"] == "no_gravity"


@pytest.mark.parametrize("depth", [3, 3.0])
def test_a_whole_number_depth_is_an_integer_as_in_json_schema(client: FlaskClient, depth: float) -> None:
    body = post(client, "/move", {"board": "X...O....", "policy": "depth", "depth": depth, "seed": 7.0})
    assert (
        body["policy"] == "depth"
        and body["cell"] == post(client, "/move", {"board": "X...O....", "policy": "depth"})["cell"]
    )


@pytest.mark.parametrize("depth", [3.5, True, "3"])
def test_other_depths_are_field_errors(client: FlaskClient, depth: object) -> None:
    assert (
        "depth"
        in post(client, "/move", {"board": "X...O....", "policy": "depth", "depth": depth}, 422)["errors"]
    )
