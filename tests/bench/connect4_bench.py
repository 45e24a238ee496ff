"""Connect Four side by side with Pascal Pons's solver (github PascalPons/connect4), run in the same
process tree on the same machine: agreement on every move's score, and the time of each, per stage.

Run (his binary is built apart from this repository, by his own Makefile; nothing here builds it):

    python -m tests.bench.connect4_bench PATH/TO/c4solver [--count 1000] [--seed 1] [--stages early,late]
    python -m tests.bench.connect4_bench PATH/TO/c4solver --write-sample tests/data/connect4_pons.csv

Positions are random legal games from the empty board stopped at a ply drawn from the stage's range,
none of them over (his solver refuses a sequence with a line in it), each board once. The stages follow
his test sets' (begin below 14 plies, middle 14 to 27, end 28 on), except that the early set starts at
10 plies: before that one position takes his solver seconds to minutes (90 s after 4 plies).

The two sides take the set in turn, 100 positions at a time. His side: a run of `c4solver -a` over the
100, in a directory without his opening book (we have none either), timed from the start of the process
to its end less the time of a run on an empty input (starting, allocating his 2**24-entry table). Our
side: one SearchEngine for the 100 (both keep their transposition table from position to position),
`analyze` with the remoteness, no limit, every move exact; the calls timed, Python's share included.
A set his solver finishes within seconds (the late one) is run whole instead, five times, each side
keeping its fastest run.
Reading his move sequences into positions is not timed on our side (replaying them through
`Position.play` is slower than the search of a late position); what a request pays instead,
`Position.parse` of the board, is reported beside it.

Scores. His score of a move is the mover's: a win whose last stone is the winner's s-th stone scores
22 - s, a loss the negative, a draw 0, a full column -1000. Ours is a `Value(score, remoteness)` for
the side that plays the move, the remoteness counting the move. With n marks on the board before it, the
game ends with the T-th mark, T = n + remoteness; the winner's stones are then ceil(T / 2) (the first
player's marks are the odd ones, the second's the even ones, and the winner made the last), so his score
is score * (22 - ceil(T / 2)), 0 for a draw. It is one to one: the winner's parity fixes T from s.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from service.engine import Position, Value, get_variant
from service.engine.search import Budget, SearchEngine

CONNECT4 = get_variant("connect4")
STAGES = {"early": (10, 13), "middle": (14, 27), "late": (28, 41)}
FULL_COLUMN = -1000  # his score of a column that cannot be played
TABLE_BITS = 21  # 2**21 buckets of 3 positions, 128 MB: his table holds 2**24 positions in 80 MB
# The committed sample: few early positions, as each takes the search about a second.
SAMPLE = {"early": 20, "middle": 140, "late": 140}
QUICK, REPEATS = 5.0, 5  # seconds, runs: the late set takes both solvers milliseconds
CHUNK = 100  # positions each side solves in turn
Scored = tuple[list[list[int]], float, list[list[int]], float]  # his scores and seconds, ours


def pons_score(value: Value, marks: int, cells: int = CONNECT4.cells) -> int:
    """His score of a move worth `value` to its player, played with `marks` marks on the board."""
    if value.score == 0:
        return 0
    end = marks + value.remoteness
    return value.score * (cells // 2 + 1 - (end + 1) // 2)


def play(sequence: str) -> Position:
    """The position after the moves of `sequence` (columns 1 to 7, his notation), X first."""
    position = Position.empty(CONNECT4)
    for digit in sequence:
        column = int(digit) - 1
        position = position.play(next(c for c in position.legal_moves() if c % CONNECT4.cols == column))
    return position


def random_set(stage: str, count: int, seed: int) -> list[str]:
    """`count` move sequences of random games in the stage's range of plies, none over, each board once."""
    low, high = STAGES[stage]
    rng = random.Random(f"{seed}-{stage}")
    found: dict[tuple[int, int], str] = {}
    while len(found) < count:
        position, sequence = Position.empty(CONNECT4), ""
        for _ in range(rng.randint(low, high)):
            cell = rng.choice(position.legal_moves())
            position, sequence = position.play(cell), sequence + str(cell % CONNECT4.cols + 1)
            if position.is_over:
                break
        if not position.is_over:
            found.setdefault((position.x, position.o), sequence)
    return list(found.values())


def our_scores(engine: SearchEngine, position: Position) -> tuple[list[int], float]:
    """Every column's score, his way, from our analysis (every move exact), and the analysis's seconds."""
    started = time.perf_counter()
    analysis = engine.analyze(position, Budget())
    seconds = time.perf_counter() - started
    scores = [FULL_COLUMN] * CONNECT4.cols
    for move in analysis.moves:
        if move.value is None:
            raise AssertionError(f"{position.cells}: the move at cell {move.cell} was not proven")
        scores[move.cell % CONNECT4.cols] = pons_score(move.value, position.marks)
    return scores, seconds


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


def run_pons(binary: Path, sequences: list[str], idle: float = 0.0) -> tuple[list[list[int]], float]:
    """His `-a` scores of each sequence, and the seconds his process took less `idle`."""
    output, seconds = _pons(binary, sequences)
    rows = [line.split() for line in output.splitlines()]
    if [row[0] for row in rows] != sequences:
        raise RuntimeError("his solver refused or reordered positions: " + output[:200])
    return [[int(score) for score in row[1:]] for row in rows], max(seconds - idle, 0.0)


