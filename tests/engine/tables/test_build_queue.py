"""Background builds: one queue per tables directory, one builder at a time, failures retried after a
growing delay (and the reason kept for the 503), and builds refused up front when the disk or the
memory cannot hold them; at a full disk, builders started ever less often."""

from __future__ import annotations

import errno
import itertools
import time
from pathlib import Path

import pytest

from service.engine import (
    BuildQueue,
    BuildRefusedError,
    TableStore,
    get_variant,
    plan,
    work_through,
)
from service.engine.tables import build_plan, build_queue
from service.engine.tables.build_queue import FIRST_RETRY_SECONDS, retry_delay
from service.engine.tables.table_file import HEADER_SIZE
from tests.engine.tables.boards import burnside_classes
from tests.mounts import python_on_small_disk

SMALL, OTHER = get_variant("3x4k3"), get_variant("2x5k3-misere")


@pytest.fixture
def store(tmp_path: Path) -> TableStore:
    return TableStore(tmp_path)


@pytest.fixture
def queue(store: TableStore) -> BuildQueue:
    return BuildQueue(store.directory)


def test_a_table_asked_for_many_times_is_queued_once(queue: BuildQueue) -> None:
    for _ in range(5):
        queue.add(SMALL)
    queue.add(OTHER)
    assert [e.variant for e in queue.entries()] == ["3x4k3", "2x5k3-misere"]
    assert (
        queue.waiting(OTHER).reason
        == "the 2x5k3-misere table is queued for building, behind 1 other table(s)"
    )


def test_the_builder_works_through_the_queue_and_empties_it(store: TableStore, queue: BuildQueue) -> None:
    queue.add(SMALL)
    queue.add(OTHER)
    done = work_through(queue, store)
    assert [line.split(":")[0] for line in done] == ["3x4k3", "2x5k3-misere"]
    assert queue.entries() == [] and store.verify(SMALL) is None and store.verify(OTHER) is None


def test_only_one_builder_works_at_a_time(store: TableStore, queue: BuildQueue) -> None:
    queue.add(SMALL)
    with queue.builder_lock():  # another builder (a lock on another open file, as another process's)
        assert queue.builder_running()
        assert work_through(queue, store) == []
    assert not queue.builder_running()
    assert queue.entries()[0].variant == "3x4k3"  # still waiting for the builder


def test_a_failed_build_waits_longer_each_time_and_says_why(
    store: TableStore, queue: BuildQueue, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(*_: object, **__: object) -> bool:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "build", full_disk)
    queue.add(SMALL)
    assert work_through(queue, store) == ["3x4k3: failed: [Errno 28] No space left on device"]
    (entry,) = queue.entries()
    assert entry.attempts == 1 and entry.error == "[Errno 28] No space left on device"
    assert entry.next_attempt == pytest.approx(time.time() + FIRST_RETRY_SECONDS, abs=2)
    assert work_through(queue, store) == []  # not due: a request does not restart the build
    waiting = queue.waiting(SMALL)
    assert (
        "failed ([Errno 28] No space left on device)" in waiting.reason
        and "the next attempt is in" in waiting.reason
    )
    assert FIRST_RETRY_SECONDS - 2 <= waiting.retry_after <= FIRST_RETRY_SECONDS + 1
    queue._write(build_queue.replace(entry, next_attempt=0.0))  # the delay has passed
    work_through(queue, store)
    assert queue.entries()[0].attempts == 2
    assert [retry_delay(n) for n in (1, 2, 3)] == [
        FIRST_RETRY_SECONDS,
        2 * FIRST_RETRY_SECONDS,
        4 * FIRST_RETRY_SECONDS,
    ]
    assert retry_delay(50) == build_queue.LAST_RETRY_SECONDS


def test_a_builder_killed_mid_build_leaves_a_delay_and_no_file(store: TableStore, queue: BuildQueue) -> None:
    queue.add(SMALL)
    queue.started(SMALL)  # ... and the builder died here: its lock is free again
    store.directory.joinpath(".3x4k3.table.x1y2z3.tmp").write_bytes(b"half")
    assert "stopped before it finished" in queue.waiting(SMALL).reason
    assert work_through(queue, store) == []  # not due yet
    assert not list(store.directory.glob(".*.tmp"))  # but the half-written file is gone


