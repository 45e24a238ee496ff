"""Cold solve benchmark: both variants solved from nothing, in fresh processes.

Run: python -m tests.bench.engine_cold_solve [--samples N]

Baseline in the same run: the brute-force reference of the tests (no symmetry, no bitmasks,
memoised on the plain board) solving the same two variants. Reports medians and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

ENGINE = """
import time
from service.engine import warm_solvers
t = time.perf_counter()
solvers = warm_solvers()
elapsed = time.perf_counter() - t
print(elapsed, sum(len(s.table) for s in solvers.values()))
"""

REFERENCE = """
import time
from tests.reference import minimax
t = time.perf_counter()
for misere in (False, True):
    minimax("." * 9, "X", misere)
elapsed = time.perf_counter() - t
print(elapsed, minimax.cache_info().currsize)
"""


def sample(code: str) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    seconds, size = out.split()
    return float(seconds), int(size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=15)
    args = parser.parse_args()
    engine, reference = [], []
    for _ in range(args.samples):  # interleaved, so machine noise hits both alike
        engine.append(sample(ENGINE))
        reference.append(sample(REFERENCE))
    e = statistics.median(s for s, _ in engine)
    r = statistics.median(s for s, _ in reference)
    print(f"cold solve, both variants (median of {args.samples} fresh processes)")
    print(f"  engine:    {e * 1000:7.1f} ms  cache entries {engine[0][1]}")
    print(f"  reference: {r * 1000:7.1f} ms  memo entries  {reference[0][1]}")
    print(f"  ratio engine/reference: {e / r:.3f}")


if __name__ == "__main__":
    main()
