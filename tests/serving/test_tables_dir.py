"""`sanmoku serve` (gunicorn with service/gunicorn_conf.py) on a tables directory it cannot write, with
files it cannot read, or with a directory where a table file should be: it starts,
serves every table that is readable and valid, solves the small missing ones in memory, answers 503
(never 500) for the others, and says what cannot be built and why in /readyz and in one log line.

What each case proves, honestly:
- read-only: the directory is a read-only bind mount in a mount namespace of the server's own
  (`unshare -m`): writes fail with EROFS for root too, as on a read-only volume;
- another account's files: the tests run as root, so the server runs as root without the capabilities
  that let root ignore permission bits (`setpriv --bounding-set -dac_override,-dac_read_search`). Files
  owned by `nobody` with mode 0600, in a directory owned by `nobody` (mode 0755), are then unreadable
  and the directory unwritable exactly as they are for an account other than their owner: the kernel
  answers EACCES. It does not prove anything that depends on the server's uid itself (it stays 0);
- a directory in a table file's place: a plain directory, no privileges involved.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.engine import TableStore, get_variant
from service.engine.tables.store import file_name
from tests.mounts import READ_ONLY_MOUNT, privileged
from tests.preset_tables import copy_tables
from tests.serving import harness
from tests.serving.harness import Server

MISSING = ("normal", "4x4k4")  # a small table (solved in memory) and a large one (503)
NO_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[list[Server]]:
    """Started servers, killed at the end."""
    started: list[Server] = []
    yield started
    for server in started:
        server.kill()


def start(started: list[Server], workdir: Path, tables: Path, prefix: list[str]) -> Server:
    env = {"SANMOKU_TABLES_DIR": str(tables)}
    server = harness.start_gunicorn(workdir, 1, command=[*prefix, *harness.gunicorn_command()], settings=env)
    started.append(server)
    harness.wait_ready(server, "/healthz")  # /readyz may answer 200 (degraded) or not: read it below
    return server


def get(server: Server, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
    """The status and, for JSON, the body (a table file's bytes are left unread)."""
    request = urllib.request.Request(server.url + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            json_body = response.headers.get_content_type().endswith("json")
            return response.status, json.loads(response.read()) if json_body else {}
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def table_file(server: Server, name: str) -> tuple[int, dict[str, object]]:
    """GET /variants/{name}/table, its first bytes: it needs the table itself (an analysis of a board
    with no table may come from elsewhere)."""
    return get(server, f"/variants/{name}/table", {"Range": "bytes=0-13"})


def check_serving(
    server: Server, tables_dir: Path, unavailable: dict[str, str], answer: str = "", store: str = "ok"
) -> dict[str, object]:
    """Every preset answers 200 but those in `unavailable`, whose table file answers 503 with a detail
    that says `answer` (by default the text given for it), while /readyz (200) says the text given for
    it and the cache of proven positions' `store` state; a board with no table is searched (200). No
    answer names the tables directory (the setting, not the path). Returns the /readyz body."""
    status, ready = get(server, "/readyz")
    assert status == 200, ready
    tables = ready["tables"]
    assert isinstance(tables, dict)
    bodies = [ready]
    for name, entry in tables.items():
        if name in unavailable:
            status, body = table_file(server, name)
            assert status == 503 and (answer or unavailable[name]) in str(body["detail"]), body
            assert not entry["ready"] and unavailable[name] in entry["cannot_build"], entry
            bodies.append(body)
        else:
            status, body = get(server, f"/analyze?board={'.' * get_variant(name).cells}&variant={name}")
            assert status == 200 and entry["ready"], (name, body, entry)
    status, body = get(server, "/analyze?board=X...O....................&variant=5x5k4-misere&budget_ms=300")
    assert status == 200 and body["source"] in ("search", "cache"), body
    assert ready["cache"]["state"] == store, ready  # type: ignore[index]
    assert ready["status"] == ("degraded" if unavailable or store != "ok" else "ready")
    assert all(str(tables_dir) not in json.dumps(b) for b in bodies), bodies
    log = server.stderr.read_text()
    said = unavailable or "cannot_build" in ready  # the master's line, once (the app is preloaded)
    assert log.count("tables that cannot be built here") == (1 if said else 0)
    assert "Traceback" not in log and '"status":500' not in server.stdout.read_text()
    return ready


@pytest.mark.slow
@pytest.mark.parametrize("leave_out", [(), MISSING], ids=["every table there", "two missing"])
def test_a_read_only_tables_directory(
    store: TableStore, tmp_path: Path, serve: list[Server], leave_out: tuple[str, ...]
) -> None:
    tables = copy_tables(store, tmp_path / "tables", leave_out)
    prefix = ["unshare", "-m", "sh", "-c", READ_ONLY_MOUNT, str(tables)]
    privileged(prefix, ["true"])
    server = start(serve, tmp_path, tables, prefix)
    ready = check_serving(
        server, tables, {"4x4k4": "Read-only file system"} if leave_out else {}, store="unusable"
    )
    assert "Read-only file system" in str(ready["cannot_build"])
    assert "Read-only file system" in ready["cache"]["problem"]  # type: ignore[index]
    assert server.stderr.read_text().count("cache of proven positions") == 1  # the master's line
    if leave_out:  # the small one: solved in memory, and said so
        assert "solved in memory" in ready["tables"]["normal"]["cannot_build"]  # type: ignore[index]
    assert all(path.suffix == ".table" for path in tables.iterdir())  # no queue, no lock file was made


def others_files(store: TableStore, tables: Path) -> Path:
    """The presets, those of MISSING owned by `nobody` with mode 0600 (the others are readable)."""
    copy_tables(store, tables)
    for name in MISSING:
        path = tables / file_name(get_variant(name))
        path.chmod(0o600)
        shutil.chown(path, "nobody")
    privileged(NO_OVERRIDE, ["true"])
    unread = subprocess.run([*NO_OVERRIDE, "cat", str(path)], capture_output=True, check=False)
    assert unread.returncode != 0, "without the capabilities root could still read the file: nothing tested"
    return tables


@pytest.mark.slow
def test_files_another_account_owns_with_mode_0600_in_a_directory_it_owns(
    store: TableStore, tmp_path: Path, serve: list[Server]
) -> None:
    tables = others_files(store, tmp_path / "tables")
    shutil.chown(tables, "nobody")  # mode 0755: this server may read it, not write it
    server = start(serve, tmp_path, tables, NO_OVERRIDE)
    ready = check_serving(server, tables, {"4x4k4": "unreadable: Permission denied"}, store="unusable")
    assert "Permission denied" in str(ready["cannot_build"])
    assert "unreadable: Permission denied" in ready["tables"]["normal"]["cannot_build"]  # type: ignore[index]


@pytest.mark.slow
def test_files_another_account_owns_with_mode_0600_in_a_directory_the_server_may_write(
    store: TableStore, tmp_path: Path, serve: list[Server]
) -> None:
    """The unreadable files are built again and replaced (renamed over), as any bad file is."""
    tables = others_files(store, tmp_path / "tables")
    server = start(serve, tmp_path, tables, NO_OVERRIDE)
    harness.wait_ready(server, timeout=30)  # the builder replaces the 4x4k4 table in about a second
    check_serving(server, tables, {})
    for name in MISSING:
        assert (tables / file_name(get_variant(name))).stat().st_uid == 0  # this server's own now


@pytest.mark.slow
def test_a_directory_where_a_table_file_should_be(
    store: TableStore, tmp_path: Path, serve: list[Server]
) -> None:
    tables = copy_tables(store, tmp_path / "tables", MISSING)
    for name in MISSING:
        (tables / file_name(get_variant(name))).mkdir()
    server = start(serve, tmp_path, tables, [])
    failed = "the last build of the 4x4k4 table failed ([Errno 21] Is a directory"
    deadline = time.monotonic() + 20  # the builder's attempt fails at once (then it waits 10 s, 20 s...)
    while failed not in str(table_file(server, "4x4k4")[1].get("detail")):
        assert time.monotonic() < deadline, "the build never failed"
        time.sleep(0.2)
    ready = check_serving(server, tables, {"4x4k4": "is not a regular file"}, answer=failed)
    assert "cannot_build" not in ready  # the directory itself can be written
    assert "solved in memory" in ready["tables"]["normal"]["cannot_build"]  # type: ignore[index]


@pytest.mark.slow
def test_an_empty_tables_directory(tmp_path: Path, serve: list[Server]) -> None:
    """The first answer comes before any file is written (the small table from memory, its file just
    after); the large table wanted at start is queued by the worker, unasked (no /readyz, no request
    for it), and built by the host's builder."""
    tables = tmp_path / "tables"
    settings = {"SANMOKU_TABLES_DIR": str(tables), "SANMOKU_TABLES_AT_START": "normal,4x4k3"}
    server = harness.start_gunicorn(tmp_path, 1, settings=settings)
    serve.append(server)
    harness.wait_ready(server, "/healthz")
    status, body = get(server, "/analyze?board=.........")
    assert status == 200 and body["source"] == "table", body
    store = TableStore(tables)
    deadline = time.monotonic() + 30
    while not all(store.looks_built(get_variant(name)) for name in ("normal", "4x4k3")):
        assert time.monotonic() < deadline, sorted(p.name for p in tables.iterdir())
        time.sleep(0.1)
    assert store.verify(get_variant("normal")) is None and store.verify(get_variant("4x4k3")) is None
    assert get(server, "/readyz")[0] == 200
    assert "Traceback" not in server.stderr.read_text()
