"""Background builds seen from the API: a batch naming many large variants (answered by the search
meanwhile) starts one builder, which works through them; a build that fails is tried again after a
delay, and the 503 of what needs the table says why."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from service.app import create_app
from tests.http.build_queue import queue_left
from tests.http.contract import check_response

# Eight variants of 13 to 16 cells, whose tables the service builds in the background on request.
LARGE = ["2x7k3", "7x2k4", "3x5k4", "5x3k3", "2x8k3", "4x4k3-torus", "3x5k3-misere", "2x7k4-torus"]


def builders(directory: Path) -> int:
    """Processes working through the queue of `directory` (what `ps` would show)."""
    count = 0
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = cmdline.read_bytes().split(b"\0")
        except OSError:  # gone meanwhile
            continue
        builder = b"service.engine.tables" in words or b"--queue" in words  # started, or from the shell
        count += builder and str(directory).encode() in words
    return count


@pytest.mark.slow
def test_a_batch_of_eight_large_variants_starts_one_builder(tmp_path: Path) -> None:
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": []}).test_client()
    batch = {"positions": [{"board": "." * _cells(name), "variant": name} for name in LARGE]}
    first = check_response(client.post("/analyze/batch", json=batch), "/analyze/batch", "post")
    assert {r["source"] for r in first["results"]} == {"search"}  # the search answers meanwhile
    assert sorted(p.stem for p in (tmp_path / "queue").glob("*.json")) == sorted(LARGE)
    most = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        most = max(most, builders(tmp_path))
        again = client.post("/analyze/batch", json=batch).json
        assert again is not None
        if {r["source"] for r in again["results"]} == {"table"}:
            break
        time.sleep(0.1)
    assert most == 1
    assert sorted(p.stem for p in tmp_path.glob("*.table")) == sorted(LARGE)
    assert queue_left(tmp_path) == []


def test_a_failed_build_waits_and_the_503_says_why(tmp_path: Path) -> None:
    (tmp_path / "2x7k3.table").mkdir()  # a directory where the table file should go: every build fails
    client = create_app({"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": []}).test_client()
    request = "/solve?variant=2x7k3&format=ndjson"
    deadline = time.monotonic() + 60
    body: dict[str, object] = {}
    while time.monotonic() < deadline:
        response = client.get(request)
        body = check_response(response, "/solve", "get")
        if "failed" in str(body["detail"]):
            break
        time.sleep(0.2)
    detail = str(body["detail"])
    assert detail.startswith("the last build of the 2x7k3 table failed (") and "Is a directory" in detail
    assert "the next attempt is in" in detail and 5 <= int(str(body["retry_after"])) <= 10
    # The builder that failed may still be exiting (a loaded machine); then none may start again.
    gone_by = time.monotonic() + 30
    while builders(tmp_path) and time.monotonic() < gone_by:
        time.sleep(0.1)
    # Asking again and again starts no other builder while the delay runs.
    for _ in range(20):
        client.get(request)
        assert builders(tmp_path) == 0
    entry = next((tmp_path / "queue").iterdir()).read_text()
    assert '"attempts": 1' in entry


def _cells(name: str) -> int:
    rows, rest = name.split("x")
    return int(rows) * int(rest.split("k")[0])
