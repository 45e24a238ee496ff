"""The cache of proven positions at its bound, with writers running. A trim that measured the pages in
use (records removed leave room inside pages, and free few of them) and counted the write-ahead log
(which a reader can hold long) removed a tenth of the records again and again: a store 4 % over its
bound of 100 MB kept 9 % of its records, its log grew to 1 GB, and the request whose write ran the trim
waited 4 s for it. Here: the log stays within a few times its limit, the records kept stay near the
bound, the disk (file and log) within 1.2 times the bound, and a `put` never runs a trim."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from service.engine.search import proven_upkeep
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_schema import journal_limit
from service.engine.search.proven_upkeep import HIGH_SHARE, LOW_SHARE, TRIM_EVERY, Bound
from tests.bench.proven_trim_bench import Peaks, prefill, records, writer
from tests.serving import harness

BOUND = 6_000_000  # bytes: 15,000 records of 8x8 positions
JOURNAL = journal_limit(BOUND)
SHARE = Bound(BOUND).file
# Writers in two processes, on a host that deschedules them, hold the write-ahead log a moment longer
# now and then: it grows by what they write meanwhile, a megabyte or more on a busy two-core host. Beside
# the log's limit at BOUND (187.5 kB) that is ten times it; at this bound's (750 kB), twice or more.
PROCESSES_BOUND = 24_000_000


def share_kept(path: Path, bound: int = BOUND) -> float:
    """The records' bytes, as the trim counts them, over the file's share of the bound."""
    db = sqlite3.connect(path)
    try:
        return proven_upkeep._size(db).bytes / Bound(bound).file
    finally:
        db.close()


def dbstat_used(path: Path) -> int | None:
    """The bytes in use in the file's pages, as SQLite counts them (None: a build without dbstat)."""
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT SUM(pgsize - unused) FROM dbstat WHERE aggregate = 1").fetchone()[0])
    except sqlite3.OperationalError:
        return None
    finally:
        db.close()


class Threads:
    """A starter that keeps the threads it starts, to wait for them."""

    def __init__(self) -> None:
        self.started: list[threading.Thread] = []

    def __call__(self, work: Callable[[], object]) -> None:
        thread = threading.Thread(target=work, daemon=True)
        self.started.append(thread)
        thread.start()

    def join(self) -> None:
        for thread in self.started:
            thread.join(timeout=30)
            assert not thread.is_alive()


@pytest.fixture
def threads() -> Iterator[Threads]:
    started = Threads()
    yield started
    started.join()


def check_kept(path: Path, before: int, peaks: Peaks, bound: int = BOUND, log_times: int = 5) -> None:
    journal = journal_limit(bound)
    assert peaks.wal <= log_times * journal, (peaks.wal, journal)  # a few times its limit
    assert peaks.disk <= 1.2 * bound, (peaks.disk, bound)
    kept = share_kept(path, bound)
    assert LOW_SHARE - 0.05 <= kept <= HIGH_SHARE + 0.05, kept  # near the bound: not most of it gone
    assert records(path) >= 0.75 * before


@pytest.mark.slow
def test_the_trim_keeps_the_bound_beside_writers_on_threads(tmp_path: Path, threads: Threads) -> None:
    store = ProvenCache(tmp_path, BOUND, start_trim=threads)
    before = prefill(store, 0.95, seed=1)  # pages in use: most of the bound
    times: list[float] = []
    writers = [threading.Thread(target=writer, args=(store, 600, 10 + n, times)) for n in range(3)]
    with Peaks(store.path, every=0.002) as peaks:
        for thread in writers:
            thread.start()
        for thread in writers:
            thread.join()
        threads.join()
        store.trim()  # the last writes' share, if a trim was under way when they asked for one
    # Trims ran, on threads of their own: one asked for while another runs is not started, and on a
    # busy host each runs longer (5 of 7 once on CI), so half of them at least.
    assert len(threads.started) >= 1800 // TRIM_EVERY // 2
    check_kept(store.path, before, peaks)


WRITER = """
import sys
from pathlib import Path
from service.engine.search.proven import ProvenCache
from tests.bench.proven_trim_bench import writer
store = ProvenCache(Path(sys.argv[1]), int(sys.argv[2]))
writer(store, int(sys.argv[3]), int(sys.argv[4]), [], float(sys.argv[5]))
"""  # and its end folds the log into the file (proven_file), a trim under way or not


@pytest.mark.slow
@pytest.mark.usefixtures("alone_on_the_host")  # its peak is the upkeep thread's pace: a busy host slows it
def test_the_trim_keeps_the_bound_beside_writers_in_two_processes(tmp_path: Path) -> None:
    before = prefill(ProvenCache(tmp_path, PROCESSES_BOUND), 0.95, seed=2)
    command = [sys.executable, "-c", WRITER, str(tmp_path), str(PROCESSES_BOUND), "900"]  # seed, pause
    with Peaks(tmp_path / "proven.sqlite", every=0.002) as peaks:
        processes = [subprocess.Popen([*command, str(n), "0.002"], cwd=harness.REPO) for n in range(2)]
        for process in processes:
            assert process.wait(timeout=60) == 0
        ProvenCache(tmp_path, PROCESSES_BOUND).trim()
    # Two processes descheduled on a loaded host held the log 4.7 MB once (6.3 times its limit; the
    # fault this guards against grew it to 1 GB).
    check_kept(tmp_path / "proven.sqlite", before, peaks, PROCESSES_BOUND, log_times=10)