@dataclass
class StageResult:
    stage: str
    positions: int
    moves: int
    wrong_moves: int
    wrong_positions: int
    his_seconds: float
    our_seconds: float
    parse_seconds: float

    def row(self) -> str:
        low, high = STAGES[self.stage]
        ratio = self.our_seconds / self.his_seconds if self.his_seconds else float("inf")
        agree = f"{self.positions - self.wrong_positions}/{self.positions}"
        moves = f"{self.moves - self.wrong_moves}/{self.moves}"
        cells = [
            f"{self.stage} ({low}-{high} plies)",
            f"{self.positions}",
            f"{agree} ({moves} moves)",
            f"{self.his_seconds:.3f}",
            f"{self.our_seconds:.3f}",
            f"{1000 * self.our_seconds / self.positions:.3f}",
            f"{ratio:.2f}",
            f"{1000 * self.parse_seconds / self.positions:.3f}",
        ]
        return "| " + " | ".join(cells) + " |"


def our_run(positions: list[Position]) -> tuple[list[list[int]], float]:
    """Our scores of each position with one fresh engine, and the seconds of the analyses."""
    engine = SearchEngine(CONNECT4, table_bits=TABLE_BITS)
    found, seconds = [], 0.0
    for position in positions:
        scores, spent = our_scores(engine, position)
        found.append(scores)
        seconds += spent
    return found, seconds


def both(binary: Path, sequences: list[str], positions: list[Position], idle: float, chunk: int) -> Scored:
    """His scores and seconds, then ours, `chunk` positions at a time in turn (a fresh process and a
    fresh engine for each chunk), so that a change of load on a shared machine falls on both."""
    his: list[list[int]] = []
    ours: list[list[int]] = []
    his_seconds = our_seconds = 0.0
    for start in range(0, len(sequences), chunk):
        scores, seconds = run_pons(binary, sequences[start : start + chunk], idle)
        his, his_seconds = his + scores, his_seconds + seconds
        scores, seconds = our_run(positions[start : start + chunk])
        ours, our_seconds = ours + scores, our_seconds + seconds
    return his, his_seconds, ours, our_seconds


def compare(binary: Path, stage: str, sequences: list[str]) -> StageResult:
    """Both solvers on the stage's set, CHUNK positions at a time in turn; but a set his solver would
    finish within QUICK seconds (the late one: a millisecond per chunk, less than his process's start
    varies) is run whole REPEATS times, each side keeping its fastest run."""
    positions = [play(sequence) for sequence in sequences]
    idle = idle_seconds(binary)
    probe = run_pons(binary, sequences[:CHUNK], idle)[1] * len(sequences) / min(CHUNK, len(sequences))
    if probe < QUICK:
        runs = [both(binary, sequences, positions, idle, len(sequences)) for _ in range(REPEATS)]
        his, _, ours, _ = runs[0]
        his_seconds, our_seconds = min(run[1] for run in runs), min(run[3] for run in runs)
    else:
        his, his_seconds, ours, our_seconds = both(binary, sequences, positions, idle, CHUNK)
    started = time.perf_counter()
    for position in positions:
        Position.parse(position.cells, position.to_move, CONNECT4)
    parse_seconds = time.perf_counter() - started
    wrong_moves, wrong_positions, moves = 0, 0, 0
    for sequence, mine, theirs in zip(sequences, ours, his, strict=True):
        wrong = sum(a != b for a, b in zip(mine, theirs, strict=True))
        moves += sum(score != FULL_COLUMN for score in theirs)
        wrong_moves, wrong_positions = wrong_moves + wrong, wrong_positions + (wrong > 0)
        if wrong:
            print(f"  {stage} {sequence}: ours {mine}, his {theirs}")
    return StageResult(
        stage, len(sequences), moves, wrong_moves, wrong_positions, his_seconds, our_seconds, parse_seconds
    )


def write_sample(binary: Path, path: Path, seed: int) -> None:
    """The committed agreement file: positions of every stage and his `-a` scores (his solver only run)."""
    sequences = [s for stage, count in SAMPLE.items() for s in random_set(stage, count, seed)]
    scores, _ = run_pons(binary, sequences)
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["moves", "scores"])
        for sequence, row in zip(sequences, scores, strict=True):
            writer.writerow([sequence, " ".join(map(str, row))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", type=Path, help="his c4solver, built apart (not by this script)")
    parser.add_argument("--count", type=int, default=1000, help="positions per stage")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stages", default=",".join(STAGES))
    parser.add_argument("--write-sample", type=Path, help="write the agreement file there instead")
    args = parser.parse_args()
    if args.write_sample:
        write_sample(args.binary, args.write_sample, args.seed)
        return
    print(
        "| stage | positions | agreeing positions (moves) | his s | our s | our ms/position | ours / his "
        "| our parse ms/position |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for stage in args.stages.split(","):
        print(compare(args.binary, stage, random_set(stage, args.count, args.seed)).row(), flush=True)


if __name__ == "__main__":
    main()
