"""Work spread over a Ray cluster, for the builds that go past one host: the tiers of a table
(`tables.cluster`) and the positions of an opening book (`books.build`).

Scheduling, retries and transport are Ray's: a task whose worker process or node dies is run again (up
to TASK_RETRIES times) and its result comes back through Ray's object store. What is ours is only how
many tasks are in flight at once (enough for every processor, few enough for a small object store).
Ray is an optional extra (`pip install 'sanmoku[cluster]'`): this module is imported only by a build
that was asked for a cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import ClusterUnavailableError

try:
    import ray
except ImportError as missing:
    raise ClusterUnavailableError("Ray is not installed (pip install 'sanmoku[cluster]')") from missing

TASK_RETRIES = 5
IN_FLIGHT_PER_CPU = 4  # tasks submitted ahead of the results: every worker busy, the object store small


def remote(function: Callable[..., Any]) -> Any:
    """`function` as a Ray task, retried when the process running it dies."""
    return ray.remote(max_retries=TASK_RETRIES)(function)


def connect(address: str) -> None:
    """Join the cluster at `address` ("auto": the one this host belongs to), once per process."""
    if not ray.is_initialized():
        try:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        except ConnectionError as error:
            raise ClusterUnavailableError(f"none answers at {address!r} ({error})") from error


def cluster_size(address: str) -> dict[str, Any]:
    """How many nodes and processors the cluster has: a build's record says where it ran."""
    connect(address)
    alive = [node for node in ray.nodes() if node.get("Alive")]  # type: ignore[no-untyped-call]
    return {"nodes": len(alive), "cpus": _cpus()}


def run_tasks(
    address: str, task: Any, calls: Iterable[tuple[Any, ...]]
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Each call's arguments and `task`'s result for them, in the order the tasks finish, with at most
    IN_FLIGHT_PER_CPU tasks a processor under way."""
    connect(address)
    window = max(2, int(_cpus()) * IN_FLIGHT_PER_CPU)
    pending = iter(calls)
    running: dict[Any, tuple[Any, ...]] = {}
    while True:
        for arguments in pending:
            running[task.remote(*arguments)] = arguments
            if len(running) >= window:
                break
        if not running:
            return
        ready, _ = ray.wait(list(running), num_returns=1)
        for reference in ready:
            yield running.pop(reference), ray.get(reference)


def _cpus() -> float:
    return float(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
