"""Connect Four past the book: how many positions of plies 13 to 20 the search answers exactly (every
move's result and remoteness) within a request's budget, and how long it takes, per ply.

Run (BitBully, installed into a venv of its own at DIR on first use, plays the games; Pons's solver,
built apart, checks every value the search proves):

    python -m tests.bench.connect4_weak [--pons PATH/TO/c4solver] [--seconds 1.0] [--cpu-nodes N]
    python -m tests.bench.connect4_weak --bitbully DIR --positions NEW_FILE [--games 400] [--per-ply 50]
    python -m tests.bench.connect4_weak --pons PATH --sets DIR --write-sample tests/data/connect4_weak.csv

The positions come from games of strong play with random deviations: each move one that keeps the
best result by BitBully's 12-ply book and search, or with probability 1/4 a random legal one; from each
game the positions after 13 to 20 plies that are not over, each board once, the first `--per-ply` of
each ply. They are kept in FILE (tests/data/connect4_strong_play.txt unless told: made by the defaults
here with BitBully 0.0.79 and bitbully-databases 0.0.2), so that reruns measure the same positions.

Each position is analysed as the service does (`Searcher.analyze` with the budget's seconds and
estimates, one searcher of the service's table size) with the table cleared before it, so that no
position is helped by the one before; the time is the call's wall time. On a machine other jobs load,
`--cpu-nodes N` measures what the search does with `--seconds` of one processor instead: a budget of N
nodes (more than it runs in that time), the CPU time of the process, exact when proven within both.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from service.engine import Position
from service.engine.search import Budget, Searcher, SearchReport

from .connect4_bench import CONNECT4, play, pons_score
from .connect4_peers import bitbully_python, read_set, run_pons, strong_games

PLIES = range(13, 21)
DEVIATION = 0.25
POSITIONS = Path(__file__).parent.parent / "data" / "connect4_strong_play.txt"  # 50 a ply, seed 1
SAMPLE_PER_PLY = 3  # the committed test set: 24 positions
SAMPLE_SETS = ("Test_L1_R2", "Test_L2_R2")  # his beginning-medium and middle-medium sets


def positions_by_ply(games: list[str], per_ply: int) -> dict[int, list[str]]:
    """The first `per_ply` distinct boards of each ply, none over, from the games' prefixes."""
    found: dict[int, dict[tuple[int, int], str]] = {ply: {} for ply in PLIES}
    for game in games:
        for ply in PLIES:
            if len(game) < ply or len(found[ply]) >= per_ply:
                continue
            position = play(game[:ply])
            if not position.is_over:
                found[ply].setdefault((position.x, position.o), game[:ply])
    return {ply: list(boards.values()) for ply, boards in found.items()}


def load_positions(
    path: Path | None, bitbully: Path | None, games: int, per_ply: int, seed: int
) -> list[str]:
    if path is not None and path.exists():
        return path.read_text().split()
    if bitbully is None:
        raise SystemExit("no positions file yet: --bitbully DIR plays the games")
    played = strong_games(bitbully_python(bitbully), games, max(PLIES), DEVIATION, seed)
    sequences = [s for layer in positions_by_ply(played, per_ply).values() for s in layer]
    if path is not None:
        path.write_text("".join(s + "\n" for s in sequences))
    return sequences


@dataclass
class Outcome:
    sequence: str
    exact: bool
    seconds: float
    wrong: int  # moves whose proven value or bounds contradict his score


def contradicts(report: SearchReport, position: Position, his: list[int]) -> int:
    """How many moves the search proved something of that his scores deny."""
    wrong = 0
    for move in report.moves:
        score = his[move.cell % CONNECT4.cols]
        sign = (score > 0) - (score < 0)
        denied = not move.lower <= sign <= move.upper
        wrong += denied or (move.value is not None and pons_score(move.value, position.marks) != score)
    return wrong


