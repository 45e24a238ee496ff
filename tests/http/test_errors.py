"""Every error is problem+json with the right status, the field at fault and the reason."""

from __future__ import annotations

import io

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.http.schemas import BOARD_MAX
from tests.http.contract import problem_of


def test_malformed_json_is_400_and_says_why(client: FlaskClient) -> None:
    response = client.post("/analyze", data='{"board": ', content_type="application/json")
    assert "not valid JSON" in str(problem_of(response, "/analyze", "post", 400)["detail"])


def test_a_body_that_is_not_json_is_415(client: FlaskClient) -> None:
    problem_of(client.post("/analyze", data="board=X........"), "/analyze", "post", 415)


@pytest.mark.parametrize(
    ("payload", "fields"),
    [
        ({}, {"board"}),
        ({"board": 7}, {"board"}),
        ({"board": "X" * (BOARD_MAX + 1)}, {"board"}),
        ({"board": ".........", "to_move": "Z"}, {"to_move"}),
        ({"board": ".........", "colour": "X"}, {"colour"}),
        ({"board": 1, "to_move": 2, "variant": 3}, {"board", "to_move", "variant"}),
        ([".........", "X"], {"_schema"}),
        ("just a string", {"_schema"}),
    ],
)
def test_field_errors_are_422_and_name_each_field(
    client: FlaskClient, payload: object, fields: set[str]
) -> None:
    body = problem_of(client.post("/analyze", json=payload), "/analyze", "post", 422)
    assert body["type"] == "urn:sanmoku:problem:invalid-fields"
    assert set(body["errors"]) == fields  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("board", "to_move", "code", "field"),
    [
        ("X.......", None, "wrong_length", "board"),
        ("X...Q....", None, "bad_character", "board"),
        ("XX.......", None, "impossible_counts", "board"),
        ("X........", "X", "wrong_side_to_move", "to_move"),
        ("XXXOOO...", "X", "both_lines", "board"),
        ("XXXOO.O..", None, "line_by_side_to_move", "board"),
    ],
)
def test_impossible_positions_carry_the_engine_reason(
    client: FlaskClient, board: str, to_move: str | None, code: str, field: str
) -> None:
    body = problem_of(
        client.post("/analyze", json={"board": board, "to_move": to_move}), "/analyze", "post", 422
    )
    assert body["type"] == "urn:sanmoku:problem:invalid-position"
    assert body["code"] == code and field in body["errors"]  # type: ignore[operator]
    get = client.get("/analyze", query_string={"board": board, **({"to_move": to_move} if to_move else {})})
    assert problem_of(get, "/analyze", "get", 422)["code"] == code


def test_unknown_variant_is_422(client: FlaskClient) -> None:
    body = problem_of(
        client.post("/analyze", json={"board": ".........", "variant": "giant"}), "/analyze", "post", 422
    )
    assert body["code"] == "unknown_variant" and "variant" in body["errors"]  # type: ignore[operator]
    assert "normal" in str(body["detail"])


def test_unknown_path_is_404(client: FlaskClient) -> None:
    response = client.get("/no/such/thing")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    response = client.delete("/analyze")
    assert response.status_code == 405 and response.mimetype == "application/problem+json"
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "POST"}
    assert client.post("/solve").headers["Allow"]


def test_body_over_the_limit_is_413(client: FlaskClient) -> None:
    response = client.post("/analyze", data=b" " * (128 * 1024 + 1), content_type="application/json")
    problem_of(response, "/analyze", "post", 413)


def test_chunked_body_over_the_limit_is_413_too(client: FlaskClient) -> None:
    def chunked(size: int) -> object:
        return client.post(
            "/analyze",
            input_stream=io.BytesIO(b'{"board": ".........", "pad": "' + b" " * size + b'"}'),
            headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
            environ_overrides={"wsgi.input_terminated": True},
        )

    problem_of(chunked(200_000), "/analyze", "post", 413)
    small = chunked(10)  # under the limit it reaches the schema, which names the unknown field
    assert problem_of(small, "/analyze", "post", 422)["errors"] == {"pad": ["Unknown field."]}


def test_the_limit_is_configurable() -> None:
    client = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 64}).test_client()
    response = client.post("/analyze", json={"board": ".........", "variant": "normal", "to_move": "X" * 40})
    assert response.status_code == 413


def test_an_unexpected_failure_is_a_500_problem_without_a_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app({"TESTING": False})

    def broken(_: object) -> object:
        raise RuntimeError("secret internals")

    monkeypatch.setattr("service.http.answers.answer_payload", broken)
    response = app.test_client().post("/analyze", json={"board": "........."})
    assert response.status_code == 500 and response.mimetype == "application/problem+json"
    assert "secret" not in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "path", "payload"),
    [
        ("get", "/solve", {"variant": "eight"}),
        ("post", "/move", {"board": "5:2", "variant": "eight", "policy": "perfect"}),
        ("post", "/review", {"moves": [1, 2], "variant": "eight"}),
    ],
)
def test_a_game_without_a_board_is_refused_as_such(
    client: FlaskClient, method: str, path: str, payload: dict[str, object]
) -> None:
    """GET /variants lists Eight among its games; where a board is needed it is named as such, not as a
    variant no one knows."""
    response = client.get(path, query_string=payload) if method == "get" else client.post(path, json=payload)
    body = problem_of(response, path, method, 422)
    assert body["type"] == "urn:sanmoku:problem:no-board" and set(body["errors"]) == {"variant"}
    assert "'eight' is a game without a board" in str(body["detail"])
