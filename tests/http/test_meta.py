"""Variants, health checks, the spec and its page, and CORS."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import create_app
from service.engine import NAMING, PRESETS, VARIANTS, TableStore
from service.engine.rules.variants import MAX_CELLS
from tests.http.contract import SPEC, SPEC_PATH, check_response
from tests.preset_tables import copy_tables


def test_variants_come_from_the_registry(client: FlaskClient) -> None:
    body = check_response(client.get("/variants"), "/variants", "get")
    searched = [
        "connect4",
        "5x5k4",
        "6x6k5",
        "7x7k5",
        "8x8k5",
        "15x15k5",
        "15x15k5-exact",
        "15x15k5-renju",
        "3x3x3k3",
        "4x4x4k4",
        "4x4x4k4-gravity",
    ]
    assert [v["name"] for v in body["variants"]] == [v.name for v in PRESETS] + searched
    misere = body["variants"][1]
    assert misere == {"name": "misere", "rules": VARIANTS["misere"].rules, "rows": 3, "cols": 3, "k": 3,
                      "misere": True, "torus": False, "gravity": False, "exact": False, "renju": False,
                      "aliases": [], "shape": {"sides": [3, 3], "torus": False, "gravity_axis": None},
                      "cells": 9, "depth": {"min": 1, "max": 8, "default": 3}, "source": "table"}  # fmt: skip
    # What answers each now, known before any analysis is asked for (a page shows that it waits).
    sources = {v["name"]: v["source"] for v in body["variants"]}
    assert {sources[name] for name in searched} == {"search"} and sources["normal"] == "table"
    connect4 = body["variants"][-len(searched)]
    assert (connect4["rows"], connect4["cols"], connect4["k"], connect4["gravity"]) == (6, 7, 4, True)
    assert connect4["shape"] == {"sides": [6, 7], "torus": False, "gravity_axis": 0}  # marks fall down
    assert "lowest empty cell" in connect4["rules"]
    assert body["naming"] == NAMING and MAX_CELLS == 400
    limits = {"min_side": 2, "max_side": 20, "max_cells": MAX_CELLS, "max_table_cells": 22, "min_k": 3}
    assert body["limits"] == {**limits, "default_budget_ms": 1000, "max_budget_ms": 10_000}


def test_a_name_written_by_the_name_form_names_the_same_board(client: FlaskClient) -> None:
    """A client fills in the form GET /variants gives (no copy of the grammar of its own): the name it
    writes is the board's, for every listed board and every option."""
    form = client.get("/variants").get_json()["name_form"]
    boards = [v for v in client.get("/variants").get_json()["variants"]]
    options = form["options"]

    def excluded(
        chosen: dict[str, bool], response: TestResponse, facts: dict[str, object], k: int = 0
    ) -> bool:
        """Options never named together, or with another k than theirs: refused with a reason."""
        for option, out in form["excludes"].items():
            if chosen.get(option) and any(chosen.get(o) for o in out):
                assert response.status_code == 422 and f"-{option} takes no" in str(facts["detail"])
                return True
        for option, needs in form["option_k"].items():
            if chosen.get(option) and k != needs:
                assert response.status_code == 422 and f"-{option} needs k={needs}" in str(facts["detail"])
                return True
        return False

    for rows, cols, k in [(4, 5, 4), (3, 3, 3), (6, 7, 4), (7, 7, 5)]:
        for mask in range(1 << len(options)):
            chosen = {option: bool(mask >> i & 1) for i, option in enumerate(options)}
            name = form["pattern"].format(rows=rows, cols=cols, k=k) + "".join(
                f"-{option}" for option in options if chosen[option]
            )
            response = client.get(f"/variants/{name}")
            facts = check_response(response, "/variants/{name}", "get")
            if excluded(chosen, response, facts, k):
                continue
            assert (facts["rows"], facts["cols"], facts["k"]) == (rows, cols, k)
            assert {option: facts[option] for option in options} == chosen
    for layers, rows, cols, k in [(3, 3, 3, 3), (4, 4, 4, 4), (2, 3, 4, 3)]:
        for mask in range(1 << len(form["box_options"])):
            chosen = {option: bool(mask >> i & 1) for i, option in enumerate(form["box_options"])}
            name = form["box_pattern"].format(layers=layers, rows=rows, cols=cols, k=k)
            name += "".join(f"-{option}" for option in form["box_options"] if chosen[option])
            response = client.get(f"/variants/{name}")
            facts = check_response(response, "/variants/{name}", "get")
            if excluded(chosen, response, facts):
                continue
            assert facts["shape"]["sides"] == [layers, rows, cols]
            assert {option: facts[option] for option in form["box_options"]} == chosen
    for board in boards:
        shape = board["shape"]
        # On a box, rows and cols are one layer's: the last two sides.
        assert shape["sides"][-2:] == [board["rows"], board["cols"]] and shape["torus"] == board["torus"]
        assert (shape["gravity_axis"] == 0) == board["gravity"]
        if len(shape["sides"]) == 3:  # a listed box is named as the form writes it
            layers, rows, cols = shape["sides"]
            name = form["box_pattern"].format(layers=layers, rows=rows, cols=cols, k=board["k"])
            options = [option for option in form["box_options"] if board[option]]
            assert board["name"] == name + "".join(f"-{option}" for option in options)


