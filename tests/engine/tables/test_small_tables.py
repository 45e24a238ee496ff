"""A small table whose file is missing answers from memory at once, and its file is written after the
answer: the first answer on an empty tables directory waited for the disk."""

from __future__ import annotations

import errno
import logging
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from service.engine import TableStore, TableSupply, get_variant
from service.engine.tables import building

SMALL = ["3x3k3", "3x4k3-misere", "3x3k3-torus"]


class Later:
    """Collects the writes handed to `write_later`, to run them when the test says."""

    def __init__(self) -> None:
        self.work: list[Callable[[], None]] = []

    def __call__(self, work: Callable[[], None]) -> None:
        self.work.append(work)

    def run(self) -> None:
        while self.work:
            self.work.pop(0)()


@pytest.mark.parametrize("name", SMALL)
def test_the_answer_comes_first_and_the_file_after(name: str, tmp_path: Path) -> None:
    variant = get_variant(name)
    later = Later()
    supply = TableSupply(TableStore(tmp_path / "served"), write_later=later)
    first = supply.table(variant)
    path = supply.store.path(variant)
    assert first.identity is None and not path.exists()  # from memory: nothing written yet
    assert supply.table(variant) is first and len(later.work) == 1  # one write, however often asked
    later.run()
    on_disk = supply.table(variant)
    assert on_disk.identity is not None and supply.store.verify(variant) is None
    built = TableStore(tmp_path / "built").get(variant)  # the store's own build, for comparison
    assert np.array_equal(on_disk.values, built.values) and np.array_equal(first.values, built.values)


def test_a_download_writes_the_file_at_once(tmp_path: Path) -> None:
    variant = get_variant("3x3k3")
    later = Later()
    supply = TableSupply(TableStore(tmp_path), write_later=later)
    supply.table(variant)
    table = supply.table_on_disk(variant)
    assert table.identity is not None and supply.store.path(variant).is_file()
    later.run()  # the write handed over before finds the file there and leaves it
    assert supply.table(variant).identity == table.identity


def test_a_write_that_fails_is_logged_once_and_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    variant = get_variant("3x3k3")
    later = Later()
    supply = TableSupply(TableStore(tmp_path), write_later=later)

    def full_disk(*_: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("service.engine.tables.store.write_table", full_disk)
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            assert supply.table(variant).identity is None  # the copy in memory answers meanwhile
            later.run()
    assert [r.getMessage() for r in caplog.records].count(
        "the normal table answers from memory, its file not written: [Errno 28] No space left on device"
    ) == 1
    monkeypatch.setattr("service.engine.tables.store.write_table", building.write_table)
    supply.table(variant)
    later.run()
    assert supply.table(variant).identity is not None
