"""A read of the store of proven positions: the SQLite file beside the tables against a Redis database
on loopback (a redis-server of its own, as tests/serving/test_shared_store.py starts one).

Run: python -m tests.bench.shared_store_bench [--rounds 3] [--reads 2000]

Each round reads the same stored proof `--reads` times from each store, interleaved, on one thread;
the medians and 99th percentiles of a read (canonical form, fetch, checksum, cells turned back).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from service.engine import Position, get_variant
from service.engine.rules.known_move import KnownMove
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_redis import SharedProvenStore
from service.engine.search.proven_store import ProvenStore
from tests.engine.search.records import ALPHA_BETA
from tests.redis_server import redis_server

POSITION = Position.empty(get_variant("5x5k4")).play(4).play(12)


def timed_reads(store: ProvenStore, reads: int) -> list[float]:
    seconds = []
    for _ in range(reads):
        started = time.perf_counter()
        found = store.get(POSITION)
        seconds.append(time.perf_counter() - started)
        assert found is not None
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--reads", type=int, default=2000)
    args = parser.parse_args()
    moves = [KnownMove(cell, 0, 0, 9) for cell in POSITION.legal_moves()]
    with (
        tempfile.TemporaryDirectory(prefix="sanmoku-store-") as tmp,
        redis_server(Path(tmp) / "redis") as server,
    ):
        stores: dict[str, ProvenStore] = {
            "sqlite": ProvenCache(Path(tmp) / "tables"),
            "redis": SharedProvenStore(server.url),
        }
        for store in stores.values():
            store.put(POSITION, moves, ALPHA_BETA)
        for round_ in range(1, args.rounds + 1):
            for name, store in stores.items():
                seconds = timed_reads(store, args.reads)
                median = statistics.median(seconds) * 1000
                p99 = statistics.quantiles(seconds, n=100)[-1] * 1000
                print(f"round {round_} {name:>6}: median {median:.3f} ms, p99 {p99:.3f} ms")


if __name__ == "__main__":
    main()
