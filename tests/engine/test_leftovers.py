"""Writes interrupted by a killed writer leave their temporary file behind (`.NAME.PID-HOST.RANDOM.tmp`,
see atomic_files): it is removed at the next write of the same file, and when the directory is swept
(a table build, `sanmoku tables build`, a proof run), once its writer is gone, never while it runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from service.engine import Position, TableStore, get_variant
from service.engine.atomic_files import host_tag, remove_stale, replace_atomically
from service.engine.books.arrays import masks
from service.engine.books.file import write_book
from service.engine.search.proof_jobs import JobStore
from service.engine.search.proof_number import ProofTable
from service.engine.tables.build_queue import BuildQueue
from service.engine.tables.partial import partial_path, record_of_partial

WRITER = """
import sys, time
from pathlib import Path
from service.engine.atomic_files import replace_atomically

def write(out):
    out.write(b"half a file")
    out.flush()
    print("writing", flush=True)
    time.sleep(60)

replace_atomically(Path(sys.argv[1]), write)
"""


def dead_pid() -> int:
    """The pid of a process that has ended (and was waited for)."""
    done = subprocess.run(["true"], check=True)
    assert done.returncode == 0
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def left_by_a_dead_writer(path: Path) -> Path:
    """A temporary of `path` as a killed writer of this host leaves it."""
    leftover = path.with_name(f".{path.name}.{dead_pid()}-{host_tag()}-0badc0de.tmp")
    leftover.parent.mkdir(parents=True, exist_ok=True)
    leftover.write_bytes(b"half a file")
    return leftover


def temporaries(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f".{path.name}.*.tmp"))


def test_a_killed_writers_temporary_is_kept_while_it_runs_and_removed_once_it_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    with subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, env=env
    ) as writer:
        assert writer.stdout is not None and writer.stdout.readline().strip() == b"writing"
        (leftover,) = temporaries(path)
        assert f".{writer.pid}-{host_tag()}-" in leftover.name
        assert remove_stale(tmp_path) == [] and leftover.exists()  # its writer runs
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
    assert not path.exists() and leftover.exists()  # nothing under the name; the temporary stays...
    replace_atomically(path, lambda out: out.write(b"{}"))
    assert path.read_bytes() == b"{}" and temporaries(path) == []  # ...until the next write of the file


def test_leftovers_of_each_writer_are_removed_at_its_next_write(tmp_path: Path) -> None:
    book = tmp_path / "books" / "4x4k3-gravity.book"
    left = left_by_a_dead_writer(book)
    plies = [(masks([0]), np.array([200], dtype=np.uint8))]
    write_book(book, get_variant("4x4k3-gravity"), plies, {"summary": "a test"}, 0.0)
    assert book.exists() and not left.exists()

    queue = BuildQueue(tmp_path)
    entry = queue.folder / "3x4k3.json"
    left = left_by_a_dead_writer(entry)
    queue.add(get_variant("3x4k3"))
    assert entry.exists() and not left.exists()

    store = TableStore(tmp_path / "proofs")
    saved = JobStore(tmp_path / "proofs").table_path("8x8k5")
    left = left_by_a_dead_writer(saved)
    store.directory.joinpath("prove-8x8k5.tmp").write_bytes(b"the temporary of an older version")
    JobStore(store.directory).save_table("8x8k5", ProofTable(10))
    assert saved.exists() and not left.exists() and not (store.directory / "prove-8x8k5.tmp").exists()


def test_a_proof_run_sweeps_its_directory_when_it_opens_it(tmp_path: Path) -> None:
    left = left_by_a_dead_writer(tmp_path / "prove-7x7k5.pntable")
    JobStore(tmp_path)
    assert not left.exists()


def test_a_tables_directory_is_swept_of_dead_writers_temporaries_and_finished_builds_partials(
    tmp_path: Path,
) -> None:
    store = TableStore(tmp_path)
    built, missing = get_variant("3x3k3"), get_variant("3x4k3")
    store.get(built)
    dead = [
        left_by_a_dead_writer(store.path(built).with_name("3x3k3.table.build.json")),
        left_by_a_dead_writer(tmp_path / "queue" / "3x4k3.json"),
        left_by_a_dead_writer(tmp_path / "books" / "connect4.book"),
    ]
    running = tmp_path / f".3x4k3.table.build.json.{os.getpid()}-{host_tag()}-0badc0de.tmp"
    running.write_bytes(b"being written")
    for variant in (built, missing):  # a partial file each, as a stopped build leaves it
        partial_path(store.path(variant)).write_bytes(b"tiers")
        record_of_partial(store.path(variant)).write_text("{}")
    time.sleep(0.01)
    removed = store.remove_leftovers()
    assert sorted(removed) == sorted(
        [*dead, partial_path(store.path(built)), record_of_partial(store.path(built))]
    )
    assert running.exists() and partial_path(store.path(missing)).exists()  # a build goes on with it
    assert store.get(built).lookup(Position.empty(built)).value.result.value == "draw"
