"""The `sanmoku` command: the same bytes as the API, a readable drawing, errors on stderr with exit 2."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service import cli
from service.app import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    yield create_app({"TESTING": True}).test_client()


def run(capsysbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, bytes, str]:
    code = cli.main(list(argv))
    out, err = capsysbinary.readouterr()
    return code, out, err.decode()


@pytest.mark.parametrize(
    ("argv", "query"),
    [
        (["X...O...."], "board=X...O...."),
        ([".........", "--to-move", "o"], "board=.........&to_move=O"),
        (["xo-x_o...", "--variant", "misere"], "board=xo-x_o...&variant=misere"),
        (["XXXOO...."], "board=XXXOO...."),
    ],
)
def test_analyze_json_is_the_api_body(
    client: FlaskClient, capsysbinary: pytest.CaptureFixture[bytes], argv: list[str], query: str
) -> None:
    code, out, _ = run(capsysbinary, "analyze", *argv, "--json")
    assert code == 0
    assert out == client.get(f"/analyze?{query}").data


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--format", "csv"],
        ["--variant", "misere", "--first", "O", "--symmetry", "canonical", "--format", "ndjson"],
    ],
)
def test_solve_prints_the_api_body(
    client: FlaskClient, capsysbinary: pytest.CaptureFixture[bytes], options: list[str]
) -> None:
    code, out, _ = run(capsysbinary, "solve", *options)
    query = "&".join(f"{k.removeprefix('--')}={v}" for k, v in zip(options[::2], options[1::2], strict=True))
    assert code == 0
    assert out == client.get(f"/solve?{query}").data


def test_analyze_draws_the_values_of_the_free_cells(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(capsysbinary, "analyze", "XX.OO....")
    text = out.decode()
    assert code == 0
    rows = [row.split("|") for row in text.split("\n\n")[0].splitlines() if "|" in row]
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["X", "X", "W1"],
        ["O", "O", "D"],
        ["L2", "L2", "L2"],
    ]
    assert "X to move (normal): X wins with perfect play, 1 ply to the end" in text
    assert "best moves: 2 " in text


def test_analyze_says_when_the_game_is_over(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(capsysbinary, "analyze", "XXXOO....", "--variant", "misere")
    assert code == 0
    assert "game over: O has won" in out.decode()


def test_analyze_draw_reads_as_in_the_issue(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    _, out, _ = run(capsysbinary, "analyze", "X...O....")
    assert "X to move (normal): draw with perfect play, 7 plies to the end" in out.decode()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyze", "XXXX....."], "X has 4 marks and O has 0; they can differ by at most one"),
        (["analyze", "XX"], "board has 2 cells; the normal board has 9"),
        (["analyze", ".........", "--variant", "giant"], "unknown variant 'giant'"),
        (["solve", "--variant", "giant"], "unknown variant 'giant'"),
    ],
)
def test_bad_input_prints_the_engine_sentence_and_exits_2(
    capsysbinary: pytest.CaptureFixture[bytes], argv: list[str], message: str
) -> None:
    code, out, err = run(capsysbinary, *argv)
    assert code == 2
    assert out == b""
    assert message in err


def test_bad_options_exit_2(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["analyze", ".........", "--to-move", "Z"])
    assert exit_.value.code == 2


def test_serve_execs_gunicorn_with_the_one_config(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, list[str]]] = []
    monkeypatch.setattr(os, "execv", lambda path, argv: calls.append((path, argv)))
    monkeypatch.delenv("SANMOKU_BIND", raising=False)
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    cli.main(["serve", "--bind", "127.0.0.1:9999", "--workers", "3"])
    [(_, argv)] = calls
    assert argv[1:4] == ["-m", "gunicorn", "-c"]
    assert Path(argv[4]) == Path(cli.__file__).with_name("gunicorn_conf.py")
    assert argv[5] == "service.app:create_app()"
    assert os.environ["SANMOKU_BIND"] == "127.0.0.1:9999"
    assert os.environ["WEB_CONCURRENCY"] == "3"


def test_the_readme_example_is_what_the_command_prints(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    readme = (Path(cli.__file__).resolve().parent.parent / "README.md").read_text()
    example = re.search(r"```text\n\$ sanmoku (analyze [^\n]*)\n(.*?)```", readme, re.S)
    assert example is not None, "the README's Command line section shows `sanmoku analyze`"
    _, out, _ = run(capsysbinary, *example.group(1).split())
    assert out.decode() == example.group(2)
