"""The memory one instance of the service takes, as docker-compose.yml runs it: what its limit must fit.

Run: python -m tests.bench.instance_memory_bench [--workers 2] [--seconds 40] [--clients 4]

One gunicorn instance with `--workers` workers on a fresh tables directory (the image's settings: the
preset tables built at start), then `--clients` clients for `--seconds` asking what makes a worker
grow: searches of boards with no table at full budget (each slot's transposition tables), five in a row
on 15x15 (the wider core's tables), game trees and depth-limited moves (the workers' lane processes),
batches, and whole-table /solve streams. Every 0.2 s the whole process tree is read from /proc: the sum
of its processes' Pss (each shared page counted once over the processes that map it: the tables' pages
and the preloaded code) and of their anonymous pages. A container's cgroup counts each page once, as
the Pss sum does, plus the page cache of files read and not mapped, which it reclaims before an
out-of-memory kill. The Connect Four book's build (1.5 GB, books/background.py) is not started: no
Connect Four position is asked.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from tests.serving import harness

SAMPLE_SECONDS = 0.2


@dataclass
class Peak:
    pss_kb: int = 0
    anon_kb: int = 0
    processes: int = 0
    at_peak: list[tuple[int, str, int]] = field(default_factory=list)  # pid, name, Pss in kB


def tree_of(root: int) -> list[int]:
    """The pids of `root` and all its descendants."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parts = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(parts[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def memory_of(pid: int) -> tuple[int, int, str] | None:
    """Pss and anonymous resident pages in kB, and the command, or None once the process is gone."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]
        name = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    values = {line.split(":")[0]: int(line.split()[1]) for line in rollup if line.endswith("kB")}
    return values.get("Pss", 0), values.get("Anonymous", 0), name[:60]


def sample(root: int, peak: Peak) -> None:
    rows = [(pid, found) for pid in tree_of(root) if (found := memory_of(pid)) is not None]
    pss = sum(found[0] for _, found in rows)
    peak.anon_kb = max(peak.anon_kb, sum(found[1] for _, found in rows))
    peak.processes = max(peak.processes, len(rows))
    if pss > peak.pss_kb:
        peak.pss_kb = pss
        peak.at_peak = sorted(((pid, found[2], found[0]) for pid, found in rows), key=lambda r: -r[2])


def post(url: str, path: str, body: dict[str, object]) -> None:
    request = urllib.request.Request(
        url + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
    except urllib.error.HTTPError as error:  # a busy worker's 503 is an answer too
        error.read()


def get(url: str, path: str) -> None:
    try:
        with urllib.request.urlopen(url + path, timeout=60) as response:
            while response.read(1 << 16):
                pass
    except urllib.error.HTTPError as error:
        error.read()


def requests(url: str, rng: random.Random) -> list[Callable[[], None]]:
    return [
        lambda: post(url, "/analyze", {"board": "." * 64, "variant": "8x8k5", "budget_ms": 1000}),
        lambda: post(url, "/analyze", {"board": "." * 49, "variant": "7x7k5", "budget_ms": 1000}),
        lambda: post(url, "/analyze", {"board": "." * 225, "variant": "15x15k5", "budget_ms": 500}),
        lambda: post(url, "/analyze", {"board": "." * 25, "variant": "5x5k4-misere", "budget_ms": 500}),
        lambda: post(url, "/tree", {"board": "." * 16, "variant": "4x4k3", "depth": 3}),
        lambda: post(url, "/move", {"board": "." * 36, "variant": "6x6k4", "policy": "depth", "depth": 3}),
        lambda: post(
            url,
            "/analyze/batch",
            {"positions": [{"board": "." * 36, "variant": "6x6k5"}] * 4, "budget_ms": 400},
        ),
        lambda: get(url, f"/solve?variant=4x4k3&format=ndjson&seed={rng.random()}"),
    ]


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sanmoku-memory-") as tmp:
        workdir = Path(tmp)
        settings = {"SANMOKU_TABLES_DIR": str(workdir / "tables")}
        server = harness.start_gunicorn(workdir, args.workers, settings=settings)
        peak, stop = Peak(), threading.Event()

        def sampler() -> None:
            while not stop.is_set():
                sample(server.process.pid, peak)
                time.sleep(SAMPLE_SECONDS)

        watching = threading.Thread(target=sampler, daemon=True)
        watching.start()
        try:
            started = time.monotonic()
            harness.wait_ready(server, timeout=300)
            print(f"ready in {time.monotonic() - started:.1f} s (the preset tables built); loading")
            start_peak = peak.pss_kb
            deadline = time.monotonic() + args.seconds

            def client(seed: int) -> None:
                rng = random.Random(seed)
                asks = requests(server.url, rng)
                while time.monotonic() < deadline:
                    rng.choice(asks)()

            clients = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
            for thread in clients:
                thread.start()
            for thread in clients:
                thread.join()
        finally:
            stop.set()
            watching.join()
            server.kill()
    print(f"peak before the load (start and the preset tables' build): Pss {start_peak / 1024:.0f} MB")
    print(
        f"peak: Pss summed over the tree {peak.pss_kb / 1024:.0f} MB, anonymous {peak.anon_kb / 1024:.0f} MB"
    )
    print(f"processes at most: {peak.processes}; at the peak, by Pss:")
    for pid, name, pss in peak.at_peak:
        print(f"  {pid:>8} {pss / 1024:7.1f} MB  {name}")


if __name__ == "__main__":
    main()
