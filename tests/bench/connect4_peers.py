"""The peers of the Connect Four benchmarks, each run as a process of its own: Pascal Pons's solver
(github PascalPons/connect4, AGPL, built apart by its own Makefile; nothing here builds it) and BitBully
(PyPI `bitbully`, AGPL, installed by `bitbully_python` into a venv of its own, never beside Sanmoku).
Both read move sequences in Pons's notation (columns 1 to 7) and give every column's score on his scale
(a win whose last stone is the winner's s-th scores 22 - s, a loss the negative, a draw 0, a full
column -1000). Also the reader of his published test sets (`Test_L2_R2` and the others: one position
a line, its sequence and its score)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BITBULLY = ("bitbully==0.0.79", "bitbully-databases==0.0.2")  # the databases: the 12-ply book of `games`
PEER_SCRIPT = Path(__file__).with_name("bitbully_peer.py")
REPEATS = 5  # runs of his solver on an empty input, the fastest kept: its start
Scores = list[list[int]]


def read_set(path: Path, count: int | None = None) -> list[tuple[str, int]]:
    """The first `count` positions of one of his test sets, each with his score of the position."""
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(sequence, int(score)) for sequence, score in rows[:count]]


def _pons(binary: Path, sequences: list[str]) -> tuple[str, float]:
    """One run of his `-a` over the sequences: its output and wall seconds."""
    with tempfile.TemporaryDirectory() as directory:  # no 7x6.book there: he runs without a book
        started = time.perf_counter()
        done = subprocess.run(
            [os.fspath(binary), "-a"],
            input="".join(line + "\n" for line in sequences),
            capture_output=True,
            text=True,
            cwd=directory,
            check=True,
        )
        return done.stdout, time.perf_counter() - started


def idle_seconds(binary: Path) -> float:
    """What his process takes on an empty input (starting, allocating his 2**24-entry table)."""
    return min(_pons(binary, [])[1] for _ in range(REPEATS))


def _rows(output: str, sequences: list[str], who: str) -> Scores:
    rows = [line.split() for line in output.splitlines() if line and not line.startswith("seconds")]
    if [row[0] for row in rows] != sequences:
        raise RuntimeError(f"{who} refused or reordered positions: " + output[:200])
    return [[int(score) for score in row[1:]] for row in rows]


def run_pons(binary: Path, sequences: list[str], idle: float = 0.0) -> tuple[Scores, float]:
    """His `-a` scores of each sequence, and the seconds his process took less `idle`."""
    output, seconds = _pons(binary, sequences)
    return _rows(output, sequences, "his solver"), max(seconds - idle, 0.0)


def bitbully_python(directory: Path) -> Path:
    """The Python of a venv in `directory` with BitBully installed, made on first use."""
    python = directory / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", os.fspath(directory)], check=True)
    found = subprocess.run([os.fspath(python), "-c", "import bitbully"], capture_output=True)
    if found.returncode != 0:
        subprocess.run([os.fspath(python), "-m", "pip", "install", "-q", *BITBULLY], check=True)
    return python


def run_bitbully(python: Path, sequences: list[str]) -> tuple[Scores, float]:
    """BitBully's scores of each sequence with no opening book (`score_all_moves`), and the seconds of
    its calls, timed in its process."""
    done = subprocess.run(
        [os.fspath(python), os.fspath(PEER_SCRIPT), "score"],
        input="".join(line + "\n" for line in sequences),
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = float(done.stdout.strip().splitlines()[-1].split()[1])
    return _rows(done.stdout, sequences, "BitBully"), seconds


def strong_games(python: Path, count: int, plies: int, deviation: float, seed: int) -> list[str]:
    """`count` games of up to `plies` plies of strong play (BitBully's book and search) with random
    deviations, as move sequences."""
    command = [os.fspath(python), os.fspath(PEER_SCRIPT), "games", "--count", str(count)]
    command += ["--plies", str(plies), "--deviation", str(deviation), "--seed", str(seed)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line]
