"""The spec is valid, its examples are true to its schemas, and its paths are the app's routes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from service.engine import POLICIES, geometry_of, get_variant, supported_variants
from service.engine.rules.variants import MAX_CELLS, MIN_K, MIN_SIDE
from service.http.schemas import BOARD_MAX
from service.http.solve_formats import FORMATS, JSON_MAX_POSITIONS, SYMMETRIES
from tests.http.contract import SPEC, SPEC_PATH, every_example, resolve, validator

EXAMPLES = every_example()


@pytest.mark.slow
def test_spec_is_valid_openapi_3_1() -> None:
    spec, _ = read_from_filename(str(SPEC_PATH))
    validate(spec)
    assert SPEC["openapi"].startswith("3.1")


@pytest.mark.parametrize(("where", "schema", "example"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_examples_match_their_schemas(where: str, schema: dict[str, object], example: object) -> None:
    if schema.get("type") == "string" and not isinstance(example, str):
        pytest.fail(f"{where}: a string example expected")
    validator(schema).validate(example)


def test_every_documented_body_has_an_example() -> None:
    for path, method in spec_routes():
        operation = SPEC["paths"][path][method]
        for status, response in operation["responses"].items():
            for media, content in resolve(response).get("content", {}).items():
                has = "example" in content or "examples" in content
                assert has, f"{method} {path} {status} {media} has no example"
        body = operation.get("requestBody", {}).get("content", {})
        assert all("example" in c or "examples" in c for c in body.values()), f"{method} {path} request"


def app_routes(app: Flask) -> set[tuple[str, str]]:
    routes = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                routes.add((path, method.lower()))
    return routes


def spec_routes() -> set[tuple[str, str]]:
    methods = {"get", "post", "put", "patch", "delete"}
    return {(path, m) for path, item in SPEC["paths"].items() for m in item if m in methods}


def test_paths_match_routes_both_ways(app: Flask) -> None:
    assert app_routes(app) == spec_routes()


def schema(name: str) -> dict[str, Any]:
    found: dict[str, Any] = SPEC["components"]["schemas"][name]
    return found


def test_every_supported_variant_name_fits_the_pattern() -> None:
    pattern = re.compile(schema("VariantName")["pattern"])
    for variant in [*supported_variants(MAX_CELLS), get_variant("3x3x3k3"), get_variant("4x4x4k4-misere")]:
        assert pattern.fullmatch(variant.name) and pattern.fullmatch(variant.long_name)
    assert not pattern.fullmatch("giant")


@pytest.mark.slow
def test_the_numbers_in_the_spec_are_the_engines() -> None:
    every = supported_variants(MAX_CELLS)
    cells = [v.cells for v in every]
    assert schema("Cell")["maximum"] == max(cells) - 1 == MAX_CELLS - 1
    assert schema("Row")["maximum"] == max(v.rows for v in every) - 1
    assert schema("Col")["maximum"] == max(v.cols for v in every) - 1
    eight = "[0-9]{1,2}:[0-3]"  # Eight's total and last pick (see test_eight)
    assert schema("CanonicalBoard")["pattern"] == f"^([XO.]{{{min(cells)},{max(cells)}}}|{eight})$"
    assert schema("Board")["maxLength"] == BOARD_MAX
    for name in ("VariantInfo", "VariantDetail"):
        info = schema(name)["properties"]
        assert (info["cells"]["minimum"], info["cells"]["maximum"]) == (min(cells), max(cells))
        assert info["rows"]["maximum"] == max(v.rows for v in every) == info["cols"]["maximum"]
        assert info["k"]["maximum"] == max(v.k for v in every)
        assert (
            info["rows"]["minimum"] == info["cols"]["minimum"] == MIN_SIDE and info["k"]["minimum"] == MIN_K
        )
    # The depth range depends on the cells alone: one board of each count (a geometry of each of the 35,112
    # boards took minutes and held them all in memory)
    deepest = max(geometry_of(v).max_depth for v in {v.cells: v for v in every}.values())
    assert schema("MoveRequest")["properties"]["depth"]["maximum"] == deepest
    assert schema("DepthRange")["properties"]["max"]["maximum"] == deepest
    assert schema("PolicyName")["enum"] == list(POLICIES)
    depths = {name: geometry_of(get_variant(name)).max_depth for name in ("normal", "3x4k3", "4x4k4")}
    words = schema("MoveRequest")["properties"]["depth"]["description"]
    assert "8 on 3×3, 5 on 3×4, 4 on 4×4" in words and (
        depths["normal"],
        depths["3x4k3"],
        depths["4x4k4"],
    ) == (8, 5, 4)
    assert f"{JSON_MAX_POSITIONS:,}" in SPEC["paths"]["/solve"]["get"]["description"]
    solve_parameters = {p.get("name"): p for p in SPEC["paths"]["/solve"]["get"]["parameters"]}
    assert solve_parameters["format"]["schema"]["enum"] == list(FORMATS)
    assert solve_parameters["symmetry"]["schema"]["enum"] == list(SYMMETRIES)
