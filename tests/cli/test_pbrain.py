"""`sanmoku pbrain` driven as a Gomocup manager drives a brain: a process of its own, one command a line
(ended with CR LF, as Piskvork ends them) on its standard input, each answer read from its standard
output within a bounded time. The positions are checked against the engine's own analysis where the
brain claims a proof."""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from importlib import import_module
from importlib.metadata import version
from pathlib import Path

import pytest

from service.engine import Budget, Position, compose_sources, get_variant

ROOT = Path(__file__).resolve().parents[2]
ANSWER_TIMEOUT_S = 30.0  # a move asked for with a turn of at most a few seconds, on a busy host
CLI_PAGE = ROOT / "docs" / "pages" / "cli.md"
# A position of 15x15 where Sanmoku (1) wins by fours alone: 6,3 makes a four on row 3 and, after the
# forced block, 6,6 two fours at once (row 6 and column 6); five plies in all. Its rows are closed on the
# left by the opponent (2), whose other stones are far apart.
VCF = [
    *("3,3,1", "4,3,1", "5,3,1", "3,6,1", "4,6,1", "5,6,1", "6,4,1", "6,5,1"),
    *("2,3,2", "2,6,2", "6,7,2", "14,14,2", "0,14,2", "14,0,2", "10,12,2", "12,9,2"),
]


