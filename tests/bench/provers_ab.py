"""Two builds of the provers on the positions of provers_bench's table 2, interleaved in one run: each
position analysed cold at the default budget (the provers leading, as the searcher's rule has it) by a
worker process of each checkout in turn, the order alternating from one position to the next, so that
the machine's noise hits both alike.

Run: python -m tests.bench.provers_ab --base DIR [--base-python PY] [--positions 30] [--seed 1]
     [--boards 7x7k5,8x8k5] [--plies 4,8,12]

DIR is a checkout of the other build with its core compiled (`pip install -e .` in a venv of its own:
--base-python names that venv's python); this checkout is the new build. The worker's code is passed on
the command line, so the other checkout needs only provers_bench.py and search_bench.py as they are.
--shares sets the provers' share of the results' budget for each build ("rule": the build's own
narrowing.provers_share): with --base the same checkout, it compares shares.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

WORKER = """
import json, random, sys, time
from service.engine import get_variant
from service.engine.search import Searcher
from tests.bench.provers_bench import DEFAULT_BUDGET, cold_analysis, provers_share
from tests.engine.search.positions import random_play as random_position
from tests.engine.search.positions import position_of
lists = {}
for line in sys.stdin:
    name, plies, count, seed, index, share = line.split()
    key = (name, plies, count, seed)
    if key not in lists:
        variant, rng = get_variant(name), random.Random(int(seed))
        board = Searcher(variant, table_bits=10).board
        plays = [random_position(board, int(plies), rng) for _ in range(int(count))]
        lists[key] = [position_of(variant, *play) for play in plays]
    cpu = time.process_time()  # of every thread of the process: the provers may use two
    if share == "rule":
        run = cold_analysis(lists[key][int(index)], DEFAULT_BUDGET)
    else:
        with provers_share(float(share)):
            run = cold_analysis(lists[key][int(index)], DEFAULT_BUDGET)
    cpu = time.process_time() - cpu
    answer = {"exact": run.exact, "results": run.results, "seconds": run.seconds, "cpu": cpu}
    print(json.dumps(answer), flush=True)
"""


class Worker:
    def __init__(self, checkout: Path, python: str) -> None:
        environment = dict(os.environ, PYTHONPATH=str(checkout))
        self.process = subprocess.Popen(
            [python, "-c", WORKER], cwd=checkout, env=environment, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip

    def run(self, request: str) -> dict[str, Any]:
        stdin: IO[str] | None = self.process.stdin
        stdout: IO[str] | None = self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(request + "\n")
        stdin.flush()
        answer: dict[str, Any] = json.loads(stdout.readline())
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", type=Path, required=True, help="the other build's checkout")
    parser.add_argument("--base-python", default=sys.executable, help="the python of its venv")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--boards", default="7x7k5,8x8k5")
    parser.add_argument("--plies", default="4,8,12")
    parser.add_argument(
        "--shares", default="rule,rule", help="the provers' share of the results' budget: before, after"
    )
    args = parser.parse_args()
    shares = args.shares.split(",")
    workers = {
        "before": Worker(args.base.resolve(), args.base_python),
        "after": Worker(Path.cwd(), sys.executable),
    }
    print(
        "| board, plies | exact: before / after | every result proven: before / after | median s"
        " | median processor s |"
    )
    print("|---|---|---|---|---|")
    try:
        for name in args.boards.split(","):
            for plies in args.plies.split(","):
                runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
                for index in range(args.positions):
                    order = ["before", "after"] if index % 2 == 0 else ["after", "before"]
                    for build in order:
                        share = shares[0] if build == "before" else shares[1]
                        request = f"{name} {plies} {args.positions} {args.seed} {index} {share}"
                        runs[build].append(workers[build].run(request))
                exact = [sum(r["exact"] for r in runs[b]) for b in ("before", "after")]
                results = [sum(r["results"] for r in runs[b]) for b in ("before", "after")]
                middle = args.positions // 2
                median = [sorted(r["seconds"] for r in runs[b])[middle] for b in ("before", "after")]
                cpu = [sorted(r["cpu"] for r in runs[b])[middle] for b in ("before", "after")]
                print(
                    f"| {name} after {plies} | {exact[0]} / {exact[1]} | {results[0]} / {results[1]}"
                    f" | {median[0]:.2f} / {median[1]:.2f} | {cpu[0]:.2f} / {cpu[1]:.2f} |",
                    flush=True,
                )
    finally:
        for worker in workers.values():
            worker.close()


if __name__ == "__main__":
    main()
