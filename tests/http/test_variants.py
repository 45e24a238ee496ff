"""Every variant through the API: names, boards with row separators, winning lines, /variants/{name},
the table file, and the 503 while a large table is built."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.engine import Position, get_variant
from service.engine.tables.table_file import open_table
from tests.engine.tables.boards import burnside_classes, table_of
from tests.http.build_queue import queue_left
from tests.http.contract import analyze, check_response
from tests.reference import Reference, rules_of


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "variant"),
    [
        ("XO.X/.OX./O.XO/....", "4x4k4"),
        ("X.O./..X./O...", "3x4k3-misere"),
        ("X.O/.../..X", "3x3k3-torus"),
        ("XOXO..../........", "2x8k4"),
        ("X.../.O../..../....", "4x4k3-torus-misere"),
    ],
)
def test_any_variant_answers_as_the_reference(client: FlaskClient, board: str, variant: str) -> None:
    table_of(get_variant(variant))  # in the session's directory, as a running service would have it
    body = analyze(client, board=board, variant=variant)
    cells = board.replace("/", "")
    assert body["board"] == cells and body["variant"] == get_variant(variant).name
    reference = Reference(rules_of(get_variant(variant)))
    to_move = str(body["to_move"])
    assert (body["score"], body["remoteness"]) == reference.value(cells, to_move)
    moves = {m["cell"]: (m["score"], m["remoteness"]) for m in body["moves"]}  # type: ignore[attr-defined]
    assert moves == reference.moves(cells, to_move)
    cols = get_variant(variant).cols
    assert all((m["row"], m["col"]) == divmod(m["cell"], cols) for m in body["moves"])  # type: ignore[attr-defined]


def test_get_takes_separated_rows_and_answers_the_plain_board(client: FlaskClient) -> None:
    response = client.get("/analyze", query_string={"board": "X.../.O../..../....", "variant": "4x4k4"})
    body = check_response(response, "/analyze", "get")
    assert body["board"] == "X....O.........." and response.headers["ETag"]


@pytest.mark.parametrize(
    ("board", "variant", "lines"),
    [
        ("XXX/OO./...", "normal", [[0, 1, 2]]),
        ("XXXX/OOO./..../....", "4x4k4", [[0, 1, 2, 3]]),
        ("X.X/OOX/O.X", "normal", [[2, 5, 8]]),
        ("XXX/XOO/XOO", "misere", [[0, 1, 2], [0, 3, 6]]),
        ("XO./.XO/..X", "3x3k3-torus", [[0, 4, 8]]),
        ("X..O/.X../..X./O...", "4x4k3", [[0, 5, 10]]),
    ],
)
def test_the_lines_that_ended_the_game_are_in_the_answer(
    client: FlaskClient, board: str, variant: str, lines: list[list[int]]
) -> None:
    body = analyze(client, board=board, variant=variant)
    assert body["status"] != "in_progress" and body["lines"] == lines and body["moves"] == []


def test_the_main_line_says_how_the_game_ends(client: FlaskClient) -> None:
    body = analyze(client, board="XO../.X../..../....", variant="4x4k3", mainline=True)
    line = body["mainline"]
    assert isinstance(line, dict) and len(line["cells"]) == body["remoteness"]
    assert line["status"] == "x_won" and line["lines"] and all(len(cells) == 3 for cells in line["lines"])


@pytest.mark.parametrize(
    ("board", "variant", "code"),
    [
        ("X.../.O../....", "4x4k4", "wrong_shape"),
        ("X........", "4x4k4", "wrong_length"),
        ("X...O....", "21x21k3", "unknown_variant"),
        ("X...O....", "3x3x3k3-torus", "unknown_variant"),
        ("X...O....", "3x3k3-misere-torus", "unknown_variant"),
        ("X...O....", "3x3k4", "unknown_variant"),
    ],
)
def test_wrong_boards_and_variants_name_their_cause(
    client: FlaskClient, board: str, variant: str, code: str
) -> None:
    response = client.post("/analyze", json={"board": board, "variant": variant})
    body = check_response(response, "/analyze", "post")
    assert response.status_code == 422 and body["code"] == code
    assert ("{rows}x{cols}k{k}" in body["detail"]) is (code == "unknown_variant")


def test_variant_descriptions(client: FlaskClient) -> None:
    body = check_response(client.get("/variants/4x4k4"), "/variants/{name}", "get")
    assert body["table"] == {"ready": True, "positions": 9_722_011, "bytes": 4096 + burnside_classes(4, 4)}
    assert body["empty_board"] == {"result": "draw", "score": 0, "remoteness": 16, "winner": None}
    assert (body["symmetries"], body["max_plies"], body["centre"], len(body["lines"])) == (8, 16, None, 10)
    torus = check_response(client.get("/variants/3x3k3-torus"), "/variants/{name}", "get")
    assert torus["empty_board"]["winner"] == "X" and torus["empty_board"]["remoteness"] == 7
    assert torus["symmetries"] == 72 and torus["torus"] is True and "wrap" in torus["rules"]
    normal = check_response(client.get("/variants/3x3k3"), "/variants/{name}", "get")
    assert normal["name"] == "normal" and normal["centre"] == 4 and normal["depth"]["max"] == 8
    unknown = client.get("/variants/21x21k3")
    assert check_response(unknown, "/variants/{name}", "get")["code"] == "unknown_variant"


def test_score_four_falls_through_its_layers(client: FlaskClient) -> None:
    """4x4x4k4-gravity: marks fall through the layers to the last; its columns are a layer's 16 places
    (two beads on place 5: cells 53 and 37, layers 3 and 2); only the square's 8 symmetries remain."""
    facts = check_response(client.get("/variants/4x4x4k4-gravity"), "/variants/{name}", "get")
    assert facts["shape"] == {"sides": [4, 4, 4], "torus": False, "gravity_axis": 0}
    assert facts["symmetries"] == 8 and "falls through the layers" in facts["rules"]
    game = {"columns": [5, 5], "variant": "4x4x4k4-gravity", "budget_ms": 50}
    review = check_response(client.post("/review", json=game), "/review", "post")
    assert [(p["cell"], p["layer"], p["row"], p["col"]) for p in review["plies"]] == [
        (53, 3, 1, 1),
        (37, 2, 1, 1),
    ]
    answer = analyze(client, board="." * 64, variant="4x4x4k4-gravity", budget_ms=50)
    assert sorted(m["cell"] for m in answer["moves"]) == list(range(48, 64))  # the bottom layer only
    wrong = client.post("/review", json={**game, "columns": [16]})
    assert check_response(wrong, "/review", "post")["code"] == "column_out_of_range"


