"""The cache of proven positions at its bound, with writers running: what its trim keeps, what the disk
holds at worst (the file and its write-ahead log), and how long a writer's `put` takes.

A store is filled straight through SQL with records of random 8x8k5 positions (their keys as the store
makes them, their moves of the right length: about 400 bytes of pages each) until its pages in use
reach `--over` times the bound; then `--threads` threads each `put` `--puts` proofs of random 8x8k5
positions, `--pause` seconds apart, as requests' searches do, while `--readers` connections of their own
look up records (other workers' reads: each holds a snapshot of the log for a moment). A sampler reads
the file's and the log's sizes every 5 ms. It uses only the store's public calls, so that it measures
any version of it.

    python -m tests.bench.proven_trim_bench --max-mb 100 --over 1.039

prints one line of figures (records before and after, the log's peak, the disk's peak against the
bound, the slowest `put`), and `--json` the same as JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from service.engine import Position, get_variant
from service.engine.rules.canonical import canonical
from service.engine.rules.known_move import KnownMove
from service.engine.search.proof_number import Prover
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_record import SEARCH, Origin

VARIANT = get_variant("8x8k5")
ORIGIN = Origin.of(SEARCH, [Prover.ALPHA_BETA])
SAMPLE_SECONDS = 0.005


def prefill(store: ProvenCache, over: float, seed: int) -> int:
    """Records of random 8x8k5 positions of 6 to 14 marks (their keys as the store makes them, their moves
    of the right length), older than any the writers make, until the pages in use reach `over` times
    the bound; how many. Straight through SQL: a `put` each would take seconds."""
    store.open()
    db = sqlite3.connect(store.path, isolation_level=None)
    rng = random.Random(seed)
    page = int(db.execute("PRAGMA page_size").fetchone()[0])
    count, start = 0, time.time() - 10**6

    def in_use() -> int:
        pages = int(db.execute("PRAGMA page_count").fetchone()[0])
        return (pages - int(db.execute("PRAGMA freelist_count").fetchone()[0])) * page

    while in_use() < over * store.max_bytes:
        db.execute("BEGIN")
        for _ in range(500):
            marks = rng.randrange(6, 15)
            cells = rng.sample(range(VARIANT.cells), marks)
            mine = sum(1 << c for c in cells[: (marks + 1) // 2])
            theirs = sum(1 << c for c in cells[(marks + 1) // 2 :])
            _, (a, b) = canonical(VARIANT, mine, theirs)
            key = (
                VARIANT.long_name,
                a - (1 << 64) if a >= 1 << 63 else a,
                b - (1 << 64) if b >= 1 << 63 else b,
            )
            blob = rng.randbytes(4 * (VARIANT.cells - marks) + 4)
            db.execute(
                "INSERT OR REPLACE INTO proven VALUES (?, ?, ?, ?, 1, ?, ?)",
                (*key, blob, ORIGIN.text, start + count),
            )
            count += 1
        db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return count


def random_position(rng: random.Random) -> Position:
    position = Position.empty(VARIANT)
    for _ in range(rng.randrange(6, 14)):
        position = position.play(rng.choice(position.legal_moves()))
    return position


def writer(store: ProvenCache, puts: int, seed: int, times: list[float], pause: float = 0.0) -> None:
    """`puts` proofs of random positions, `pause` seconds apart (a search's time), each `put` timed."""
    rng = random.Random(seed)
    for _ in range(puts):
        position = random_position(rng)
        moves = [KnownMove(c, 0, 0, 9) for c in position.legal_moves()]
        started = time.perf_counter()
        store.put(position, moves, ORIGIN)
        times.append(time.perf_counter() - started)
        time.sleep(pause)


def reader(path: Path, done: threading.Event, seed: int) -> None:
    """Another worker's lookups, on a connection of its own: each holds a snapshot of the log a moment."""
    rng = random.Random(seed)
    db = sqlite3.connect(path, isolation_level=None, timeout=0.05)
    while not done.is_set():
        key = (VARIANT.long_name, rng.getrandbits(63), rng.getrandbits(63))
        with contextlib.suppress(sqlite3.OperationalError):  # busy: a miss, as the store's own
            db.execute(
                "SELECT moves FROM proven WHERE variant = ? AND mover = ? AND other = ?", key
            ).fetchone()
        time.sleep(0)
    db.close()


def sizes(path: Path) -> tuple[int, int]:
    """The bytes of a store's file and of its write-ahead log."""

    def size(name: str) -> int:
        try:
            return os.stat(name).st_size
        except OSError:
            return 0

    return size(str(path)), size(f"{path}-wal")


class Peaks:
    """The largest write-ahead log and disk use (file and log) of a store while in a `with`, sampled
    on a thread every `every` seconds."""

    def __init__(self, path: Path, every: float = SAMPLE_SECONDS) -> None:
        self.path, self.every = path, every
        self.wal = self.disk = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample)

    def __enter__(self) -> Peaks:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _sample(self) -> None:
        while True:
            main, wal = sizes(self.path)
            self.wal, self.disk = max(self.wal, wal), max(self.disk, main + wal)
            if self._done.wait(self.every):
                return


