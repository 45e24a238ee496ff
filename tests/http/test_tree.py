"""/tree, POST and GET: the game tree and the walks of minimax and alpha-beta through HTTP, true to the
spec (its Eight example is the real answer), the 422 of a tree too large, and the Graphviz text."""

from __future__ import annotations

import itertools
import subprocess
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.http.contract import SPEC, analyze, check_response
from tests.requires import require


def tree(client: FlaskClient, status: int = 200, **fields: object) -> Any:
    response = client.post("/tree", json=fields)
    body = check_response(response, "/tree", "post")
    assert response.status_code == status, body
    return body


def nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [node] + [n for child in node["children"] for n in nodes(child)]


def test_the_spec_example_is_the_real_answer(client: FlaskClient) -> None:
    example = SPEC["components"]["examples"]["EightTree"]["value"]
    assert tree(client, board="4:1", variant="eight") == example


def test_a_tree_near_the_end_of_3x3_agrees_with_analyze(client: FlaskClient) -> None:
    body = tree(client, board="XOX.O.X..", variant="normal", algorithm="alphabeta-ordered")
    assert body["complete"] and body["exact"] and not body["cut_for_size"] and body["values"] == "exact"
    every = nodes(body["root"])
    assert len(every) == body["nodes"] == body["counts"]["minimax"]["nodes"]
    for node in every:  # each position's value as /analyze gives it, turned to the root's side
        if node["leaf"] == "end":
            continue
        shown = analyze(client, board=node["board"], variant="normal")
        flip = {"win": "loss", "loss": "win", "draw": "draw"}
        result = shown["result"] if node["role"] == "max" else flip[shown["result"]]  # type: ignore[index]
        assert (node["result"], node["remoteness"]) == (result, shown["remoteness"]), node["board"]
    line = body["principal_variation"]
    assert line[0] in analyze(client, board="XOX.O.X..")["best_moves"]  # type: ignore[operator]
    counts = body["counts"]
    assert counts["alphabeta-ordered"]["nodes"] <= counts["minimax"]["nodes"]
    assert counts["alphabeta"]["nodes"] <= counts["minimax"]["nodes"]
    assert len(body["visits"]) == counts["alphabeta-ordered"]["nodes"]


@pytest.mark.slow
def test_the_empty_4x4_board_to_depth_3(client: FlaskClient) -> None:
    body = tree(client, board="." * 16, variant="4x4k4", depth=3)
    assert body["nodes"] == 1 + 16 + 16 * 15 + 16 * 15 * 14 and body["exact"] and not body["complete"]
    assert body["root"]["result"] == "draw" and body["root"]["remoteness"] == 16
    visited = {v["node"] for v in body["visits"]}
    pruned = {p for c in body["cutoffs"] for p in c["pruned"]}
    assert visited.isdisjoint(pruned) and len(visited) == body["counts"]["alphabeta"]["nodes"] < body["nodes"]


def test_a_board_with_no_table_reads_the_evaluation(client: FlaskClient) -> None:
    body = tree(client, board="." * 25, variant="5x5k4")
    assert body["values"] == "evaluation" and not body["exact"] and body["cut_for_size"]
    assert body["depth"] == 2 and body["evaluation"]["name"] == "open-lines"
    leaves = [n for n in nodes(body["root"]) if not n["children"]]
    assert {n["leaf"] for n in leaves} == {"evaluation"} and all(n["result"] is None for n in leaves)


def test_the_whole_tree_of_eight(client: FlaskClient) -> None:
    body = check_response(client.get("/tree?board=0:0&variant=eight"), "/tree", "get")
    assert body["complete"] and body["depth"] == 6 and body["exact"]  # the article: at most 6 levels
    assert body["root"]["result"] == "loss"  # the first player loses (see test_eight's brute force)
    picks = body["principal_variation"]
    assert all(a != b for a, b in itertools.pairwise(picks)) and sum(picks) > 8


def test_a_tree_too_large_is_a_422_naming_depth(client: FlaskClient) -> None:
    body = tree(client, 422, board="." * 16, variant="4x4k4", depth=4)
    assert body["type"].endswith("tree-too-large") and body["code"] == "tree_too_large"
    assert list(body["errors"]) == ["depth"] and body["fits_depth"] == 3 and body["max_nodes"] == 5000
    got = client.get("/tree", query_string={"board": "." * 9, "depth": 5})
    assert check_response(got, "/tree", "get")["fits_depth"] == 4
    fields = tree(client, 422, board="X" * 3, depth=0, algorithm="negamax")
    assert set(fields["errors"]) == {"depth", "algorithm"}


def test_a_get_is_cacheable_and_its_own(client: FlaskClient) -> None:
    analysis = client.get("/analyze?board=XOX.O.X..")  # the same query string, another resource
    assert "moves" in check_response(analysis, "/analyze", "get")
    first = client.get("/tree?board=XOX.O.X..")
    assert "root" in check_response(first, "/tree", "get")
    again = client.get("/tree?board=XOX.O.X..", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    guesses = client.get("/tree", query_string={"board": "." * 25, "variant": "5x5k4", "depth": 1})
    assert check_response(guesses, "/tree", "get")["values"] == "evaluation"
    assert guesses.headers["Cache-Control"] == "no-store"  # a tree of guesses is not kept


@pytest.mark.parametrize("board", ["XOX.O.X..", "XO..XO..."])  # Graphviz takes seconds past a few hundred
def test_graphviz_draws_the_dot_text(client: FlaskClient, board: str) -> None:
    response = client.get("/tree", query_string={"board": board, "format": "dot"})
    text = check_response(response, "/tree", "get")
    body = tree(client, board=board)
    assert text.count(" [label=") == 2 * body["nodes"] - 1  # a node line each, an edge line each but the root
    assert text.count("pruned: ") == sum(len(c["pruned"]) for c in body["cutoffs"])
    drawn = subprocess.run([require("dot", "graphviz"), "-Tsvg"], input=text, capture_output=True, text=True)
    assert drawn.returncode == 0 and drawn.stdout.count('class="node"') == body["nodes"], drawn.stderr
