"""The spec is valid, its examples are true to its schemas, and its paths are the app's routes."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

from service.engine import VARIANTS
from tests.api.contract import SPEC, SPEC_PATH, every_example, resolve, validator

EXAMPLES = every_example()


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


def test_variant_enum_is_the_registry() -> None:
    assert SPEC["components"]["schemas"]["VariantName"]["enum"] == list(VARIANTS)