def test_health_and_readiness(store: TableStore, tmp_path: Path) -> None:
    """An app of its own, on copies of the session's tables: the session's app has served the other
    tests of its process, and shares its cache of proven positions with every process of the session;
    its report once said "degraded" on CI after them, which says nothing of a fresh start."""
    client = create_app({"TESTING": True, "TABLES_DIR": str(copy_tables(store, tmp_path))}).test_client()
    assert check_response(client.get("/healthz"), "/healthz", "get") == {"status": "ok"}
    ready = check_response(client.get("/readyz"), "/readyz", "get")
    assert ready["status"] == "ready", ready
    assert ready["tables"]["normal"] == {"ready": True, "positions": 5478}
    assert ready["tables"]["4x4k4"] == {"ready": True, "positions": 9_722_011}
    assert set(ready["tables"]) == {v.name for v in PRESETS}


def test_a_small_table_in_memory_is_not_said_to_have_failed(tmp_path: Path) -> None:
    """A fresh start with background builds off: 3x3's table is solved in memory by each worker, and its
    file is simply not built (the directory is writable): readiness says nothing failed, where it once
    said "its build failed"."""
    app = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path), "BACKGROUND_BUILDS": False})
    ready = check_response(app.test_client().get("/readyz"), "/readyz", "get")
    assert ready["tables"]["normal"] == {"ready": True, "positions": 5478}


def test_the_spec_is_served_as_is(client: FlaskClient) -> None:
    response = client.get("/openapi.yaml")
    check_response(response, "/openapi.yaml", "get")
    assert yaml.safe_load(response.data) == SPEC


def test_the_package_ships_the_root_contract() -> None:
    # service/openapi.yaml links to the contract at the root; the wheel holds the file itself
    # (.ci/check-wheel installs the wheel and asks /openapi.yaml and /docs/).
    shipped = Path(create_app({"TESTING": True}).config["OPENAPI_PATH"])
    assert shipped.parent.name == "service" and shipped.resolve() == Path(SPEC_PATH).resolve()


def test_a_missing_contract_stops_the_start(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        create_app({"TESTING": True, "OPENAPI_PATH": str(tmp_path / "missing.yaml")})


def test_docs_page_and_its_assets_are_local(client: FlaskClient) -> None:
    assert client.get("/docs").status_code == 308
    page = client.get("/docs/")
    check_response(page, "/docs/", "get")
    html = page.get_data(as_text=True)
    assert "/openapi.yaml" in html
    for asset in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert asset.startswith(("/docs/", "/static/")), asset  # nothing from another origin
        response = client.get(asset)
        assert response.status_code == 200, asset
        response.close()
    bundle = client.get("/docs/swagger-ui-bundle.js")
    assert len(bundle.data) > 100_000
    bundle.close()
    assert client.get("/docs/nope.js").status_code == 404


def test_cors_is_open_to_any_origin(client: FlaskClient) -> None:
    response = client.post(
        "/analyze", json={"board": "........."}, headers={"Origin": "https://elsewhere.example"}
    )
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Origin" not in response.headers.get("Vary", "")
    preflight = client.options(
        "/analyze",
        headers={
            "Origin": "https://elsewhere.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    assert "content-type" in preflight.headers["Access-Control-Allow-Headers"].lower()