def test_boxes_and_boards_past_64_cells_are_described(client: FlaskClient) -> None:
    """A cube's 49 lines and 48 symmetries (its rotations and reflections), Qubic's 76 lines and 192
    symmetries (Silver 1967: those and the renumberings of every side's places), and five in
    a row on 15x15 (572 lines, by counting each direction's starts: 11 x 15 twice, 11 x 11 twice)."""
    cube = check_response(client.get("/variants/3x3x3k3"), "/variants/{name}", "get")
    assert (cube["cells"], len(cube["lines"]), cube["symmetries"], cube["centre"]) == (27, 49, 48, 13)
    assert cube["shape"] == {"sides": [3, 3, 3], "torus": False, "gravity_axis": None}
    assert cube["table"] is None and cube["source"] == "search" and "cube" in cube["rules"]
    qubic = check_response(client.get("/variants/4x4x4k4"), "/variants/{name}", "get")
    assert (qubic["cells"], len(qubic["lines"]), qubic["symmetries"], qubic["centre"]) == (64, 76, 192, None)
    gomoku = check_response(client.get("/variants/15x15k5"), "/variants/{name}", "get")
    assert (gomoku["cells"], len(gomoku["lines"]), gomoku["symmetries"]) == (
        225,
        2 * 11 * 15 + 2 * 11 * 11,
        8,
    )
    assert gomoku["centre"] == 112 and gomoku["rows"] == gomoku["cols"] == 15


