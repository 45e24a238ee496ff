"""A build that is stopped goes on where it stopped: after Ctrl-C (KeyboardInterrupt), SIGTERM or SIGKILL,
the same build starts from the last tier it wrote and flushed, and the file is the one an uninterrupted
build writes, byte for byte. A partial file of something else (another solver) is started afresh."""

from __future__ import annotations

import filecmp
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.cli.table_commands import stop_on_sigterm
from service.engine import Position, TableStore, get_variant
from service.engine.tables import partial as partial_module
from service.engine.tables.building import build_file
from service.engine.tables.partial import partial_path, record_of_partial
from tests.engine.tables.stopped_builds import StopAfter

VARIANT = get_variant("4x4k4-misere")


@pytest.fixture
def reference(tmp_path: Path) -> Path:
    whole = tmp_path / "whole" / f"{VARIANT.long_name}.table"
    build_file(whole, VARIANT)
    return whole


def test_a_build_stopped_by_ctrl_c_goes_on_from_its_last_tier(
    tmp_path: Path, reference: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(partial_module, "SYNC_BYTES", 1)  # every tier flushed and counted
    path = tmp_path / "stopped" / f"{VARIANT.long_name}.table"
    with pytest.raises(KeyboardInterrupt):
        build_file(path, VARIANT, progress=StopAfter(5))
    assert not path.exists() and partial_path(path).exists()
    done = json.loads(record_of_partial(path).read_text())["done"]
    assert sorted(map(int, done)) == [12, 13, 14, 15, 16]
    again = StopAfter(99)
    build_file(path, VARIANT, progress=again)
    assert again.begun_with == [12, 13, 14, 15, 16] and again.done == 12  # only the tiers left
    assert filecmp.cmp(path, reference, shallow=False)
    assert not partial_path(path).exists() and not record_of_partial(path).exists()


@pytest.mark.slow
def test_a_partial_file_of_another_solver_is_started_afresh(
    tmp_path: Path, reference: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(partial_module, "SYNC_BYTES", 1)
    path = tmp_path / "stale" / f"{VARIANT.long_name}.table"
    with pytest.raises(KeyboardInterrupt):
        build_file(path, VARIANT, progress=StopAfter(3))
    record = json.loads(record_of_partial(path).read_text())
    record["fields"]["solver"] = -1
    record_of_partial(path).write_text(json.dumps(record))
    again = StopAfter(99)
    build_file(path, VARIANT, progress=again)
    assert again.begun_with == [] and again.done == VARIANT.cells + 1
    assert filecmp.cmp(path, reference, shallow=False)


class TerminateAfter(StopAfter):
    """Progress that sends this process SIGTERM once `tiers` tiers are written."""

    def tier_done(self, tier: int, seconds: float) -> None:
        self.done += 1
        if self.done == self.tiers:
            os.kill(os.getpid(), signal.SIGTERM)


def test_sigterm_stops_a_build_as_ctrl_c_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partial_module, "SYNC_BYTES", 1)
    previous = signal.getsignal(signal.SIGTERM)
    path = tmp_path / f"{VARIANT.long_name}.table"
    try:
        stop_on_sigterm()
        with pytest.raises(KeyboardInterrupt):
            build_file(path, VARIANT, progress=TerminateAfter(4))
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert len(json.loads(record_of_partial(path).read_text())["done"]) == 4


@pytest.mark.slow
def test_a_killed_command_goes_on_when_run_again(tmp_path: Path) -> None:
    """`sanmoku tables build 3x6k4` killed (SIGKILL) mid-build, then run again: it goes on from the
    tiers it had flushed, and the table checks out with its known value (a draw in 18)."""
    variant = get_variant("3x6k4")
    command = [sys.executable, "-m", "service.cli.main", "tables", "build", "3x6k4", "--dir", str(tmp_path)]
    command += ["--threads", "1"]
    record = record_of_partial(TableStore(tmp_path).path(variant))
    builder = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not (record.exists() and json.loads(record.read_text())["done"]):  # some tiers are flushed
        assert builder.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    builder.send_signal(signal.SIGKILL)
    assert builder.wait(timeout=60) == -signal.SIGKILL
    done_before = len(json.loads(record.read_text())["done"])
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    assert f"going on from a stopped build ({done_before} tiers done)" in finished.stdout
    table = TableStore(tmp_path).get(variant)
    assert tuple(table.value(Position.empty(variant))) == (0, 18)
    assert TableStore(tmp_path).verify(variant) is None
