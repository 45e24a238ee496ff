"""Tables built on a Ray cluster (two nodes on 127.0.0.1, shared by the session) are the local build's
files byte for byte: 4x4k4, and 4x5k4 with a worker process killed in the middle of a tier (Ray runs
its task again); a build stopped on the cluster goes on without it. The opening book's searches as Ray
tasks store what the table says."""

from __future__ import annotations

import filecmp
import json
import os
import signal
from pathlib import Path

import pytest

from service.engine import ProvenCache, TableStore, Value, Variant, book_positions, build_book, get_variant
from service.engine.tables import partial as partial_module
from service.engine.tables.building import build_file
from service.engine.tables.table_file import build_record
from tests.engine.tables.stopped_builds import StopAfter

TASK_TITLE = b"ray::_solve_piece"  # a Ray worker's process title while it runs a piece of a tier


def workers_solving() -> list[int]:
    """The processes of this host running a piece of a tier now."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_bytes().startswith(TASK_TITLE):
                found.append(int(entry.name))
        except OSError:  # gone meanwhile
            continue
    return found


class KillAWorker(StopAfter):
    """Progress that kills one worker process in the middle of tier `tier` (after its first piece), or
    of the first tier after it where one is seen running: on a loaded machine a tier's pieces can all end
    between two reports of progress."""

    def __init__(self, tier: int) -> None:
        super().__init__(tiers=10**6)
        self.tier, self.in_tier, self.killed = tier, False, list[int]()

    def tier_done(self, tier: int, seconds: float) -> None:
        self.in_tier = tier <= self.tier + 1  # the tiers go down from the full board

    def advanced(self, entries: int) -> None:
        if self.in_tier and not self.killed:
            for pid in workers_solving()[:1]:
                os.kill(pid, signal.SIGKILL)
                self.killed.append(pid)


@pytest.mark.slow
def test_4x5k4_on_two_nodes_with_a_worker_killed_is_the_local_file(
    ray_cluster: str, store: TableStore, tmp_path: Path
) -> None:
    variant = get_variant("4x5k4")
    local = store.get(variant).path
    on_ray = tmp_path / f"{variant.long_name}.table"
    killer = KillAWorker(tier=10)
    build_file(on_ray, variant, progress=killer, ray_address=ray_cluster)
    assert killer.killed, "no worker was found solving a piece of tier 10 or below"
    assert local is not None and filecmp.cmp(on_ray, local, shallow=False)
    assert build_record(on_ray)["ray"] == {"nodes": 2, "cpus": 2.0}


@pytest.mark.slow
def test_4x4k4_stopped_on_the_cluster_goes_on_here(
    ray_cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = get_variant("4x4k4")
    local = tmp_path / "local" / f"{variant.long_name}.table"
    build_file(local, variant)
    on_ray = tmp_path / "ray" / f"{variant.long_name}.table"
    build_file(on_ray, variant, ray_address=ray_cluster)
    assert filecmp.cmp(on_ray, local, shallow=False)
    monkeypatch.setattr(partial_module, "SYNC_BYTES", 1)  # every tier flushed and counted
    stopped = tmp_path / "stopped" / f"{variant.long_name}.table"
    with pytest.raises(KeyboardInterrupt):
        build_file(stopped, variant, progress=StopAfter(6), ray_address=ray_cluster)
    done = json.loads(partial_module.record_of_partial(stopped).read_text())["done"]
    assert sorted(map(int, done)) == list(range(11, 17))
    build_file(stopped, variant)
    assert filecmp.cmp(stopped, local, shallow=False)


def test_a_book_searched_on_the_cluster_holds_what_the_table_holds(
    ray_cluster: str, store: TableStore, tmp_path: Path
) -> None:
    variant: Variant = get_variant("4x4k4")
    proven = ProvenCache(tmp_path)
    counts = build_book(variant, 2, proven, processes=1, ray_address=ray_cluster)
    layers = book_positions(variant, 2)
    assert [c.searched for c in counts] == [0, 0, len(layers[2])]
    table = store.get(variant)
    for position in (p for layer in layers for p in layer):
        record = proven.get(position)
        assert record is not None and record.exact
        want = {m.cell: m.value for m in table.lookup(position).moves}
        assert {m.cell: Value(m.lower, m.remoteness or 0) for m in record.moves} == want