def test_a_large_table_not_built_is_reported_not_built(tmp_path: Path) -> None:
    config = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": [], "BACKGROUND_BUILDS": False}
    client = create_app(config).test_client()
    body = check_response(client.get("/variants/2x7k4"), "/variants/{name}", "get")
    assert (
        body["table"] == {"ready": False, "positions": None, "bytes": 4096 + burnside_classes(2, 7)}
        and body["empty_board"] is None
        and body["source"] == "search"
    )
    beyond = check_response(client.get("/variants/7x7k5"), "/variants/{name}", "get")
    assert beyond["table"] is None and beyond["source"] == "search" and beyond["cells"] == 49
    assert check_response(client.get("/variants/3x4k3"), "/variants/{name}", "get")["source"] == "table"


def test_the_table_file_is_the_documented_layout(client: FlaskClient, tmp_path: Path) -> None:
    """Format 3: the header, one byte per class of the rectangle's 4 symmetries, and the values of the
    file as served (read back through a table over its bytes) those of the reference solver."""
    response = client.get("/variants/3x4k3/table")
    check_response(response, "/variants/{name}/table", "get")
    data = response.data
    classes = burnside_classes(3, 4)
    assert data.startswith(b"SANMOKU TABLE\n") and len(data) == 4096 + classes
    header = json.loads(data[14:4096])
    assert header["variant"] == "3x4k3" and header["entries"] == classes and header["symmetries"] == 4
    assert header["positions"] == 111_973 and header["layout"] == "classes" and header["format"] == 3
    assert header["sha256"] == hashlib.sha256(data[4096:]).hexdigest()
    (tmp_path / "3x4k3.table").write_bytes(data)
    served = open_table(tmp_path / "3x4k3.table", get_variant("3x4k3"))
    reference = Reference(rules_of(get_variant("3x4k3")))
    for board in ("............", "X...........", "X....O......", "XX..OO......", "XX.XOO.O...."):
        to_move = "X" if board.count("X") == board.count("O") else "O"
        want = reference.value(board, to_move)
        assert tuple(served.value(Position.parse(board, to_move, get_variant("3x4k3")))) == want
    again = client.get("/variants/3x4k3/table", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    part = client.get("/variants/3x4k3/table", headers={"Range": "bytes=0-13"})
    assert part.status_code == 206 and part.data == b"SANMOKU TABLE\n"


@pytest.mark.slow
def test_a_table_being_built_is_answered_by_the_search_then_by_the_table(tmp_path: Path) -> None:
    """The first request queues the background build and is answered by the search meanwhile (the same
    values); its solve table answers 503 with Retry-After until the file is on disk, then the table
    answers both."""
    config = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": []}
    client = create_app(config).test_client()
    request = {"board": "XO.X/.OX./O.XO/....", "variant": "4x4k4"}
    first = check_response(client.post("/analyze", json=request), "/analyze", "post")
    assert first["source"] == "search" and first["exact"] and first["remoteness"] == 8
    waiting = client.get("/solve?variant=4x4k4&format=ndjson")
    body = check_response(waiting, "/solve", "get")
    assert waiting.status_code == 503 and body["type"].endswith("table-not-ready")
    assert int(waiting.headers["Retry-After"]) == body["retry_after"] >= 1
    deadline = time.monotonic() + 60
    answer = first
    while answer["source"] != "table" and time.monotonic() < deadline:
        time.sleep(0.2)
        answer = check_response(client.post("/analyze", json=request), "/analyze", "post")
    assert answer["source"] == "table" and answer["remoteness"] == 8
    strip = ("source", "search")
    assert {k: v for k, v in answer.items() if k not in strip} == {
        k: v for k, v in first.items() if k not in strip
    }
    assert sorted(p.name for p in tmp_path.glob("*.table")) == ["4x4k4.table"]
    assert queue_left(tmp_path) == []


def test_solve_streams_any_variant_and_refuses_json_for_large_ones(client: FlaskClient) -> None:
    response = client.get("/solve?variant=4x4k4")
    body = check_response(response, "/solve", "get")
    assert response.status_code == 422 and body["type"].endswith("too-large-for-json")
    assert "format=ndjson" in body["detail"] and "format" in body["errors"]
    stream = client.get("/solve?variant=4x4k4&format=ndjson")
    assert stream.status_code == 200 and stream.is_streamed
    first = json.loads(next(iter(stream.response)).split(b"\n")[0])
    assert first["board"] == "." * 16 and first["result"] == "draw" and first["remoteness"] == 16
    stream.close()


def test_a_played_4x4_game_against_perfect_never_beats_it(client: FlaskClient) -> None:
    """Random moves against `perfect` on 4x4 (k=3 is a first-player win, k=4 a draw): never a human win."""
    for variant, games in (("4x4k3", 6), ("4x4k4", 6), ("4x4k4-misere", 4)):
        for game in range(games):
            position = Position.empty(get_variant(variant), "XO"[game % 2])
            human = position.to_move if game % 4 < 2 else position.to_move.other
            seed = game
            while not position.is_over:
                policy = "random" if position.to_move == human else "perfect"
                response = client.post(
                    "/move",
                    json={"board": position.cells, "to_move": position.to_move, "variant": variant,
                          "policy": policy, "seed": seed},
                )  # fmt: skip
                body = check_response(response, "/move", "post")
                position = position.play(body["cell"])
                seed += 1
            winner = {"x_won": "X", "o_won": "O"}.get(position.status.value)
            assert winner != human, (variant, game, position.cells)


@pytest.mark.slow
def test_a_bad_preset_file_at_start_is_rebuilt_and_then_ready(tmp_path: Path) -> None:
    """At start only the headers are glanced at; /readyz opens the tables, finds the bad one, has it
    rebuilt in the background (saying what it waits for), and turns ready once the new file checks out."""
    from service.engine import TableStore

    variant = get_variant("4x4k4")
    path = TableStore(tmp_path).get(variant).path
    assert path is not None
    path.chmod(0o644)
    os.truncate(path, path.stat().st_size - 1)  # the header looks right: the length tells
    config = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": ["4x4k4"]}
    client = create_app(config).test_client()
    first = client.get("/readyz")
    assert first.status_code == 503 and first.json is not None
    waiting = first.json["tables"]["4x4k4"]
    assert waiting["ready"] is False and waiting["positions"] is None and "4x4k4" in waiting["waiting"]
    deadline = time.monotonic() + 300  # the builder runs niced: a loaded machine gives it little
    while client.get("/readyz").status_code != 200 and time.monotonic() < deadline:
        time.sleep(0.2)
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json is not None
    assert ready.json["tables"]["4x4k4"] == {"ready": True, "positions": 9_722_011}


def test_a_box_is_analyzed_with_each_moves_layer(client: FlaskClient) -> None:
    """3x3x3 from the empty board: the first player wins with the 7th mark, the centre first; each move
    says its layer, row and column (cell 13 is the middle of the middle layer)."""
    body = check_response(
        client.post("/analyze", json={"board": "." * 27, "variant": "3x3x3k3", "budget_ms": 10_000}),
        "/analyze",
        "post",
    )
    assert (body["result"], body["remoteness"], body["best_move"], body["exact"]) == ("win", 7, 13, True)
    places = {m["cell"]: (m["layer"], m["row"], m["col"]) for m in body["moves"]}
    assert places == {cell: (cell // 9, cell // 3 % 3, cell % 3) for cell in range(27)}


def test_a_board_past_64_cells_is_analyzed(client: FlaskClient) -> None:
    """15x15: four X in a row with both ends open, O to move: every move loses (X completes five next),
    proven within the budget; a move on a flat board says no layer."""
    board = ["."] * 225
    for cell in (112, 113, 114, 115):
        board[cell] = "X"
    for cell in (0, 14, 210):
        board[cell] = "O"
    request = {"board": "".join(board), "variant": "15x15k5", "to_move": "O", "budget_ms": 2000}
    body = check_response(client.post("/analyze", json=request), "/analyze", "post")
    assert body["result"] == "loss" and body["exact"] and body["remoteness"] == 2
    assert all("layer" not in move for move in body["moves"]) and len(body["moves"]) == 218