def analyse(
    sequences: list[str], seconds: float, cpu_nodes: int, his: list[list[int]] | None
) -> list[Outcome]:
    """Each position's outcome within `seconds` of the clock, or (`cpu_nodes`) of the process's CPU: the
    search then runs within that many nodes, timed by the CPU it took, and is exact within the budget
    when it proved everything in at most `seconds` of it."""
    searcher, out = Searcher(CONNECT4), []
    clock = time.process_time if cpu_nodes else time.perf_counter
    budget = Budget(nodes=cpu_nodes) if cpu_nodes else Budget(seconds)
    for i, sequence in enumerate(sequences):
        position = play(sequence)
        searcher.table.clear()
        started = clock()
        report = searcher.analyze(position, budget, estimates=True)
        spent = clock() - started
        wrong = 0 if his is None else contradicts(report, position, his[i])
        out.append(Outcome(sequence, report.exact and spent <= seconds, spent, wrong))
    return out


def table(outcomes: list[Outcome], seconds: float, clock: str) -> list[str]:
    lines = [
        f"| ply | positions | exact within {seconds:g} s | median {clock} ms | 90th pct. | slowest | wrong |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for ply in PLIES:
        found = [o for o in outcomes if len(o.sequence) == ply]
        if not found:
            continue
        ms = sorted(1000 * o.seconds for o in found)
        exact = sum(o.exact for o in found)
        cells = [str(ply), str(len(found)), f"{exact}/{len(found)} ({100 * exact / len(found):.1f} %)"]
        cells += [f"{statistics.median(ms):.1f}", f"{ms[int(0.9 * (len(ms) - 1))]:.1f}", f"{ms[-1]:.1f}"]
        cells.append(str(sum(o.wrong for o in found)))
        lines.append("| " + " | ".join(cells) + " |")
    exact = sum(o.exact for o in outcomes)
    lines.append(f"all: {exact}/{len(outcomes)} exact ({100 * exact / len(outcomes):.1f} %)")
    return lines


def write_sample(pons: Path, sets: Path, path: Path) -> None:
    """The committed test set: SAMPLE_PER_PLY positions of each ply from his published sets (the
    beginning-medium one for plies 13 and 14, the middle-medium one past them), each with his score of
    the position from the set and every column's from his `-a`."""
    rows = [row for name in SAMPLE_SETS for row in read_set(sets / name)]
    chosen = [row for ply in PLIES for row in [row for row in rows if len(row[0]) == ply][:SAMPLE_PER_PLY]]
    scores, _ = run_pons(pons, [sequence for sequence, _ in chosen])
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["moves", "score", "scores"])
        for (sequence, score), row in zip(chosen, scores, strict=True):
            writer.writerow([sequence, score, " ".join(map(str, row))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bitbully", type=Path, help="a venv directory for BitBully (plays the games)")
    parser.add_argument("--pons", type=Path, help="his c4solver, built apart: checks the proven values")
    parser.add_argument("--positions", type=Path, default=POSITIONS, help="the positions (made if missing)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--per-ply", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=1.0, help="the budget of each analysis")
    parser.add_argument("--cpu-nodes", type=int, default=0, help="seconds of CPU, within this many nodes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", type=Path, help="the directory of his test sets: for --write-sample")
    parser.add_argument("--write-sample", type=Path, help="write the test set there instead (needs --pons)")
    args = parser.parse_args()
    if args.write_sample:
        write_sample(args.pons, args.sets, args.write_sample)
        return
    sequences = load_positions(args.positions, args.bitbully, args.games, args.per_ply, args.seed)
    his = run_pons(args.pons, sequences)[0] if args.pons else None
    outcomes = analyse(sequences, args.seconds, args.cpu_nodes, his)
    for line in table(outcomes, args.seconds, "CPU" if args.cpu_nodes else "wall"):
        print(line, flush=True)


if __name__ == "__main__":
    main()
