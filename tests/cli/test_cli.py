"""The `sanmoku` command: the same bytes as the API, a readable drawing, errors on stderr with exit 2."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.cli import main as cli
from service.cli import serve
from service.engine.tables import build_plan


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    yield create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()


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


def test_analyze_draws_a_box_layer_by_layer(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """3x3x3 with X in the centre, O to move: every O move loses, X's 7th mark ends it (6 plies on)."""
    code, out, _ = run(
        capsysbinary, "analyze", "." * 13 + "X" + "." * 13, "--variant", "3x3x3k3", "--budget-ms", "10000"
    )
    text = out.decode()
    assert code == 0 and [f"layer {n}" in text for n in range(3)] == [True] * 3 and "layer 3" not in text
    cells = [cell.strip() for row in text.splitlines() if "|" in row for cell in row.split("|")]
    assert cells == ["L6"] * 13 + ["X"] + ["L6"] * 13
    assert "X wins with perfect play, 6 plies to the end" in text and "layer by layer" in text


def test_prove_refuses_a_board_past_64_cells(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Its jobs and table are saved as 64-bit masks to resume it: past 64 cells it says so."""
    assert cli.main(["prove", "9x9k5", "--dir", str(tmp_path)]) == 2
    said = capsys.readouterr().err
    assert "81 cells" in said and "at most 64 cells" in said and not list(tmp_path.iterdir())


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


SERVE_PROBE = """
import json, sys
from gunicorn.app.base import BaseApplication
from service.cli import serve

HEAVY = ("service.engine", "service.http", "numpy")

def run(application):  # what gunicorn would run, and what was imported before its master started
    print(json.dumps({
        "config": application.cfg.config,
        "app": application.app_uri,
        "worker_class": application.cfg.worker_class_str,
        "bind": application.cfg.bind,
        "workers": application.cfg.workers,
        "argv": sys.argv,
        "imported": sorted(m for m in sys.modules if m.startswith(HEAVY)),
    }))

BaseApplication.run = run
sys.argv = ["sanmoku", "serve", "--bind", "127.0.0.1:9999", "--workers", "3"]
serve.main()
"""


def test_serve_runs_gunicorn_with_the_one_config_before_importing_the_engine(tmp_path: Path) -> None:
    # In a fresh interpreter (loading gunicorn's config sets process-wide state): `sanmoku serve` runs
    # gunicorn in its own process with gunicorn_conf.py, the flags given to it through the environment,
    # and nothing of the engine, the schemas or numpy imported before the master starts (those
    # imports were half of the start to the first answer; the app is imported once, by preload).
    env = {k: v for k, v in os.environ.items() if k not in ("SANMOKU_BIND", "WEB_CONCURRENCY")}
    env["PROMETHEUS_MULTIPROC_DIR"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", SERVE_PROBE], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert Path(seen["config"]) == Path(cli.__file__).parent.parent / "gunicorn_conf.py"
    assert seen["app"] == "service.app:create_app()"
    assert seen["worker_class"] == "service.serving.gevent_worker.Worker"
    assert (seen["bind"], seen["workers"]) == (["127.0.0.1:9999"], 3)
    assert seen["argv"] == ["sanmoku", "serve", "--bind", "127.0.0.1:9999", "--workers", "3"]  # a re-exec's
    assert seen["imported"] == []


def test_the_entry_point_runs_every_other_command(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert serve.main(["analyze", "XXX.OO..."]) == 0
    assert "X has won" in capsysbinary.readouterr().out.decode()


def test_the_readme_example_is_what_the_command_prints(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    readme = (Path(cli.__file__).resolve().parents[2] / "README.md").read_text()
    example = re.search(r"```text\n\$ sanmoku (analyze [^\n]*)\n(.*?)```", readme, re.S)
    assert example is not None, "the README's Command line section shows `sanmoku analyze`"
    _, out, _ = run(capsysbinary, *example.group(1).split())
    assert out.decode() == example.group(2)


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "----X----", "--json"],
        ["analyze", "--json", "----X----"],
        ["analyze", "--variant", "misere", "-X-.O----", "--json"],
        ["analyze", "--json", "--", "----X----"],
    ],
)
def test_a_board_that_starts_with_a_dash_is_a_board(
    capsysbinary: pytest.CaptureFixture[bytes], argv: list[str]
) -> None:
    code, out, err = run(capsysbinary, *argv)
    assert code == 0, err
    assert json.loads(out)["board"] in ("....X....", ".X..O....")


def test_analyze_and_solve_take_any_variant(
    client: FlaskClient, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    code, out, _ = run(capsysbinary, "analyze", "X.../.O../..../....", "--variant", "4x4k4", "--json")
    assert code == 0 and out == client.get("/analyze?board=X....O..........&variant=4x4k4").data
    code, out, _ = run(capsysbinary, "solve", "--variant", "3x3k3-torus", "--format", "csv")
    assert code == 0 and out == client.get("/solve?variant=3x3k3-torus&format=csv").data
    code, out, _ = run(capsysbinary, "analyze", "X.../.O../..../....", "--variant", "4x4k4")
    assert "X to move (4x4k4): draw with perfect play, 14 plies to the end" in out.decode()
    assert out.decode().splitlines()[0].count("|") == 3  # four columns


def test_tables_build_and_list(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, _ = run(capsysbinary, "tables", "build", "3x4k3", "normal", "--dir", str(tmp_path))
    lines = [line for line in out.decode().splitlines() if " built in " in line]  # not a line a tier
    assert code == 0 and lines[0].startswith("3x4k3: built in ") and lines[0].endswith("111,973 positions")
    assert lines[1].startswith("normal: built in ")
    code, out, _ = run(capsysbinary, "tables", "build", "3x4k3", "--dir", str(tmp_path))
    assert code == 0 and out.decode().startswith("3x4k3: ok, 111,973 positions")
    code, out, _ = run(capsysbinary, "tables", "list", "--dir", str(tmp_path))
    listing = out.decode().splitlines()
    assert code == 0 and listing[0] == f"tables in {tmp_path}"
    assert listing[1].split() == ["variant", "positions", "size", "built", "check"]
    rows = {line.split()[0]: line.split() for line in listing[2:]}
    assert rows["3x4k3"][1:4] == ["111,973", "0.0", "MB"] and rows["3x4k3"][-1] == "ok"  # 40,349 bytes
    assert rows["3x3k3"][1] == "5,478" and rows["3x3k3"][-1] == "ok"


def test_tables_verify_finds_a_bad_byte_that_list_does_not_read_and_build_repairs_it(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    run(capsysbinary, "tables", "build", "normal", "3x4k3", "--dir", str(tmp_path))
    path = tmp_path / "3x3k3.table"
    path.chmod(0o644)  # written read-only
    data = bytearray(path.read_bytes())
    data[-1] ^= 1
    path.write_bytes(bytes(data))
    code, out, _ = run(capsysbinary, "tables", "list", "--dir", str(tmp_path))
    assert code == 0  # headers only: a listing never reads gigabytes
    code, out, _ = run(capsysbinary, "tables", "verify", "--dir", str(tmp_path))
    lines = sorted(line.split(" (")[0] for line in out.decode().splitlines())
    assert code == 1 and lines == [
        "3x4k3: ok",
        "normal: corrupt: the table's bytes do not match the header's checksum",
    ]
    code, out, _ = run(capsysbinary, "tables", "verify", "3x4k3", "--dir", str(tmp_path))
    assert code == 0 and out.decode().startswith("3x4k3: ok (")
    code, out, _ = run(capsysbinary, "tables", "build", "normal", "--dir", str(tmp_path))
    assert code == 0 and "normal: built in" in out.decode()  # the build checks every byte first
    code, out, _ = run(capsysbinary, "tables", "verify", "normal", "--dir", str(tmp_path))
    assert code == 0 and out.decode().startswith("normal: ok")
    code, out, _ = run(capsysbinary, "tables", "build", "--force", "normal", "--dir", str(tmp_path))
    assert code == 0 and "normal: built in" in out.decode()


def test_tables_build_plan_and_refusal(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(
        capsysbinary, "tables", "build", "2x11k4", "--plan", "--threads", "2", "--dir", str(tmp_path)
    )
    lines = out.decode().splitlines()
    assert code == 0 and lines[0].startswith("2x11k4: ")
    assert lines[0].endswith(" entries (one per class of 4 symmetries) in 23 tiers")
    assert [line.split()[0] for line in lines[1:4]] == ["bytes", "peak", "estimated"]
    # The full board up to the 4 symmetries of 2x11 (Burnside): of the C(22, 11) fillings the identity
    # keeps all, the reversal of the columns those whose middle column holds one X (2 * C(10, 5)), the
    # swap of the rows and the half-turn none (they pair every cell, and 11 marks are odd).
    full = (math.comb(22, 11) + 2 * math.comb(10, 5)) // 4
    assert lines[-1].split() == ["22", f"{full:,}"] and not list(tmp_path.iterdir())
    monkeypatch.setattr(build_plan, "available_memory", lambda: 100_000_000)
    code, _, err = run(capsysbinary, "tables", "build", "4x5k4", "--dir", str(tmp_path))
    assert code == 2 and err.startswith("sanmoku: the 4x5k4 table cannot be built here: it needs about ")
    assert err.rstrip().endswith("of memory and 100.0 MB is available")
    assert not list(tmp_path.glob("*.table")) and not list(tmp_path.glob(".*.tmp"))


@pytest.mark.slow
def test_tables_build_shows_its_progress_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal a progress bar (tier, entries per second, time left) is redrawn in place."""
    import pty
    import subprocess
    import sys

    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "service.cli.main", "tables", "build", "4x4k4", "--dir", str(tmp_path)]
    done = subprocess.run(command, stdout=follower, stderr=follower, timeout=120, check=False)
    os.close(follower)
    shown = b""
    with suppress(OSError):
        while chunk := os.read(leader, 65536):
            shown += chunk
    os.close(leader)
    assert done.returncode == 0
    assert b"\r4x4k4 tier 16 (0/17 done)" in shown and b"tier 0 (16/17 done)" in shown  # the bar, redrawn
    assert b"\r4x4k4 written (17/17 done): 100%" in shown and b"1.27M/1.27M" in shown  # its 1,273,771 classes
    assert b" entries/s]" in shown and b"9,722,011 positions" in shown


def test_analyze_prints_eights_picks_without_json(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """Eight has no board to draw: its state and each pick's value. From a total of 5 after a 2, a
    pick of 3 makes exactly 8 (a win at once); 1 makes 6, and the reply 2 makes 8 (a loss in 2)."""
    code, out, _ = run(capsysbinary, "analyze", "5:2", "--variant", "eight")
    lines = out.decode().splitlines()
    assert code == 0 and lines[:3] == ["5:2", "3: W1", "1: L2"]
    assert "X wins with perfect play, 1 ply to the end" in lines[4] and lines[5].startswith("best moves: 3 ")


def test_solve_refuses_a_game_without_a_board_and_says_so(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    code, _, err = run(capsysbinary, "solve", "--variant", "eight")
    assert code == 2 and "'eight' is a game without a board" in err
