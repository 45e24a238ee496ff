"""The plain search of continuous fours (service/engine/search/fours.py) timed on the public VCF puzzles
(tests/data/gomoku-puzzles/): `continuous_fours` over all of them, and on one alone (--ident), each the
median of --rounds. With --against REV, fours.py as it was at that git revision is timed in the same run,
turn about (the machine is shared: compare ratios, not single figures), and the lines both find are
compared.

Run: python -m tests.bench.fours_bench [--variant 15x15k5] [--rounds 5] [--ident 35] [--against REV]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from service.engine import Position
from service.engine.search import fours
from tests.engine.search.gomoku_puzzles import puzzles

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "service/engine/search/fours.py"

Search = Callable[[Position], "list[int] | None"]


def at_revision(revision: str, folder: Path) -> ModuleType:
    """fours.py as it was at `revision`, loaded beside the package's own (its relative imports resolve
    to today's package)."""
    text = subprocess.run(
        ["git", "show", f"{revision}:{SOURCE}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    path = folder / "fours_then.py"
    path.write_text(text, encoding="utf-8")
    name = "service.engine.search.fours_then"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def timed(search: Search, positions: list[Position]) -> tuple[float, list[list[int] | None]]:
    start = time.perf_counter()
    lines = [search(position) for position in positions]
    return time.perf_counter() - start, lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="15x15k5")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--ident", type=int, default=35, help="the puzzle timed alone, by its number")
    parser.add_argument("--against", metavar="REV", help="also time fours.py at this git revision")
    args = parser.parse_args()

    every = [puzzle.position(args.variant) for puzzle in puzzles()]
    alone = [puzzle.position(args.variant) for puzzle in puzzles() if puzzle.ident == args.ident]
    with tempfile.TemporaryDirectory() as folder:
        searches: dict[str, Search] = {"now": fours.continuous_fours}
        if args.against:
            searches[args.against] = at_revision(args.against, Path(folder)).continuous_fours
        times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in searches}
        lines: dict[str, list[list[int] | None]] = {}
        for _ in range(args.rounds):
            for name, search in searches.items():
                seconds, lines[name] = timed(search, every)
                times[name][0].append(seconds)
                times[name][1].append(timed(search, alone)[0])
    for name, (all_seconds, one_seconds) in times.items():
        found = sum(line is not None for line in lines[name])
        print(
            f"{name}: {len(every)} puzzles ({args.variant}) {statistics.median(all_seconds):.3f} s, "
            f"#{args.ident} {statistics.median(one_seconds) * 1000:.1f} ms (medians of {args.rounds}); "
            f"{found} lines found"
        )
    if args.against:
        then, now = times[args.against], times["now"]
        same = sum(a == b for a, b in zip(lines["now"], lines[args.against], strict=True))
        print(
            f"now is {statistics.median(then[0]) / statistics.median(now[0]):.1f}x as fast over all, "
            f"{statistics.median(then[1]) / statistics.median(now[1]):.1f}x on #{args.ident}; "
            f"the same line in {same} of {len(every)}"
        )


if __name__ == "__main__":
    main()