class Manager:
    """One brain process and its lines."""

    def __init__(self, tables: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service.cli.main", "pbrain"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "SANMOKU_TABLES_DIR": str(tables)},
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\r\n")
        self.process.stdin.flush()

    def answer(self, timeout: float = ANSWER_TIMEOUT_S) -> tuple[str, list[str]]:
        """The next line that is not a MESSAGE, and the MESSAGE lines before it."""
        messages = []
        end = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            assert line is not None, f"the brain ended: {self.stderr()}"
            if not line.startswith("MESSAGE "):
                return line, messages
            messages.append(line.removeprefix("MESSAGE "))

    def ask(self, *lines: str) -> str:
        return self.exchange(*lines)[0]

    def exchange(self, *lines: str) -> tuple[str, list[str]]:
        self.send(*lines)
        return self.answer()

    def timed(self, *lines: str) -> tuple[str, list[str], float]:
        started = time.monotonic()
        self.send(*lines)
        answer, messages = self.answer()
        return answer, messages, time.monotonic() - started

    def stderr(self) -> str:
        self.process.kill()
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def end(self) -> None:
        self.send("END")
        assert self.process.wait(timeout=10) == 0
        assert self.lines.get(timeout=5) is None, "nothing is written after END"


@pytest.fixture
def brain(tmp_path: Path) -> Iterator[Manager]:
    manager = Manager(tmp_path)
    try:
        assert manager.ask("START 15") == "OK"
        yield manager
        manager.end()
    finally:
        if manager.process.poll() is None:
            manager.process.kill()
            manager.process.wait(timeout=10)


def board(*stones: str) -> list[str]:
    return ["BOARD", *stones, "DONE"]


def xy(answer: str) -> tuple[int, int]:
    assert re.fullmatch(r"\d+,\d+", answer), answer
    x, y = answer.split(",")
    return int(x), int(y)


def test_begin_opens_at_the_centre(brain: Manager) -> None:
    brain.send("INFO timeout_turn 500")
    x, y = xy(brain.ask("BEGIN"))
    assert abs(x - 7) <= 1 and abs(y - 7) <= 1
    assert brain.ask("BEGIN").startswith("ERROR "), "BEGIN is for an empty board"


def test_a_four_of_its_own_is_made_five(brain: Manager) -> None:
    # Sanmoku's four on row 7 (6 is the opponent's), and the opponent's four on row 8: five first.
    stones = ("7,7,1", "8,7,1", "9,7,1", "10,7,1", "7,8,2", "8,8,2", "9,8,2", "10,8,2", "6,7,2")
    brain.send("INFO timeout_turn 5000")
    answer, messages, seconds = brain.timed(*board(*stones))
    assert answer == "11,7" and messages == ["proven win in 1 ply"]
    assert seconds < 2.5, "a five to complete needs no search: the first look answers"


def test_the_opponents_four_is_blocked(brain: Manager) -> None:
    stones = ("7,7,2", "8,7,2", "9,7,2", "10,7,2", "6,7,1", "7,8,1", "8,9,1")
    brain.send("INFO timeout_turn 5000")
    answer, messages, seconds = brain.timed(*board(*stones))
    assert answer == "11,7" and messages == ["forced: every other move loses in 2 plies"]
    assert seconds < 2.5


def test_an_open_three_is_answered(brain: Manager) -> None:
    # The opponent's open three on row 7 (6..8) would become an open four: Sanmoku, with no threat of its
    # own, takes a cell beside it (a cell further out, 4,7 or 10,7, loses to the open four on the other
    # side). The analysis may not prove the other moves lost within the turn: the shape ranks these first.
    stones = ("6,7,2", "7,7,2", "8,7,2", "7,8,1", "12,2,1")
    brain.send("INFO timeout_turn 1000")
    assert xy(brain.ask(*board(*stones))) in {(5, 7), (9, 7)}


def test_a_win_by_fours_is_played_said_and_followed_through(brain: Manager, tmp_path: Path) -> None:
    analyst = compose_sources(tmp_path / "check", background_builds=False).analyst
    variant = get_variant("15x15k5")
    rows = [["."] * 15 for _ in range(15)]
    for stone in VCF:
        x, y, who = (int(part) for part in stone.split(","))
        rows[y][x] = "X" if who == 1 else "O"
    position = Position.parse("/".join("".join(row) for row in rows), variant=variant)

    brain.send("INFO timeout_turn 3000", *board(*VCF))
    for length in (5, 3, 1):
        answer, said = brain.answer()
        assert said == [f"proven win in {length} {'ply' if length == 1 else 'plies'}"], (answer, said)
        x, y = xy(answer)
        position = position.play(y * 15 + x)
        # The engine's own analysis of the position after the move: the opponent's proven loss.
        value = analyst.analyze(position, Budget(10.0)).value
        assert value is not None and value.score == -1 and value.remoteness + 1 == length, (answer, value)
        if length > 1:
            block = analyst.analyze(position, Budget(10.0)).best_move  # the opponent's longest defence
            assert block is not None
            position = position.play(block)
            brain.send(f"TURN {block % 15},{block // 15}")


def test_turns_play_on_free_cells_and_take_backs_free_them(brain: Manager) -> None:
    brain.send("INFO timeout_turn 300")
    taken = {xy(brain.ask("BEGIN"))}
    for move in ((8, 8), (6, 8), (9, 6)):
        taken.add(move)
        reply = xy(brain.ask(f"TURN {move[0]},{move[1]}"))
        assert reply not in taken and all(0 <= c < 15 for c in reply)
        taken.add(reply)
    assert brain.ask("TURN 8,8").startswith("ERROR 8,8 is already taken")
    assert brain.ask("TURN 15,0").startswith("ERROR 15,0 is off the 15x15 board")
    assert brain.ask("TURN 3").startswith("ERROR TURN takes x,y")
    assert brain.ask(f"TAKEBACK {reply[0]},{reply[1]}") == "OK"
    assert brain.ask("TAKEBACK 9,6") == "OK"
    assert brain.ask("TAKEBACK 9,6").startswith("ERROR there is no stone on 9,6")
    again = xy(brain.ask("TURN 9,6"))  # the cell was free again
    assert again not in taken - {reply}
    assert brain.ask("RESTART") == "OK"
    assert xy(brain.ask("BEGIN")) == (7, 7), "RESTART empties the board"


def test_the_turn_time_is_kept(brain: Manager) -> None:
    # A middle game where nothing is proven: the search takes what the turn allows, and no more.
    stones = ("7,7,1", "8,8,2", "6,8,1", "8,6,2", "9,9,1", "5,5,2")
    brain.send("INFO timeout_turn 2000")
    answer, messages, seconds = brain.timed(*board(*stones))
    (said,) = messages
    spent = re.fullmatch(r"nothing proven in (\d+) ms: the best guess by shape", said)
    assert spent is not None, said
    # the search took most of what the turn allows (a quarter of it is kept for a win's length), no more
    assert 1.0 <= int(spent[1]) / 1000 <= seconds < 2.0, (said, seconds)
    # time_left binds when it is the smaller (a fifteenth of 3 s), and timeout_turn 0 is "at once"
    for limits in (
        ("INFO timeout_turn 5000", "INFO time_left 3000"),
        ("INFO time_left 2147483647", "INFO timeout_turn 0"),
    ):
        brain.send(*limits)
        answer, messages, seconds = brain.timed(*board(*stones))
        assert seconds < 1.0, (limits, seconds)  # of a 5 s turn: what binds is time_left, or 0
        xy(answer)


def test_end_stops_a_search_under_way(tmp_path: Path) -> None:
    manager = Manager(tmp_path)
    try:
        assert manager.ask("START 15") == "OK"
        manager.send("INFO timeout_turn 60000", "BEGIN")
        time.sleep(1.0)  # the search under way
        started = time.monotonic()
        manager.send("END")
        assert manager.process.wait(timeout=10) == 0
        assert time.monotonic() - started < 2.0, "the protocol allows about a second"
        assert manager.lines.get(timeout=5) is None, "no move is written after END"
    finally:
        if manager.process.poll() is None:
            manager.process.kill()


def test_about_names_the_brain(brain: Manager) -> None:
    about = brain.ask("ABOUT")
    pairs = re.findall(r'(\w+)="([^"]*)"', about)
    assert ", ".join(f'{key}="{value}"' for key, value in pairs) == about
    assert dict(pairs) == {"name": "Sanmoku", "version": version("sanmoku"), "author": "The Sanmoku authors"}


def test_a_memory_limit_below_what_it_holds_is_said(brain: Manager) -> None:
    brain.send("INFO max_memory 1048576")  # 1 MiB: less than any Python process
    answer, messages = brain.exchange("ABOUT")
    assert answer.startswith('name="Sanmoku"')
    assert len(messages) == 1 and messages[0].startswith("max_memory is 1,048,576 bytes; Sanmoku has held ")
    brain.send("INFO max_memory 0")  # no limit
    assert brain.exchange("ABOUT")[1] == []


def test_unknown_commands_and_sizes(brain: Manager) -> None:
    assert brain.ask("SWAP2BOARD") == "UNKNOWN SWAP2BOARD is not a command Sanmoku knows"
    brain.send("INFO some_future_key 3")  # ignored, no answer
    assert brain.ask("start 4").startswith("ERROR a 4x4 board is not served")
    assert brain.ask("START 21").startswith("ERROR a 21x21 board is not served")
    assert brain.ask("START 20") == "OK"
    brain.send("INFO timeout_turn 300")
    assert xy(brain.ask("BEGIN")) in {(9, 9), (9, 10), (10, 9), (10, 10)}
    assert brain.ask("RECTSTART 20,15") == "OK"
    assert xy(brain.ask("TURN 19,14")) != (19, 14), "x goes up to 19 on a board 20 wide"
    assert brain.ask(*board("1,1,3")).startswith("ERROR 1,1,3: field 3")


def test_the_rule_picks_the_board(brain: Manager) -> None:
    # Sanmoku's stones 1..4 and 6 on row 7: 5,7 makes six, five or more in freestyle, nothing under
    # "exactly five" (rule 1), where only 0,7 makes five.
    stones = ("1,7,1", "2,7,1", "3,7,1", "4,7,1", "6,7,1", "1,9,2", "3,9,2", "5,9,2", "7,9,2", "12,12,2")
    brain.send("INFO timeout_turn 1000", "INFO rule 1")
    assert brain.ask(*board(*stones)) == "0,7"
    brain.send("INFO rule 0")
    assert xy(brain.ask(*board(*stones))) in {(0, 7), (5, 7)}
    brain.send("INFO rule 8")
    assert brain.ask(*board(*stones)).startswith("ERROR rule 8 (caro) is not supported")
    brain.send("INFO rule 4")  # renju: black (Sanmoku: as many stones, to move) wins with exactly five
    assert brain.ask(*board(*stones)) == "0,7"


def test_renju_keeps_black_off_its_forbidden_points(brain: Manager) -> None:
    # Black's 8,7 makes two open threes (row 7: 6..8, column 8: 5..7): in freestyle a proven win, in
    # renju a forbidden point, which Sanmoku, black with as many stones as white, must not take.
    stones = ("6,7,1", "7,7,1", "8,5,1", "8,6,1", "0,0,2", "14,0,2", "0,14,2", "14,14,2")
    brain.send("INFO timeout_turn 1000")
    answer, said = brain.exchange(*board(*stones))
    assert answer == "8,7" and said[0].startswith("proven win"), said  # its length: in time or not
    brain.send("INFO rule 4")
    assert xy(brain.ask(*board(*stones))) != (8, 7)


def test_yxnbest_lists_moves_and_plays_the_first(brain: Manager) -> None:
    stones = ("7,7,1", "8,7,1", "9,7,1", "10,7,1", "7,8,2", "8,8,2", "9,8,2", "10,8,2", "6,7,2")
    brain.send("INFO timeout_turn 1000", "YXBOARD", *stones, "DONE", "YXNBEST 3")
    answer, messages = brain.answer()
    assert answer == "11,7"
    assert messages[0] == "1. 11,7 proven win in 1 ply" and len(messages) == 4
    assert messages[1].startswith("2. ") and messages[3] == "proven win in 1 ply"


def test_the_documented_session_is_what_the_brain_says(tmp_path: Path) -> None:
    """docs/pages/cli.md's transcript: lines starting with "> " are the manager's, the others the
    brain's answers, all piped at once (the brain carries them out in order)."""
    page = CLI_PAGE.read_text()
    block = page.split("```text\n> START 15\n", 1)[1].split("```", 1)[0]
    lines = ["> START 15", *block.splitlines()]
    sent = [line.removeprefix("> ") for line in lines if line.startswith("> ")]
    shown = [line for line in lines if not line.startswith("> ")]
    done = subprocess.run(
        [sys.executable, "-m", "service.cli.main", "pbrain"],
        input="".join(line + "\r\n" for line in sent),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "SANMOKU_TABLES_DIR": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == shown


def test_managers_find_it_as_pbrain_sanmoku(tmp_path: Path) -> None:
    """Piskvork picks the protocol by the program's name (pbrain-*): pip installs one."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, _, function = scripts["pbrain-sanmoku"].partition(":")
    assert getattr(import_module(module), function).__module__ == "service.cli.pbrain"
    script = Path(sys.executable).parent / "pbrain-sanmoku"
    if not script.exists():
        if os.environ.get("CI"):
            pytest.fail(f"no console script at {script}: `pip install -e .` makes it")
        pytest.skip(f"no console script at {script} (installed before it was declared)")
    done = subprocess.run(
        [str(script)],
        input="ABOUT\r\nEND\r\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SANMOKU_TABLES_DIR": str(tmp_path)},
    )
    assert done.returncode == 0 and done.stdout.startswith('name="Sanmoku"'), (done.stdout, done.stderr)
