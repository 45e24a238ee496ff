"""/solve: the whole table, its formats, and HTTP caching."""

from __future__ import annotations

import csv
import gzip
import io
import json

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.engine import get_variant
from tests.http.contract import check_response
from tests.reference import all_reachable, minimax, reachable, rules_of


@pytest.mark.slow
def test_misere_table_is_complete_and_exact(client: FlaskClient) -> None:
    response = client.get("/solve?variant=misere")
    body = check_response(response, "/solve", "get")
    assert body["summary"]["positions"] == 5478
    assert body["summary"]["by_result"] == {"win": 3054, "draw": 980, "loss": 1444}
    assert body["summary"]["by_marks"] == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
    reachable = all_reachable("X")
    assert set(body["positions"]) == set(reachable)
    for board, entry in body["positions"].items():
        assert entry["to_move"] == reachable[board]
        assert (entry["score"], entry["remoteness"]) == minimax(board, entry["to_move"], True)


@pytest.mark.parametrize(
    ("variant", "by_result"),
    [("normal", {"win": 390, "draw": 151, "loss": 224}), ("misere", {"win": 421, "draw": 140, "loss": 204})],
)
def test_canonical_table_has_765_classes(
    client: FlaskClient, variant: str, by_result: dict[str, int]
) -> None:
    body = check_response(client.get(f"/solve?variant={variant}&symmetry=canonical&first=O"), "/solve", "get")
    assert body["first"] == "O" and body["symmetry"] == "canonical"
    assert body["summary"]["positions"] == 765 == len(body["positions"])
    assert body["summary"]["by_result"] == by_result


def test_identical_requests_identical_bytes_and_304(client: FlaskClient) -> None:
    first, second = client.get("/solve?variant=misere"), client.get("/solve?variant=misere")
    assert first.data == second.data and first.headers["ETag"] == second.headers["ETag"]
    assert not first.headers["ETag"].startswith("W/")
    assert first.headers["Cache-Control"] == "public, max-age=86400, immutable"
    cached = client.get("/solve?variant=misere", headers={"If-None-Match": first.headers["ETag"]})
    check_response(cached, "/solve", "get")
    assert cached.status_code == 304 and cached.data == b""


def test_gzip_has_its_own_etag_and_the_same_content(client: FlaskClient) -> None:
    plain = client.get("/solve?variant=normal")
    packed = client.get("/solve?variant=normal", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 10


def test_ndjson_and_csv_carry_the_same_positions(client: FlaskClient) -> None:
    table = json.loads(client.get("/solve?variant=misere").data)["positions"]
    ndjson = client.get("/solve?variant=misere&format=ndjson")
    check_response(ndjson, "/solve", "get")
    lines = [json.loads(line) for line in ndjson.data.decode().splitlines()]
    assert {line.pop("board"): line for line in lines} == table
    text = client.get("/solve?variant=misere&format=csv")
    assert text.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(text.data.decode())))
    assert len(rows) == 5478
    for row in rows[:200]:
        entry = table[row["board"]]
        assert int(row["score"]) == entry["score"] and int(row["remoteness"]) == entry["remoteness"]
        moves = [dict(zip(("cell", "score", "remoteness"), map(int, m.split(":")), strict=True))
                 for m in row["moves"].split()]  # fmt: skip
        assert moves == entry["moves"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("variant=giant", "variant"),
        ("first=Z", "first"),
        ("symmetry=half", "symmetry"),
        ("format=xml", "format"),
        ("color=red", "color"),
    ],
)
def test_bad_parameters_name_the_field(client: FlaskClient, query: str, field: str) -> None:
    response = client.get(f"/solve?{query}")
    body = check_response(response, "/solve", "get")
    assert response.status_code == 422 and field in body["errors"]


@pytest.mark.slow
@pytest.mark.parametrize("query", ["variant=3x4k3&format=ndjson", "variant=3x3k3-torus&symmetry=canonical"])
def test_etags_and_bytes_survive_a_restart(client: FlaskClient, query: str) -> None:
    """The ETag is the table's checksum and the request: a new process gives the same, and its 304."""
    again = create_app({"TESTING": True}).test_client()
    for encoding in ("identity", "gzip"):
        headers = {"Accept-Encoding": encoding}
        first, second = (
            client.get(f"/solve?{query}", headers=headers),
            again.get(f"/solve?{query}", headers=headers),
        )
        assert first.headers["ETag"] == second.headers["ETag"] and first.data == second.data
        cached = again.get(f"/solve?{query}", headers={**headers, "If-None-Match": first.headers["ETag"]})
        assert cached.status_code == 304 and cached.data == b""
    plain = client.get(f"/solve?{query}")
    packed = client.get(f"/solve?{query}", headers={"Accept-Encoding": "gzip"})
    assert plain.headers["ETag"] != packed.headers["ETag"] and gzip.decompress(packed.data) == plain.data


@pytest.mark.slow
@pytest.mark.parametrize("name", ["3x4k3", "3x3k3-torus-misere"])
def test_canonical_entries_are_one_per_class_the_smallest_board(client: FlaskClient, name: str) -> None:
    """Against the reference: every reachable board, reduced to the smallest of its images."""
    rules = rules_of(get_variant(name))
    classes = {min(rules.images(board)) for board in reachable(rules, "X")}
    lines = client.get(f"/solve?variant={name}&symmetry=canonical&format=ndjson").data.decode().splitlines()
    boards = [json.loads(line)["board"] for line in lines]
    assert len(boards) == len(classes) and set(boards) == classes