def records(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT COUNT(*) FROM proven").fetchone()[0])
    finally:
        db.close()


def run(
    max_bytes: int, over: float, threads: int, puts: int, pause: float, readers: int, settle: float, seed: int
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = ProvenCache(Path(folder), max_bytes)
        before = prefill(store, over, seed)
        main_before, _ = sizes(store.path)
        done = threading.Event()
        lookups = [
            threading.Thread(target=reader, args=(store.path, done, seed + 100 + n)) for n in range(readers)
        ]
        times: list[float] = []
        writers = [
            threading.Thread(target=writer, args=(store, puts, seed + 1 + n, times, pause))
            for n in range(threads)
        ]
        with Peaks(store.path) as peaks:
            for thread in lookups:
                thread.start()
            started = time.perf_counter()
            for thread in writers:
                thread.start()
            for thread in writers:
                thread.join()
            elapsed = time.perf_counter() - started
            time.sleep(settle)  # a trim started by the last writes finishes
            done.set()
            for thread in lookups:
                thread.join()
        store.close()
        main_after, wal_after = sizes(store.path)
        after = records(store.path)
        times.sort()
        return {
            "max_mb": max_bytes / 1e6,
            "records_before": before,
            "main_mb_before": main_before / 1e6,
            "records_after": after,
            "kept": after / max(1, before),
            "wal_peak_mb": peaks.wal / 1e6,
            "disk_peak_mb": peaks.disk / 1e6,
            "disk_peak_of_bound": peaks.disk / max_bytes,
            "main_mb_after": main_after / 1e6,
            "wal_mb_after": wal_after / 1e6,
            "puts": len(times),
            "put_p50_ms": 1000 * times[len(times) // 2],
            "put_p99_ms": 1000 * times[int(len(times) * 0.99)],
            "put_max_ms": 1000 * times[-1],
            "seconds": elapsed,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-mb", type=float, default=100.0, help="the store's bound, in MB (10^6 bytes)")
    parser.add_argument("--over", type=float, default=1.039, help="pages in use at the start, of the bound")
    parser.add_argument("--threads", type=int, default=3)
    parser.add_argument("--puts", type=int, default=1000, help="per thread")
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between two puts of a thread")
    parser.add_argument("--readers", type=int, default=2, help="connections of their own reading meanwhile")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds left for a last trim")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = run(
        int(args.max_mb * 1e6),
        args.over,
        args.threads,
        args.puts,
        args.pause,
        args.readers,
        args.settle,
        args.seed,
    )
    if args.json:
        print(json.dumps(found))
        return
    print(
        f"bound {found['max_mb']:.0f} MB: records {found['records_before']:,} -> {found['records_after']:,} "
        f"({100 * (found['kept'] - 1):+.0f} %), WAL peak {found['wal_peak_mb']:.1f} MB, disk peak "
        f"{found['disk_peak_mb']:.1f} MB ({found['disk_peak_of_bound']:.2f}x the bound), after: file "
        f"{found['main_mb_after']:.1f} MB + WAL {found['wal_mb_after']:.1f} MB; {found['puts']} puts on "
        f"{args.threads} threads ({args.readers} readers beside): p50 {found['put_p50_ms']:.1f} ms, "
        f"p99 {found['put_p99_ms']:.1f} ms, "
        f"max {found['put_max_ms']:.0f} ms"
    )


if __name__ == "__main__":
    main()
