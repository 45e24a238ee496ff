"""A cache of proven positions written, then moved or mounted read-only, still shows its records. The
records written since the last checkpoint are in the write-ahead log, and SQLite reads a log only through
its -shm file: a read-only directory opened `immutable=1` (the file alone) lost all of them. Now a
process's end folds the log into the file, and a read-only store is read with its log where its -shm
file is there. The read-only mount is a bind mount in a mount namespace of the reader's own (`unshare
-m`): writes fail with EROFS for root too, as on a read-only volume."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from service.engine.search.proven import ProvenCache
from tests.mounts import READ_ONLY_MOUNT, privileged
from tests.serving import harness

WRITE = """
import os, sys
from pathlib import Path
from service.engine import Position, get_variant
from service.engine.search.proof_number import Prover
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_record import SEARCH, Origin
from service.engine.rules.known_move import KnownMove
store = ProvenCache(Path(sys.argv[1]))
empty = Position.empty(get_variant("5x5k4"))
origin = Origin.of(SEARCH, [Prover.ALPHA_BETA])
for first, second in [(f, s) for f in range(25) for s in range(25) if f != s][:60]:
    child = empty.play(first).play(second)
    store.put(child, [KnownMove(c, 0, 0, 21) for c in child.legal_moves()], origin)
print(store.stats().records, flush=True)
if sys.argv[2] == "killed":
    os._exit(0)  # no close, no end of the interpreter: what a SIGKILL leaves
"""

READ = """
import json, sys
from pathlib import Path
from service.engine.search.proven import ProvenCache
from service.engine.rules.known_move import KnownMove
store = ProvenCache(Path(sys.argv[1]))
records = store.stats().records
print(json.dumps({"records": records, "state": store.health.state, "problem": store.health.problem}))
"""


def made(directory: Path) -> None:
    """A store made and closed: its table in its file, as in a store that has served a while."""
    store = ProvenCache(directory)
    store.open()
    store.close()


def written(directory: Path, how: str) -> int:
    """How many records a process wrote into the store on `directory`, ended or `killed` then."""
    done = subprocess.run(
        [sys.executable, "-c", WRITE, str(directory), how],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=harness.REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return int(done.stdout.splitlines()[-1])


def read_only(directory: Path) -> dict[str, Any]:
    """What a store on `directory`, mounted read-only, says of itself."""
    prefix = ["unshare", "-m", "sh", "-c", READ_ONLY_MOUNT, str(directory)]
    privileged(prefix, ["true"])
    done = subprocess.run(
        [*prefix, sys.executable, "-c", READ, str(directory)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=harness.REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_records_left_in_the_log_are_read_on_a_read_only_mount(tmp_path: Path) -> None:
    """A writer killed before any checkpoint: its records are all in the log, beside its -shm file."""
    made(tmp_path)
    records = written(tmp_path, "killed")
    assert (tmp_path / "proven.sqlite-wal").stat().st_size > 0 and (tmp_path / "proven.sqlite-shm").exists()
    found = read_only(tmp_path)
    assert found["records"] == records > 0 and found["state"] == "read-only", found
    assert "Read-only file system" in found["problem"], found


def test_a_store_ended_with_its_process_holds_every_record_in_its_file(tmp_path: Path) -> None:
    """Another process's connection stays open (another worker), so the writer's is not SQLite's last
    (which folds the log itself); the writer's end folds it all the same, and the file alone, moved
    without its -wal and -shm files, holds every record."""
    made(tmp_path)
    other = sqlite3.connect(tmp_path / "proven.sqlite")
    try:
        other.execute("SELECT COUNT(*) FROM proven").fetchone()
        records = written(tmp_path, "ended")
        wal = tmp_path / "proven.sqlite-wal"
        assert not wal.exists() or wal.stat().st_size == 0
        moved = tmp_path / "moved"
        moved.mkdir()
        shutil.copy(tmp_path / "proven.sqlite", moved / "proven.sqlite")
    finally:
        other.close()
    found = read_only(moved)
    assert found["records"] == records > 0 and found["state"] == "read-only", found


def test_a_log_without_its_shm_file_is_said_to_be_unread(tmp_path: Path) -> None:
    """SQLite reads no log without its -shm file, and a read-only directory has no room to make one:
    the file alone is read, and the store's health says what it could not read."""
    made(tmp_path)
    assert written(tmp_path, "killed") > 0
    (tmp_path / "proven.sqlite-shm").unlink()
    found = read_only(tmp_path)
    assert found["records"] == 0 and found["state"] == "read-only", found
    assert "write-ahead log" in found["problem"] and "not seen" in found["problem"], found
