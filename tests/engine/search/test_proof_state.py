"""What `sanmoku prove` keeps on disk to go on later is checked when read: a saved proof-number table
that is damaged, cut short, of another variant or of an older format is not loaded (its proof numbers
and zones would become stored proofs), and a jobs' file that is damaged or not ours stops the run."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from service.engine import Cancel, EngineError, Position, ProofRun, get_variant
from service.engine.search.proof_jobs import HEADER, JOBS_FILE, JobStore
from service.engine.search.proof_number import ProofTable

BITS = 12
VARIANT = get_variant("8x8k5")  # a run stopped long before its end leaves a table full of open entries


def saved(directory: Path) -> tuple[Path, bytes]:
    """The path of a table saved by a stopped run, and its slots as they were in memory."""
    run = ProofRun(Position.empty(VARIANT), directory, BITS)
    assert run.run(0.3, 0.1, Cancel(), lambda progress: None) is None
    path = run.store.table_path(VARIANT.long_name)
    return path, slots(run.table)


def slots(table: ProofTable) -> bytes:
    return bytes(table.slots())


def load(directory: Path, variant: str = VARIANT.long_name) -> tuple[bool, ProofTable]:
    table = ProofTable(BITS)
    return JobStore(directory).load_table(variant, table), table


def test_a_saved_table_loads_whole(tmp_path: Path) -> None:
    _, kept = saved(tmp_path)
    loaded, table = load(tmp_path)
    assert loaded and slots(table) == kept and any(kept)


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x10
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda p: flip(p, p.stat().st_size - 100), "checksum"),  # one bit of a slot
        (lambda p: flip(p, HEADER.size - 60), "checksum"),  # one bit of the game's fingerprint
        (lambda p: p.write_bytes(p.read_bytes()[:-8]), "bytes, not"),  # cut short
        # the format before, whose fingerprint was of rows and columns: its slots would be cleared unused
        (lambda p: p.write_bytes(b"SMKPNT03" + p.read_bytes()[8:]), "older one"),
    ],
    ids=["a slot", "the fingerprint", "truncated", "format 03"],
)
def test_a_damaged_saved_table_is_not_loaded(
    tmp_path: Path, damage: object, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    path, _ = saved(tmp_path)
    damage(path)  # type: ignore[operator]
    with caplog.at_level(logging.WARNING):
        loaded, table = load(tmp_path)
    assert not loaded and not any(slots(table))  # nothing of it is left in the table
    assert any(why in record.getMessage() for record in caplog.records), [
        r.getMessage() for r in caplog.records
    ]
    assert not ProofRun(Position.empty(VARIANT), tmp_path, BITS).resumed


def test_another_variants_saved_table_is_not_loaded(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path, _ = saved(tmp_path)
    other = JobStore(tmp_path).table_path("7x7k5")
    path.rename(other)  # the same size of table: only the header tells
    with caplog.at_level(logging.WARNING):
        loaded, table = load(tmp_path, "7x7k5")
    assert not loaded and not any(slots(table))
    assert any("'8x8k5', not '7x7k5'" in record.getMessage() for record in caplog.records)


def test_a_damaged_jobs_file_stops_the_run(tmp_path: Path) -> None:
    saved(tmp_path)
    path = tmp_path / JOBS_FILE
    for extra in tmp_path.glob(JOBS_FILE + "-*"):  # the write-ahead log, checkpointed at close
        extra.unlink()
    data = bytearray(path.read_bytes())
    data[100:4096] = bytes(len(data[100:4096]))  # the header's fields and the schema's page
    path.write_bytes(bytes(data))
    with pytest.raises(EngineError) as raised:
        JobStore(tmp_path)
    assert raised.value.code == "proof_state_damaged"


def test_a_foreign_sqlite_file_is_not_taken_for_the_jobs(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / JOBS_FILE) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    db.close()
    with pytest.raises(EngineError) as raised:
        JobStore(tmp_path)
    assert raised.value.code == "proof_state_foreign"
