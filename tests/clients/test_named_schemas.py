"""The contract's shapes that client generators need, checked without generating anything: every object
is a named component schema, and no enum holds two values equal up to case.

openapi-python-client names enum members by upper-casing values ("Duplicate key X in enum" for
[X, O, x, o]), and could not model an object nested inline in a `oneOf` (the search's statistics, null
beside them): its answers then failed to parse. test_generated_clients.py generates the clients."""

from __future__ import annotations

from typing import Any

from tests.http.contract import SPEC

SKIPPED = {"example", "examples"}  # values, not schemas


def is_object(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in schema


def schemas(node: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
    """Every dict below `node` (examples left out), with where it is."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        found.append((where, node))
        for key, value in node.items():
            if key not in SKIPPED:
                found += schemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += schemas(value, f"{where}/{i}")
    return found


def everything() -> list[tuple[str, dict[str, Any]]]:
    places = [(SPEC["paths"], "#/paths")]
    places += [(SPEC["components"][part], f"#/components/{part}") for part in ("responses", "parameters")]
    return [found for node, where in places for found in schemas(node, where)]


def test_every_object_is_a_named_schema() -> None:
    inline = [where for where, node in everything() if is_object(node)]
    for name, schema in SPEC["components"]["schemas"].items():
        inline += [
            where for where, node in schemas(schema, f"#/components/schemas/{name}")[1:] if is_object(node)
        ]
    assert inline == []


def test_no_enum_has_values_equal_up_to_case() -> None:
    everywhere = everything() + schemas(SPEC["components"]["schemas"], "#/components/schemas")
    enums = [(where, node["enum"]) for where, node in everywhere if isinstance(node.get("enum"), list)]
    assert len(enums) > 20
    for where, values in enums:
        words = [value.upper() for value in values if isinstance(value, str)]
        assert len(words) == len(set(words)), f"{where}: {values}"


def test_the_side_to_move_takes_either_case_by_a_pattern() -> None:
    side = SPEC["components"]["schemas"]["SideInput"]
    assert "enum" not in side and side["pattern"] == "^[XOxo]$"
