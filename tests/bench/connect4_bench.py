"""Connect Four side by side with Pascal Pons's solver (github PascalPons/connect4) and BitBully (PyPI
`bitbully`), run on the same machine in the same run: agreement on every move's score, and the time of
each, per set of positions.

Run (his binary is built apart from this repository, by his own Makefile; nothing here builds it;
BitBully is installed into a venv of its own at DIR on first use):

    python -m tests.bench.connect4_bench PATH/TO/c4solver --sets PONS_SETS_DIR [--bitbully DIR] [--count 1000]
        [--begin-count 1000] [--hard-count 100] [--only Test_L1_R2,Test_L1_R3]
    python -m tests.bench.connect4_bench PATH/TO/c4solver [--count 1000] [--seed 1] [--stages early,late]
    python -m tests.bench.connect4_bench PATH/TO/c4solver --write-sample tests/data/connect4_pons.csv

`--sets` reads his published test sets (the files `Test_L2_R1` ... `Test_L1_R3` of his "test protocol"
page, kept outside this repository) and runs the middle and beginning ones: the first `--count`
positions of each middle set, `--begin-count` of the beginning-easy and -medium ones and `--hard-count`
of the beginning-hard one (his solver takes minutes over one of its shallowest). Without it, the positions are
random legal games from the empty board stopped at a ply drawn from the stage's range, none over.

The solvers take the set in turn, CHUNK positions at a time, so that a change of load on this shared
machine falls on all of them. His side: a run of `c4solver -a` over the chunk in a directory without his
opening book, timed from the start of the process to its end less the time of a run on an empty input.
BitBully's: `score_all_moves` with no opening book, timed in its process around the calls. Ours: one
Searcher for the chunk, `analyze` with the remoteness and no limit, every move exact, the calls
timed, Python's share included. Each keeps its transposition table from position to position of a chunk.
A set the solvers finish within QUICK seconds is run whole REPEATS times instead, each keeping its
fastest run. Reading sequences into positions is not timed on our side; what a request pays instead,
`Position.parse` of the board, is reported beside it.

Scores. His score of a move is the mover's: a win whose last stone is the winner's s-th stone scores
22 - s, a loss the negative, a draw 0, a full column -1000. Ours is a `Value(score, remoteness)` for
the side that plays the move, the remoteness counting the move. With n marks on the board before it, the
game ends with the T-th mark, T = n + remoteness; the winner's stones are then ceil(T / 2), so his score
is score * (22 - ceil(T / 2)), 0 for a draw. It is one to one: the winner's parity fixes T from s.
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from service.engine import Position, Value, get_variant
from service.engine.search import Budget, Searcher

from .connect4_peers import Scores, bitbully_python, idle_seconds, read_set, run_bitbully, run_pons

CONNECT4 = get_variant("connect4")
STAGES = {"early": (10, 13), "middle": (14, 27), "late": (28, 41)}
PONS_SETS = ("Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")  # middle, beginning
HARD_SET = "Test_L1_R3"
FULL_COLUMN = -1000  # his score of a column that cannot be played
TABLE_BITS = 21  # 2**21 buckets of 3 positions, 128 MB: his table holds 2**24 positions in 80 MB
# The committed sample: few early positions, as each takes the search about a second.
SAMPLE = {"early": 20, "middle": 140, "late": 140}
QUICK, REPEATS = 5.0, 5  # seconds, runs: the late set takes the solvers milliseconds
CHUNK = 100  # positions each solver takes in turn
Runner = Callable[[list[str]], tuple[Scores, float]]


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


def our_scores(searcher: Searcher, position: Position) -> tuple[list[int], float]:
    """Every column's score, his way, from our analysis (every move exact), and the analysis's seconds."""
    started = time.perf_counter()
    analysis = searcher.analyze(position, Budget())
    seconds = time.perf_counter() - started
    scores = [FULL_COLUMN] * CONNECT4.cols
    for move in analysis.moves:
        if move.value is None:
            raise AssertionError(f"{position.cells}: the move at cell {move.cell} was not proven")
        scores[move.cell % CONNECT4.cols] = pons_score(move.value, position.marks)
    return scores, seconds


def run_ours(sequences: list[str]) -> tuple[Scores, float]:
    """Our scores of each sequence with one fresh searcher, and the seconds of the analyses alone."""
    positions = [play(sequence) for sequence in sequences]
    searcher = Searcher(CONNECT4, table_bits=TABLE_BITS)
    found, seconds = [], 0.0
    for position in positions:
        scores, spent = our_scores(searcher, position)
        found.append(scores)
        seconds += spent
    return found, seconds


def in_turn(runners: dict[str, Runner], sequences: list[str], chunk: int) -> dict[str, tuple[Scores, float]]:
    """Each solver's scores and seconds over the sequences, `chunk` positions at a time in turn."""
    out: dict[str, tuple[Scores, float]] = {name: ([], 0.0) for name in runners}
    for start in range(0, len(sequences), chunk):
        for name, run in runners.items():
            scores, seconds = run(sequences[start : start + chunk])
            out[name] = (out[name][0] + scores, out[name][1] + seconds)
    return out


