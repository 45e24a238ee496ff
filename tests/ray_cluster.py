"""One local Ray cluster of two nodes on 127.0.0.1 for a test module: Ray takes 10-20 s to start here,
so every test of the module that builds on a cluster shares it (the fixture `ray_cluster`, its address).
It stops with the module: its idle processes would take processor time from the tests after it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.requires import require_module

NODE = {"num_cpus": 1, "object_store_memory": 100 * 2**20, "include_dashboard": False}


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[str]:
    require_module("ray", "sanmoku[cluster]")
    # Ray refuses a second node on macOS and Windows unless this is 1 (Linux allows it anyway); read
    # when ray is first imported. ("0" would forbid clusters everywhere, `ray start` included.)
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "1")
    import ray
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args=NODE)
    try:
        cluster.add_node(**NODE)
        cluster.wait_for_nodes()
        yield cluster.address
    finally:
        ray.shutdown()
        cluster.shutdown()
