"""Checks real responses against openapi.yaml, the contract."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from werkzeug.test import TestResponse

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC: dict[str, Any] = yaml.safe_load(SPEC_PATH.read_text())
SPEC_URI = "urn:sanmoku:openapi"
REGISTRY: Registry = Registry().with_resource(
    SPEC_URI, Resource.from_contents(SPEC, default_specification=DRAFT202012)
)


def resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        target: Any = SPEC
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def anchored(node: Any) -> Any:
    """A copy whose local references point into the whole document."""
    if isinstance(node, dict):
        return {
            k: SPEC_URI + v if k == "$ref" and v.startswith("#") else anchored(v) for k, v in node.items()
        }
    if isinstance(node, list):
        return [anchored(v) for v in node]
    return node


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(
        anchored(schema), registry=REGISTRY, format_checker=Draft202012Validator.FORMAT_CHECKER
    )


def check_response(response: TestResponse, path: str, method: str) -> Any:
    """Validate status, media type, headers and body; return the decoded body."""
    operation = SPEC["paths"][path][method.lower()]
    status = str(response.status_code)
    assert status in operation["responses"], f"{method} {path}: {status} is not documented"
    documented = resolve(operation["responses"][status])
    unproven = response.headers.get("Cache-Control") == "no-store"  # such an answer has no ETag
    for name in documented.get("headers", {}):
        needed = name in ("ETag", "Cache-Control", "Vary") and not (name == "ETag" and unproven)
        if needed and status in ("200", "304"):
            assert name in response.headers, f"{method} {path} {status}: header {name} missing"
    content = documented.get("content")
    if content is None:
        assert response.data == b"", f"{method} {path} {status}: a body where none is documented"
        return None
    media = response.mimetype
    assert media in content or "*/*" in content, f"{method} {path} {status}: {media} not documented"
    schema = content.get(media, content.get("*/*"))["schema"]
    if media == "application/json" or media.endswith("+json"):
        body = json.loads(response.get_data())
        validator(schema).validate(body)
        return body
    if media == "application/octet-stream":
        return response.get_data()
    return response.get_data(as_text=True)


def analyze(client: FlaskClient, **fields: object) -> dict[str, object]:
    """POST /analyze with `fields`, checked against the spec; the answer must be a 200."""
    response = client.post("/analyze", json=fields)
    body = check_response(response, "/analyze", "post")
    assert response.status_code == 200, body
    assert isinstance(body, dict)
    return body


def every_example() -> list[tuple[str, dict[str, Any], Any]]:
    """(where, schema, example) for each example in the spec, found by walking it."""
    found: list[tuple[str, dict[str, Any], Any]] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            schema = node.get("schema")
            if isinstance(schema, dict):
                if "example" in node:
                    found.append((where, schema, node["example"]))
                for name, example in node.get("examples", {}).items():
                    found.append((f"{where}/{name}", schema, resolve(example)["value"]))
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk(SPEC["paths"], "#/paths")
    walk(SPEC["components"].get("responses", {}), "#/components/responses")
    walk(SPEC["components"].get("parameters", {}), "#/components/parameters")
    return found


def problem_of(response: object, path: str, method: str, status: int) -> dict[str, object]:
    assert response.status_code == status, response.data  # type: ignore[attr-defined]
    assert response.mimetype == "application/problem+json"  # type: ignore[attr-defined]
    body = check_response(response, path, method)  # type: ignore[arg-type]
    assert body["status"] == status and body["title"] and body["detail"]
    assert "Traceback" not in str(body)
    return body  # type: ignore[no-any-return]