def test_a_build_is_refused_when_the_disk_cannot_hold_it(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = get_variant("4x5k4")
    needed = HEADER_SIZE + burnside_classes(4, 5)
    monkeypatch.setattr(build_plan.shutil, "disk_usage", lambda _: type("Usage", (), {"free": 200_000_000}))
    with pytest.raises(BuildRefusedError) as caught:
        store.build(variant)
    assert caught.value.message == (
        f"the 4x5k4 table cannot be built here: it needs {needed / 1e6:,.1f} MB more on disk, with "
        f"{build_plan.DISK_MARGIN / 1e6:,.1f} MB left free beside it, and {store.directory} has 200.0 MB free"
    )
    assert not list(store.directory.iterdir()) or all(
        p.name.endswith(".lock") for p in store.directory.iterdir()
    )


def test_a_build_is_refused_when_the_memory_cannot_hold_it(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build_plan, "available_memory", lambda: 100_000_000)
    with pytest.raises(
        BuildRefusedError, match=r"it needs about [\d.,]+ MB of memory and 100.0 MB is available"
    ):
        store.build(get_variant("4x5k4"))


def test_the_plan_of_a_table(store: TableStore) -> None:
    planned = plan(get_variant("4x5k4"), store.directory, threads=2)
    # Up to the rectangle's 4 symmetries the 20 cells fall into 6 orbits (the corners; the long sides'
    # cells next to them, their middles; the short sides; the inner cells off and on the middle column)
    assert planned.tiers[0] == 1 and planned.tiers[1] == 6
    assert planned.entries == burnside_classes(4, 5) == 185_366_761
    assert planned.bytes_on_disk == HEADER_SIZE + planned.entries
    # The two largest neighbouring tiers are in memory at once, and more besides.
    largest = max(a + b for a, b in zip(planned.tiers, planned.tiers[1:], strict=False))
    assert largest < planned.peak_memory
    lines = planned.lines()
    assert lines[0] == "4x5k4: 185,366,761 entries (one per class of 4 symmetries) in 21 tiers"
    assert "peak memory" in lines[2] and "core-hours" in lines[3]


FULL_DISK_BUILDS = """
import json, sys, time
from pathlib import Path
from service.engine import TableStore, TableSupply, get_variant
from service.engine.tables import builder, supply as supply_module
directory = Path(sys.argv[1])
supply_module.START_INTERVAL = 0.2
supply = TableSupply(TableStore(directory))
variant = get_variant("4x4k4")
supply.queue.add(variant)  # queued before the disk filled up
with open(directory / "filler", "wb", buffering=0) as filler:
    try:
        while True:
            filler.write(bytes(4096))
    except OSError:
        pass
starts, real = [], builder.start
def counted(folder):
    starts.append(time.monotonic())
    return real(folder)
builder.start = counted
ends = time.monotonic() + 60  # a bound; four starts take about 3 s on a quiet machine
while time.monotonic() < ends and len(starts) < 4:
    supply.request_builds([variant])
    time.sleep(0.05)
print(json.dumps(starts))
"""


@pytest.mark.slow
def test_at_a_full_disk_the_builder_is_started_ever_less_often(tmp_path: Path) -> None:
    """On a 2 MB tmpfs of its own, filled: each builder fails at once (it cannot even record its
    attempt in the queue), so the process that starts them waits twice as long each time
    (one was started every 1.4 s, for ever)."""
    starts = python_on_small_disk(tmp_path / "small", FULL_DISK_BUILDS)
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert len(gaps) == 3, gaps  # before: started every 1.4 s, so the gaps below failed
    # A start is timed a moment after the supply read its clock (CI once: a gap 1 ms short of 0.8 s). A
    # gap may be longer than its interval: a builder is seen to have failed only when it has exited.
    jitter = 0.05
    assert all(gap >= 0.2 * 2 ** (i + 1) - jitter for i, gap in enumerate(gaps)), gaps