@pytest.mark.slow
def test_a_busy_checkpoint_does_not_make_the_trim_remove_more(tmp_path: Path) -> None:
    """Another process reading holds the write-ahead log: no checkpoint can fold it back (SQLite says
    busy). The trim removes what is over the bound, and stops where the log would grow past twice its
    limit; it does not remove records because the log is long."""
    store = ProvenCache(tmp_path, BOUND, start_trim=lambda work: None)
    before = prefill(store, 1.1, seed=3)
    reader = sqlite3.connect(store.path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM proven").fetchone()  # a snapshot: the log cannot be reset
    try:
        removed = store.trim()
        assert 0 < removed < before and store.stats().wal_bytes > 0  # the log could not be folded
        assert store.stats().wal_bytes <= 3 * JOURNAL
        assert store.trim() == 0  # busy still: nothing more
        assert records(store.path) == before - removed
    finally:
        reader.rollback()
        reader.close()
    store.trim()  # the reader gone: the rest of what was over
    assert store.stats().wal_bytes == 0
    assert LOW_SHARE - 0.05 <= share_kept(store.path) <= HIGH_SHARE
    assert store.trim() == 0  # within the bound: nothing more, however often asked


@pytest.mark.slow
def test_a_put_never_runs_a_trim(tmp_path: Path) -> None:
    asked: list[Callable[[], object]] = []
    store = ProvenCache(tmp_path, BOUND, start_trim=asked.append)
    before = prefill(store, 1.1, seed=4)
    writer(store, TRIM_EVERY, 5, [])
    assert len(asked) == 1 and records(store.path) == before + TRIM_EVERY  # asked for, not run
    asked[0]()
    assert records(store.path) < before


@pytest.mark.slow
def test_a_put_returns_while_its_trim_runs_on_another_thread(
    tmp_path: Path, threads: Threads, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ProvenCache(tmp_path, BOUND, start_trim=threads)
    ran_on: list[int] = []
    monkeypatch.setattr(store, "trim", lambda: ran_on.append(threading.get_ident()) or time.sleep(2))
    times: list[float] = []
    writer(store, TRIM_EVERY + 5, 6, times)
    assert max(times) < 1.0  # no put waited for the trim's 2 s
    threads.join()
    assert len(ran_on) == 1 and ran_on[0] != threading.get_ident()


def test_the_sizes_the_trim_counts_are_the_pages_bytes_in_use(tmp_path: Path) -> None:
    """The trim's count of the records' bytes (their sizes as SQLite lays them out, from a sample)
    against SQLite's own (dbstat), on records as searches write them."""
    store = ProvenCache(tmp_path, BOUND, start_trim=lambda work: None)
    writer(store, 1500, 7, [])
    used = dbstat_used(store.path)
    if used is None:
        pytest.skip("this SQLite was built without dbstat")
    assert abs(share_kept(store.path) * SHARE / used - 1) < 0.03


GEVENT_THREAD = """
import json, os, _thread, time
from gevent import monkey
monkey.patch_all()
from gevent import get_hub
from service.serving.offload import on_a_thread
seen = {"runs": 0}
def work():  # a trim: it waits with gevent's sleep, as the store's upkeep does when the file is busy
    seen["trim"] = _thread.get_native_id()
    time.sleep(0.01)
    seen["runs"] += 1
def search():  # a request's search, on the hub's pool: its put asks for a trim
    seen["search"] = _thread.get_native_id()
    started = time.perf_counter()
    on_a_thread(work)
    return time.perf_counter() - started
descriptors = len(os.listdir("/proc/self/fd"))
seen["returned_after"] = get_hub().threadpool.spawn(search).get()
for _ in range(49):
    get_hub().threadpool.spawn(search).get()
    time.sleep(0.02)
deadline = time.time() + 10
while seen["runs"] < 50 and time.time() < deadline:
    time.sleep(0.05)
seen["loop"] = _thread.get_native_id()
seen["descriptors_left"] = len(os.listdir("/proc/self/fd")) - descriptors
print(json.dumps(seen))
"""


@pytest.mark.slow
def test_a_trim_asked_for_under_gevent_runs_on_a_native_thread_of_its_own() -> None:
    """Where gevent patched `threading`, a Thread started from a search's pool thread is a greenlet of a
    hub that never runs: the serving layer's starter makes a native thread, from any thread, and leaves
    nothing behind (gevent's sleep on a native thread makes it a hub: two descriptors each time)."""
    done = subprocess.run(
        [sys.executable, "-c", GEVENT_THREAD], capture_output=True, text=True, timeout=60, cwd=harness.REPO
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["runs"] == 50 and seen["returned_after"] < 0.1, seen
    assert len({seen["trim"], seen["search"], seen["loop"]}) == 3, seen
    assert seen["descriptors_left"] <= 4, seen  # not 100


def test_the_bounds_share_leaves_the_log_its_limit() -> None:
    assert journal_limit(256 * 2**20) == 4 * 2**20 and journal_limit(BOUND) == BOUND // 32
    assert Bound(BOUND).file + JOURNAL == BOUND
