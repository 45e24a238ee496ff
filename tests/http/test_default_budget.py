"""The operator's default budget (DEFAULT_BUDGET_MS, SANMOKU_DEFAULT_BUDGET_MS): what a request that
names no budget_ms gets, on every route that takes one, and what GET /variants says it is; a request's
own budget_ms still wins, and a setting no request could name stops the app at start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from tests.http.contract import check_response

BOARD_7X7 = "." * 24 + "X" + "." * 24  # no table: a search answers, and none proves 7x7k5 in 40 ms


def client_with(tmp_path: Path, **config: Any) -> FlaskClient:
    settings = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": [], **config}
    return create_app(settings).test_client()


def searched(client: FlaskClient, method: str, path: str, **asked: Any) -> Any:
    response = client.get(path, query_string=asked) if method == "get" else client.post(path, json=asked)
    body = check_response(response, path, method)
    assert response.status_code == 200, body
    return body


def test_a_request_without_a_budget_gets_the_operators(tmp_path: Path) -> None:
    client = client_with(tmp_path, DEFAULT_BUDGET_MS=40)
    position = {"board": BOARD_7X7, "variant": "7x7k5", "source": "search"}
    assert searched(client, "get", "/analyze", **position)["search"]["budget_ms"] == 40
    assert searched(client, "post", "/analyze", **position)["search"]["budget_ms"] == 40
    assert searched(client, "post", "/analyze", **position, budget_ms=7)["search"]["budget_ms"] == 7
    batch = searched(client, "post", "/analyze/batch", positions=[position])
    assert batch["results"][0]["search"]["budget_ms"] <= 40
    limits = searched(client, "get", "/variants")["limits"]  # a client can know it before it asks
    assert (limits["default_budget_ms"], limits["max_budget_ms"]) == (40, 10_000)


def test_without_the_setting_the_default_is_the_specs(tmp_path: Path) -> None:
    client = client_with(tmp_path)
    position = {"board": BOARD_7X7, "variant": "7x7k5", "source": "search"}
    assert searched(client, "post", "/analyze", **position)["search"]["budget_ms"] == 1000


def test_the_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANMOKU_DEFAULT_BUDGET_MS", "250")
    assert create_app().config["DEFAULT_BUDGET_MS"] == 250


@pytest.mark.parametrize("value", [0, 10_001, -5, 2.5, "250", True, None])
def test_a_budget_no_request_could_name_stops_the_app(tmp_path: Path, value: object) -> None:
    with pytest.raises(ValueError, match="DEFAULT_BUDGET_MS"):
        client_with(tmp_path, DEFAULT_BUDGET_MS=value)
