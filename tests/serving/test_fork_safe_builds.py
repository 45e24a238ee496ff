"""A background build started by a gevent worker right after a search on two threads: the request that
started it is answered, the builder does its work and ends, and the server stops cleanly.

It hung for ever: the builder was started with gevent's subprocess, which forks and runs Python in the
child before its exec; Python's clean-up after the fork dropped the search's thread-local helper, whose
finalizer (core/threads.c) joined a thread the child does not have and destroyed a condition the
parent's helper still waited on. The child never ran the build, the request waited on it, and the child
ignored SIGTERM and kept the listening port after the server stopped (12 of 12 times within 5 s of such
a search; 0 of 8 with one prover thread)."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.serving import harness

# An empty 7x7 board (49 empty cells, over the 16 from which a search wakes its second thread), then a
# 16-cell board whose table the worker queues and starts the host's builder for.
SEARCHED = {"board": "." * 49, "variant": "7x7k5", "budget_ms": 300}
QUEUED = {"board": "X" + "." * 15, "variant": "4x4k4", "budget_ms": 100}
ANSWER_WITHIN = 10.0  # seconds: a search of 100 ms on a busy machine; the hung request never came back
BUILT_WITHIN = 60.0  # the 4x4k4 table builds in about a second
GONE_WITHIN = 15.0


def analyze(server: harness.Server, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        server.url + "/analyze", json.dumps(payload).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=ANSWER_WITHIN) as response:
        return response.status, json.loads(response.read())


def processes() -> dict[int, tuple[int, int, str]]:
    """Every process on the host: pid -> (parent, session, state letter)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after the command's name, which may hold spaces
        found[int(entry.name)] = (int(fields[1]), int(fields[3]), fields[0])
    return found


def children(pid: int) -> list[tuple[int, str]]:
    return [(child, state) for child, (parent, _, state) in processes().items() if parent == pid]


def builders(worker: int) -> list[tuple[int, str]]:
    """The worker's children but its lanes' processes (service/serving/lanes.py), which it keeps."""
    return [(pid, state) for pid, state in children(worker) if not is_lane(pid)]


def is_lane(pid: int) -> bool:
    try:
        return b"service.serving.lane_child" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # ended meanwhile
        return False


def in_session(session: int) -> list[int]:
    return [pid for pid, (_, sid, _) in processes().items() if sid == session]


@pytest.mark.slow
def test_a_build_started_right_after_a_two_thread_search_is_answered_and_ends(tmp_path: Path) -> None:
    tables = tmp_path / "tables"
    settings = {
        "SANMOKU_TABLES_DIR": str(tables),
        "SANMOKU_TABLES_AT_START": "[]",
        "SANMOKU_PROVER_THREADS": "2",
    }
    server = harness.start_gunicorn(tmp_path, workers=1, settings=settings)
    session = server.process.pid  # started in a session of its own (harness.spawn)
    try:
        try:
            harness.wait_ready(server)
            [(worker, _)] = children(server.process.pid)
            status, searched = analyze(server, SEARCHED)
            assert status == 200 and searched["source"] == "search"
            started = time.monotonic()
            status, queued = analyze(server, QUEUED)  # its table is missing: the worker starts the builder
            assert status == 200 and queued["source"] == "search"
            assert time.monotonic() - started < ANSWER_WITHIN
            # The builder builds the table and ends, reaped by the worker (no zombie left either).
            deadline = time.monotonic() + BUILT_WITHIN
            while time.monotonic() < deadline:
                if (tables / "4x4k4.table").exists() and not builders(worker):
                    break
                time.sleep(0.1)
            assert (tables / "4x4k4.table").exists(), (tables / ".build.log").read_text()
            assert builders(worker) == []
            assert "4x4k4: built" in (tables / ".build.log").read_text()
        finally:
            server.kill(signal.SIGTERM)
        assert server.process.returncode == 0, server.stderr.read_text()[-2000:]  # stopped, not killed
        deadline = time.monotonic() + GONE_WITHIN
        while in_session(session) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert in_session(session) == []  # the stuck copy outlived the master, holding the port
    finally:
        for pid in in_session(session):  # nothing left behind on the host, whatever failed
            os.kill(pid, signal.SIGKILL)
