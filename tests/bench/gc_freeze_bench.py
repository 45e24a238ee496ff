"""The workers' memory with and without the gc.freeze of gunicorn_conf.on_starting.

Run: python -m tests.bench.gc_freeze_bench [--rounds 3] [--requests 300]

Two servers per round, interleaved: `service/gunicorn_conf.py` as shipped, and the same settings with
gc.freeze made a no-op (a configuration file written here that imports the shipped one). Each gets 2
workers and the same requests (random 3x3 and 4x4 positions, GET /analyze, so that every worker's
collector runs over the preloaded objects); then every worker's Pss and private dirty pages are read
from /proc/PID/smaps_rollup. A collection writes to every object it walks (its reference count copy),
so without the freeze a worker copies the pages of the objects the master preloaded.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

from tests.serving import harness

NOT_FROZEN = "import gc\ngc.freeze = lambda: None\nfrom service.gunicorn_conf import *  # noqa: F403\n"
FIELDS = ("Pss", "Private_Dirty", "Shared_Dirty")


def memory_of_workers(server: harness.Server) -> list[dict[str, int]]:
    """Each worker's FIELDS, in kB."""
    master = server.process.pid
    workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    out = []
    for worker in workers:
        lines = Path(f"/proc/{worker}/smaps_rollup").read_text().splitlines()
        values = {line.split(":")[0]: int(line.split()[1]) for line in lines[1:]}
        out.append({field: values[field] for field in FIELDS})
    return out


def ask(server: harness.Server, count: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        variant, cells = rng.choice((("3x3k3", 9), ("4x4k4", 16)))
        board = "".join(rng.choice(".XO") for _ in range(cells))
        url = f"{server.url}/analyze?board={board}&variant={variant}"
        with contextlib.suppress(urllib.error.HTTPError):  # an impossible board: a 422 does as well
            urllib.request.urlopen(url, timeout=10).read()


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=300, help="requests per server per round")
    args = parser.parse_args()
    found: dict[str, list[dict[str, int]]] = {"frozen (as shipped)": [], "not frozen": []}
    with tempfile.TemporaryDirectory(prefix="sanmoku-gc-") as tmp:
        workdir = Path(tmp)
        not_frozen = workdir / "not_frozen_conf.py"
        not_frozen.write_text(NOT_FROZEN)
        commands = {
            "frozen (as shipped)": harness.gunicorn_command(),
            "not frozen": [sys.executable, "-m", "gunicorn", "-c", str(not_frozen), harness.APP],
        }
        for number in range(args.rounds):
            for name, command in commands.items():
                server = harness.start_gunicorn(workdir, 2, command=command)
                try:
                    harness.wait_ready(server)
                    ask(server, args.requests, seed=number)
                    found[name] += memory_of_workers(server)
                finally:
                    server.kill()
    print(f"{args.rounds} rounds, {args.requests} requests per server, 2 workers; medians over the workers")
    print("| configuration | " + " | ".join(f"{field} (kB)" for field in FIELDS) + " |")
    print("|---|" + "---:|" * len(FIELDS))
    for name, workers in found.items():
        medians = [statistics.median(w[field] for w in workers) for field in FIELDS]
        print(f"| {name} | " + " | ".join(f"{m:,.0f}" for m in medians) + " |")


if __name__ == "__main__":
    main()
