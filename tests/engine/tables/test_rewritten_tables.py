"""A table file written into while the service answers from it: in place (the same inode, which every
process maps, so the new bytes show at once), by a program that changes some bytes or by `cp` of
another variant's file over it. The audit found 356 of 1,000 lookups wrong after such a rewrite; here
not one answer may differ from a table built independently, whatever the answer's source, and the
store checks the file again before it answers from it."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.engine import Position, Table, TableStore, Variant, get_variant
from service.engine.errors import TableChangedError
from service.engine.file_stamps import QUIET_NS
from service.engine.tables import store as store_module
from service.engine.tables.checked import record_path
from service.engine.tables.table_file import HEADER_SIZE
from tests.bench.table_build import random_positions
from tests.http.contract import check_response

SOLVED_ON_THE_SPOT = get_variant("3x4k3")  # 12 cells: a table that is not served is solved again
SEARCHED = get_variant("4x4k3")  # 16 cells: a table that is not served leaves the answer to the search
POSITIONS = 1000


def expected(reference: TableStore, variant: Variant, positions: list[Position]) -> list[dict[str, Any]]:
    """What every answer must say, from a table built in a directory of its own."""
    table = reference.get(variant)
    out = []
    for position in positions:
        found = table.lookup(position)
        moves = {m.cell: (m.value.result, m.value.remoteness) for m in found.moves}
        out.append({"value": (found.value.result, found.value.remoteness), "moves": moves})
    return out


def wrong(answer: dict[str, Any], truth: dict[str, Any]) -> bool:
    """Whether an answer claims a result or a remoteness that is not the position's or a move's (a
    search may leave either unproven: it claims nothing then)."""
    claims = [(answer, truth["value"])] + [(move, truth["moves"][move["cell"]]) for move in answer["moves"]]
    for claim, (result, remoteness) in claims:
        if claim["result"] != "unknown" and claim["result"] != result:
            return True
        if claim.get("remoteness") is not None and claim["remoteness"] != remoteness:
            return True
    return False


def ask(client: FlaskClient, variant: Variant, positions: list[Position]) -> list[dict[str, Any]]:
    answers = []
    for position in positions:
        response = client.get(f"/analyze?board={position.cells}&variant={variant.name}&budget_ms=50")
        assert response.status_code in (200, 503), response.data
        unavailable = {"result": "unknown", "moves": [], "source": "503"}  # a file changed in mid-answer
        answers.append(response.get_json() if response.status_code == 200 else unavailable)
    return answers


def count_wrong(answers: list[dict[str, Any]], truths: list[dict[str, Any]]) -> int:
    return sum(wrong(a, t) for a, t in zip(answers, truths[: len(answers)], strict=True))


def served(directory: Path, variant: Variant, store: TableStore) -> Path:
    """`directory` with a copy of the session's table of `variant`, checked once it was quiet (as a
    build leaves it: with the record of its check)."""
    directory.mkdir()
    path = directory / store.path(variant).name
    shutil.copy2(store.path(variant), path)
    time.sleep(QUIET_NS / 1e9)
    assert TableStore(directory).verify(variant) is None and record_path(path).exists()
    return path


def app_client(directory: Path) -> FlaskClient:
    config = {"TESTING": True, "TABLES_DIR": str(directory), "TABLES_AT_START": [], "ACCESS_LOG": False}
    return create_app({**config, "BACKGROUND_BUILDS": False}).test_client()


def mirrored(data: bytes) -> bytes:
    """Each value turned into the next one the table holds (a loss in 3 into a loss in 5, a draw into a
    win...): a table that answers from them answers wrong, not with an error."""
    held = sorted(set(data) - {0})
    following = {value: held[(i + 1) % len(held)] for i, value in enumerate(held)}
    return bytes(following.get(b, 0) for b in data)


def rewrite_bytes(path: Path) -> None:
    """Change every value byte from the 100th on (most lookups read some of them), in place."""
    path.chmod(0o644)  # tables are written read-only
    body = path.read_bytes()[HEADER_SIZE + 100 :]
    with path.open("r+b") as file:
        file.seek(HEADER_SIZE + 100)
        file.write(mirrored(body))


@pytest.mark.slow
@pytest.mark.parametrize("variant", [SOLVED_ON_THE_SPOT, SEARCHED], ids=lambda v: v.name)
def test_no_wrong_answer_after_a_table_is_rewritten_in_place(
    variant: Variant, store: TableStore, tmp_path: Path
) -> None:
    path = served(tmp_path / "served", variant, store)
    positions = random_positions(variant, 2 * POSITIONS)
    truths = expected(TableStore(tmp_path / "reference"), variant, positions)
    client = app_client(path.parent)
    before = ask(client, variant, positions[:POSITIONS])  # answered from the table, and cached
    assert all(a["source"] == "table" for a in before) and count_wrong(before, truths) == 0
    inode = path.stat().st_ino
    rewrite_bytes(path)
    assert path.stat().st_ino == inode  # in place: the mapping shows the new bytes
    after = ask(client, variant, positions)  # those cached before, and as many never asked
    assert count_wrong(after, truths) == 0


@pytest.mark.slow
def test_no_wrong_answer_after_another_variants_file_is_copied_over_a_table(
    store: TableStore, tmp_path: Path
) -> None:
    """`cp` truncates the file and writes the other one into the same inode: a table of the misère
    game, of the very same size, whose values are another game's."""
    variant, other = SOLVED_ON_THE_SPOT, get_variant("3x4k3-misere")
    path = served(tmp_path / "served", variant, store)
    positions = random_positions(variant, 2 * POSITIONS, seed=2)
    truths = expected(TableStore(tmp_path / "reference"), variant, positions)
    client = app_client(path.parent)
    assert count_wrong(ask(client, variant, positions[:POSITIONS]), truths) == 0
    inode = path.stat().st_ino
    path.chmod(0o644)
    shutil.copyfile(store.path(other), path)  # opened with O_TRUNC: the same inode
    assert path.stat().st_ino == inode and path.stat().st_size == store.path(other).stat().st_size
    assert count_wrong(ask(client, variant, positions), truths) == 0


