"""The table supply's back-off between builders that fail on their own (tables/supply.py): the interval
doubles from START_INTERVAL and stays at LONGEST_START_INTERVAL (the queue's longest retry delay), as
the Connect Four book's build does; a builder that ends well resets it, and one whose exit code was
taken by another waiter leaves it as it was."""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.engine import TableStore, TableSupply, get_variant
from service.engine.tables import builder
from service.engine.tables import supply as supply_module
from service.engine.tables.spawn import LOST, Child

HOURS = 3


class Ended(Child):
    """A builder that has ended with `code` (no process)."""

    def __init__(self, code: int) -> None:
        super().__init__(pid=-1)
        self.returncode = code

    def poll(self) -> int | None:
        return self.returncode


def starts_over(hours: int, codes: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """When a process asking every second for a queued table starts builders that end with `codes` in
    turn (the last one for ever), over `hours` of a made-up clock."""
    clock = SimpleNamespace(now=0.0)
    monkeypatch.setattr(supply_module, "time", SimpleNamespace(monotonic=lambda: clock.now))
    ends = itertools.chain(codes, itertools.repeat(codes[-1]))
    starts: list[float] = []

    def start(directory: Path) -> Child:
        starts.append(clock.now)
        return Ended(next(ends))

    monkeypatch.setattr(builder, "start", start)
    supply = TableSupply(TableStore(tmp_path))
    variant = get_variant("4x4k4")
    for _ in range(hours * 3600):
        supply.request_builds([variant])  # its queue entry stays due: these builders never record a try
        clock.now += 1.0
    return starts


@pytest.mark.slow
def test_failing_builders_are_started_ever_less_often_down_to_one_in_ten_minutes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = starts_over(HOURS, [1], tmp_path, monkeypatch)
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert gaps[:8] == [4, 8, 16, 32, 64, 128, 256, 512]
    assert set(gaps[8:]) == {supply_module.LONGEST_START_INTERVAL} == {600}
    assert len(starts) == 9 + (HOURS * 3600 - sum(gaps[:8]) - 1) // 600  # 22 in 3 hours; 5,400 before


def test_a_builder_that_ends_well_resets_the_interval_and_a_lost_exit_code_leaves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    starts = starts_over(1, [1, 1, 1, LOST, 0, 0], tmp_path, monkeypatch)
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert gaps[:6] == [4, 8, 16, 16, 2, 2]
