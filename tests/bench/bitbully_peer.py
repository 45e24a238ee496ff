"""BitBully (PyPI `bitbully`, C++, AGPL) as a peer of the Connect Four benchmarks: run only by them, in a
venv of its own (`connect4_peers.bitbully_python` makes it), never imported by Sanmoku.

    PYTHON bitbully_peer.py score < sequences    # every column's score, no opening book
    PYTHON bitbully_peer.py games --count N --plies P --deviation D --seed S

`score` reads move sequences (columns 1-7, Pons's notation) and prints each with its seven scores (his
scale, -1000 for a full column), then `seconds S`: the time of the `score_all_moves` calls alone (the
boards are made before the clock starts). `games` plays N games of P plies from the empty board, each
move one that keeps the best result by BitBully's 12-ply book and search, or with probability D a
random legal one, and
prints each game's sequence (shorter when it ended).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bitbully import BitBully, Board  # type: ignore[import-not-found]  # the peers' venv only

COLUMNS = 7
FULL_COLUMN = -1000


def score(lines: list[str]) -> None:
    sequences = [line.split()[0] for line in lines if line.strip()]
    boards = [Board.from_moves([int(digit) - 1 for digit in sequence]) for sequence in sequences]
    agent = BitBully(opening_book=None)
    rows, started = [], time.perf_counter()
    for board in boards:
        rows.append(agent.score_all_moves(board))
    seconds = time.perf_counter() - started
    for sequence, found in zip(sequences, rows, strict=True):
        print(sequence, *(found.get(column, FULL_COLUMN) for column in range(COLUMNS)))
    print("seconds", seconds)


def games(count: int, plies: int, deviation: float, seed: int) -> None:
    agent, rng = BitBully("12-ply-dist"), random.Random(seed)
    for _ in range(count):
        board, sequence = Board(), ""
        while len(sequence) < plies and not board.is_game_over():
            found = agent.score_all_moves(board)
            if rng.random() < deviation:
                column = rng.choice(sorted(found))
            else:  # any move that keeps the best result: strong play, not only the quickest win
                results = {c: (s > 0) - (s < 0) for c, s in found.items()}
                best = max(results.values())
                column = rng.choice(sorted(c for c, r in results.items() if r == best))
            board.play(column)
            sequence += str(column + 1)
        print(sequence, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["score", "games"])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--deviation", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "score":
        score(sys.stdin.readlines())
    else:
        games(args.count, args.plies, args.deviation, args.seed)


if __name__ == "__main__":
    main()
