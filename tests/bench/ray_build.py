"""A table built on a local Ray cluster of two nodes (one processor each, on 127.0.0.1) against the same
build on this host's threads, in one run, alternating; every file compared byte for byte.

Run: python -m tests.bench.ray_build [--samples 3] [--variants 4x4k4,4x5k4]

Times are `build_file` in this process (the Ray cluster started once, before; its start is printed).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import tempfile
import time
from pathlib import Path

from service.engine import get_variant
from service.engine.tables.building import build_file

NODE = {"num_cpus": 1, "object_store_memory": 200 * 2**20, "include_dashboard": False}


def timed_build(path: Path, name: str, threads: int = 1, address: str | None = None) -> float:
    path.unlink(missing_ok=True)
    started = time.perf_counter()
    build_file(path, get_variant(name), threads=threads, ray_address=address)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--variants", default="4x4k4,4x5k4")
    args = parser.parse_args()
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "1")  # a second node on macOS too
    import ray
    from ray.cluster_utils import Cluster

    started = time.perf_counter()
    cluster = Cluster(initialize_head=True, head_node_args=NODE)
    cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    print(f"two-node cluster started in {time.perf_counter() - started:.1f} s ({cluster.address})")
    ways = {"1 thread": (1, None), "2 threads": (2, None), "Ray, 2 nodes": (1, cluster.address)}
    try:
        with tempfile.TemporaryDirectory(prefix="sanmoku-ray-") as folder:
            print("| variant | " + " | ".join(ways) + " | Ray / 2 threads |")
            print("|---|" + "---|" * (len(ways) + 1))
            for name in args.variants.split(","):
                times: dict[str, list[float]] = {way: [] for way in ways}
                paths = {way: Path(folder) / f"{number}" / f"{name}.table" for number, way in enumerate(ways)}
                for _ in range(args.samples):
                    for way, (threads, address) in ways.items():
                        paths[way].parent.mkdir(exist_ok=True)
                        times[way].append(timed_build(paths[way], name, threads, address))
                first = next(iter(paths.values()))
                assert all(filecmp.cmp(first, path, shallow=False) for path in paths.values())
                medians = {way: statistics.median(spent) for way, spent in times.items()}
                cells = " | ".join(f"{seconds:.1f} s" for seconds in medians.values())
                ratio = medians["Ray, 2 nodes"] / medians["2 threads"]
                print(f"| {name} | {cells} | {ratio:.2f} |", flush=True)
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    main()