def compare(runners: dict[str, Runner], sequences: list[str]) -> dict[str, tuple[Scores, float]]:
    """`in_turn` on CHUNK positions at a time; but a set the solvers would finish within QUICK seconds
    (a millisecond a chunk, less than a process's start varies) is run whole REPEATS times, each
    keeping its fastest run."""
    first = in_turn(runners, sequences[:CHUNK], CHUNK)
    if sum(seconds for _, seconds in first.values()) * len(sequences) / min(CHUNK, len(sequences)) >= QUICK:
        rest = in_turn(runners, sequences[CHUNK:], CHUNK)  # the first chunk is not run twice
        return {name: (first[name][0] + rest[name][0], first[name][1] + rest[name][1]) for name in runners}
    runs = [in_turn(runners, sequences, len(sequences)) for _ in range(REPEATS)]
    return {name: (runs[0][name][0], min(run[name][1] for run in runs)) for name in runners}


def table_row(name: str, sequences: list[str], found: dict[str, tuple[Scores, float]]) -> str:
    """One line of the table: agreement with his scores, seconds, our ratios to each peer."""
    his = found["pons"][0]
    moves = sum(score != FULL_COLUMN for row in his for score in row)
    cells = [name, str(len(sequences))]
    for solver in ("ours", "bitbully"):
        if solver in found:
            pairs = zip(found[solver][0], his, strict=True)
            wrong = sum(a != b for mine, theirs in pairs for a, b in zip(mine, theirs, strict=True))
            cells.append(f"{moves - wrong}/{moves}")
    cells += [f"{found[solver][1]:.3f}" for solver in ("pons", "bitbully", "ours") if solver in found]
    ours = found["ours"][1]
    for peer in ("pons", "bitbully"):  # a set too quick to time past his process's start: no ratio
        if peer in found:
            cells.append(f"{ours / found[peer][1]:.2f}" if found[peer][1] > 0 else "-")
    positions = [play(sequence) for sequence in sequences]
    started = time.perf_counter()
    for position in positions:
        Position.parse(position.cells, position.to_move, CONNECT4)
    cells.append(f"{1000 * (time.perf_counter() - started) / len(sequences):.3f}")
    return "| " + " | ".join(cells) + " |"


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
    parser.add_argument("--sets", type=Path, help="the directory of his test sets (Test_L2_R2, ...)")
    parser.add_argument("--bitbully", type=Path, help="a venv directory for BitBully (made on first use)")
    parser.add_argument("--count", type=int, default=1000, help="positions per stage or set")
    parser.add_argument("--begin-count", type=int, help="positions of the beginning sets (default --count)")
    parser.add_argument("--hard-count", type=int, default=100, help="positions of the beginning-hard set")
    parser.add_argument("--only", help="of his sets, only these (comma-separated, e.g. Test_L1_R2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stages", default=",".join(STAGES))
    parser.add_argument("--write-sample", type=Path, help="write the agreement file there instead")
    args = parser.parse_args()
    if args.write_sample:
        write_sample(args.binary, args.write_sample, args.seed)
        return
    runners: dict[str, Runner] = {"pons": partial(run_pons, args.binary, idle=idle_seconds(args.binary))}
    if args.bitbully:
        runners["bitbully"] = partial(run_bitbully, bitbully_python(args.bitbully))
    runners["ours"] = run_ours
    peers = [name for name in ("Pons", "BitBully") if name.lower() in runners]
    header = ["set", "positions", "ours agree", *(["BitBully agrees"] if args.bitbully else [])]
    header += [f"{name} s" for name in peers] + ["ours s"] + [f"ours / {name}" for name in peers]
    print("| " + " | ".join([*header, "our parse ms"]) + " |")
    print("|" + " --- |" * (len(header) + 1))
    if args.sets:
        begin = args.begin_count or args.count
        counts = {name: args.count if name.startswith("Test_L2") else begin for name in PONS_SETS}
        counts[HARD_SET] = args.hard_count
        if args.only:
            counts = {name: counts[name] for name in args.only.split(",")}
        sets = {name: [s for s, _ in read_set(args.sets / name, count)] for name, count in counts.items()}
    else:
        sets = {stage: random_set(stage, args.count, args.seed) for stage in args.stages.split(",")}
    for name, sequences in sets.items():
        print(table_row(name, sequences, compare(runners, sequences)), flush=True)


if __name__ == "__main__":
    main()