@pytest.mark.slow
def test_no_wrong_answer_while_a_table_is_rewritten_again_and_again(
    store: TableStore, tmp_path: Path
) -> None:
    """A writer alternates damaged and good bytes in place (never truncating: a mapped page cut off
    would stop the process with SIGBUS) while the app answers: no answer is wrong, and some came from
    the table, between the writes (the others from the search: a 16-cell table is not solved on the
    spot)."""
    variant = SEARCHED
    path = served(tmp_path / "served", variant, store)
    positions = random_positions(variant, POSITIONS // 2, seed=3)
    truths = expected(TableStore(tmp_path / "reference"), variant, positions)
    good = path.read_bytes()
    bad = good[:HEADER_SIZE] + mirrored(good[HEADER_SIZE:])
    client = app_client(path.parent)
    stop = threading.Event()
    writes = [0]

    def rewrite() -> None:
        path.chmod(0o644)
        with path.open("r+b") as file:
            while not stop.is_set():
                for data in (bad, good):
                    os.pwrite(file.fileno(), data[HEADER_SIZE:], HEADER_SIZE)
                    writes[0] += 1
                    time.sleep(0.01)

    writer = threading.Thread(target=rewrite)
    writer.start()
    try:
        answers = ask(client, variant, positions)
    finally:
        stop.set()
        writer.join(10)
    assert count_wrong(answers, truths) == 0
    sources = [a.get("source") for a in answers]
    assert sources.count("table") > 0 and writes[0] > 10, (sources.count("table"), writes[0])


def test_a_lookup_refuses_bytes_written_after_the_check(store: TableStore, tmp_path: Path) -> None:
    """The race the store's look cannot close: the file changes between `opened` and the lookup. The
    lookup looks at the file after its reads and raises; the store then opens the file again."""
    variant = SOLVED_ON_THE_SPOT
    path = served(tmp_path / "served", variant, store)
    mine = TableStore(path.parent)
    table = mine.opened(variant) or mine.try_open(variant)
    assert table is not None
    position = Position.parse("X...O.......", variant=variant)
    assert table.lookup(position).value == store.get(variant).lookup(position).value
    rewrite_bytes(path)
    with pytest.raises(TableChangedError) as raised:
        table.lookup(position)
    assert raised.value.retry_after == 1 and "changed" in raised.value.reason
    assert mine.opened(variant) is None  # checked again: it fails its checksum
    assert not mine.looks_built(variant)  # so the supply has it rebuilt


def test_a_file_changed_while_no_process_had_it_open_is_checked_before_it_answers(
    store: TableStore, tmp_path: Path
) -> None:
    """A new process (a worker restarted after the change) has no open table to notice the write with:
    the recorded stamp of the last check is not the file's any more, so the file is checked whole."""
    variant = SOLVED_ON_THE_SPOT
    path = served(tmp_path / "served", variant, store)
    assert TableStore(path.parent).try_open(variant) is not None
    rewrite_bytes(path)
    assert TableStore(path.parent).try_open(variant) is None


def test_a_large_file_is_checked_off_the_callers_thread(
    store: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past INLINE_CHECK_BYTES, a file with no record of a check is checked through `check_later` (the
    service's background threads): not there meanwhile, then served, and its check recorded."""
    monkeypatch.setattr(store_module, "INLINE_CHECK_BYTES", 0)
    variant = SOLVED_ON_THE_SPOT
    path = served(tmp_path / "served", variant, store)
    record_path(path).unlink()
    later: list[Any] = []
    mine = TableStore(path.parent, check_later=later.append)
    assert mine.try_open(variant) is None and mine.try_open(variant) is None
    assert len(later) == 1  # one check, however often asked
    later.pop()()
    assert mine.try_open(variant) is not None and record_path(path).exists()
    assert TableStore(path.parent, check_later=later.append).try_open(variant) is not None and not later


def test_a_lookup_that_finds_its_file_changed_is_never_served(
    store: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file written into between the store's look and the lookup's reads (the race of the test
    above, through the API): /analyze answers from the other sources (the search, on 16 cells), and a
    route that needs the table's values (/tree) answers 503 `table-not-ready` with Retry-After, as the
    contract says; never a value from the changed bytes."""
    variant = SEARCHED
    path = served(tmp_path / "served", variant, store)
    client = app_client(path.parent)
    url = f"/analyze?board=X...O...........&variant={variant.name}"
    assert client.get(url).get_json()["source"] == "table"
    truth = store.get(variant).lookup(Position.parse("X.O.............", None, variant))
    real_lookup, real_value = Table.lookup, Table.value

    def written_meanwhile(table: Table, position: Position) -> Any:
        rewrite_bytes(path)  # after the store's look, before the lookup's reads
        return real_lookup(table, position)

    monkeypatch.setattr(Table, "lookup", written_meanwhile)
    body = client.get(url.replace("O...", "..O.") + "&budget_ms=5000").get_json()
    assert body["source"] != "table" and body["result"] == truth.value.result.value
    assert body["remoteness"] == truth.value.remoteness

    again = served(tmp_path / "again", variant, store)  # the first copy failed its check: not served

    def value_written_meanwhile(table: Table, position: Position) -> Any:
        rewrite_bytes(again)
        return real_value(table, position)

    monkeypatch.setattr(Table, "value", value_written_meanwhile)
    response = app_client(again.parent).get(f"/tree?board=XO..............&variant={variant.name}&depth=1")
    problem = check_response(response, "/tree", "get")
    assert response.status_code == 503 and response.headers["Retry-After"] == "1"
    assert problem["type"].endswith("table-not-ready") and "changed while it was read" in problem["detail"]


def test_an_unchanged_table_stays_open_and_a_check_made_too_soon_is_made_again(
    store: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looked at again and again, an unchanged file keeps its table (no new mapping, no new check). A
    file checked moments after it was written (a copy just made, with no record) answers, and is
    checked again once quiet: then its check is recorded."""
    monkeypatch.setattr(store_module, "RECHECK_SECONDS", 0.0)
    variant = SOLVED_ON_THE_SPOT
    path = served(tmp_path / "served", variant, store)
    mine = TableStore(path.parent)
    first = mine.try_open(variant)
    assert first is not None and all(mine.opened(variant) is first for _ in range(5))
    fresh = tmp_path / "fresh" / path.name
    fresh.parent.mkdir()
    shutil.copyfile(path, fresh)  # written just now: no record, and not quiet
    theirs = TableStore(fresh.parent)
    early = theirs.try_open(variant)
    assert early is not None and not record_path(fresh).exists()
    assert theirs.opened(variant) is early  # not due yet
    time.sleep(QUIET_NS / 1e9)
    again = theirs.opened(variant)
    assert again is not None and again is not early and record_path(fresh).exists()
    assert theirs.opened(variant) is again


@pytest.mark.parametrize(
    "url", [f"/variants/{SEARCHED.name}/table", f"/solve?variant={SEARCHED.name}&format=ndjson"]
)
def test_a_download_stops_short_when_its_file_is_written_into(
    store: TableStore, tmp_path: Path, url: str
) -> None:
    """The table file and /solve are sent piece by piece from the mapping: a file written into meanwhile
    stops the transfer (the client sees it broken), never sends the new bytes as the old table's."""
    path = served(tmp_path / "served", SEARCHED, store)
    response = app_client(path.parent).get(url, buffered=False)
    assert response.status_code == 200
    pieces = iter(response.response)
    assert next(pieces)
    rewrite_bytes(path)
    with pytest.raises(TableChangedError):
        for _ in pieces:
            pass
    response.close()
