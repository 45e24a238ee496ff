"""GET /variants/{name}/table against RFC 9110: HEAD, Range (one, several, past the
end, suffixes, invalid), If-Range, If-None-Match and If-Match, each answer checked against openapi.yaml;
and a table file replaced or removed while it is served, or repaired (the answers cached from it go)."""

from __future__ import annotations

import email.parser
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.app import create_app
from service.engine import TableStore, get_variant
from service.engine.tables import store as store_module
from service.engine.tables.building import build_file
from service.engine.tables.store import file_name
from service.engine.tables.table_file import HEADER_SIZE
from tests.http.contract import check_response

NAME = "3x4k3"  # 12 cells: a missing file is built again within the request
URL = f"/variants/{NAME}/table"


@pytest.fixture
def directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tables directory of its own, whose files the store looks at again at every request."""
    monkeypatch.setattr(store_module, "RECHECK_SECONDS", 0.0)
    TableStore(tmp_path).get(get_variant(NAME))
    return tmp_path


@pytest.fixture
def client(directory: Path) -> FlaskClient:
    config = {"TESTING": True, "TABLES_DIR": str(directory), "TABLES_AT_START": [], "ACCESS_LOG": False}
    return create_app(config).test_client()


def file_bytes(directory: Path, name: str = NAME) -> bytes:
    return (directory / file_name(get_variant(name))).read_bytes()


def download(client: FlaskClient, method: str = "GET", **headers: str) -> TestResponse:
    """The answer, checked against the contract (a multipart body of binary parts is not text: its
    status, media type and headers are checked by the test that asks for it)."""
    response = client.open(URL, method=method, headers={k.replace("_", "-"): v for k, v in headers.items()})
    if method == "GET" and not (response.mimetype or "").startswith("multipart/"):
        check_response(response, "/variants/{name}/table", "get")
    return response


def test_get_and_head(client: FlaskClient, directory: Path) -> None:
    whole = download(client)
    assert whole.status_code == 200 and whole.data == file_bytes(directory)
    assert whole.headers["Accept-Ranges"] == "bytes" and whole.headers["ETag"].startswith('"')
    assert int(whole.headers["Content-Length"]) == len(whole.data)
    head = download(client, "HEAD")
    assert head.status_code == 200 and head.data == b""
    for name in ("ETag", "Content-Length", "Accept-Ranges", "Content-Type", "X-Content-Type-Options"):
        assert head.headers[name] == whole.headers[name]
    assert whole.headers["X-Content-Type-Options"] == "nosniff"  # a binary file is never sniffed


@pytest.mark.parametrize(
    ("spec", "first", "last"),
    [
        ("0-13", 0, 13),  # the magic line
        ("100-", 100, None),
        ("-10", -10, None),  # the last ten bytes
        ("-999999999", 0, None),  # a suffix longer than the file: all of it
        ("-10-999999999", -10, None),  # past the end, starting inside: cut at the end
    ],
    ids=["first bytes", "from 100", "suffix", "long suffix", "past the end"],
)
def test_one_range(client: FlaskClient, directory: Path, spec: str, first: int, last: int | None) -> None:
    data = file_bytes(directory)
    size = len(data)
    spec = spec.replace("-10-", f"{size - 10}-")
    start = first % size if first < 0 else first
    end = size - 1 if last is None else last
    response = download(client, Range=f"bytes={spec}")
    assert response.status_code == 206 and response.data == data[start : end + 1]
    assert response.headers["Content-Range"] == f"bytes {start}-{end}/{size}"
    assert response.mimetype == "application/octet-stream"


def parts(response: TestResponse) -> list[tuple[str, bytes]]:
    """The Content-Range and bytes of each part of a multipart/byteranges body."""
    head = f"Content-Type: {response.headers['Content-Type']}\r\n\r\n".encode()
    message = email.parser.BytesParser().parsebytes(head + response.data)
    return [(str(part["Content-Range"]), part.get_payload(decode=True)) for part in message.get_payload()]


def test_several_ranges_come_as_multipart_byteranges(client: FlaskClient, directory: Path) -> None:
    data = file_bytes(directory)
    size = len(data)
    response = download(client, Range="bytes=100-103, 0-3,20-29")  # within the (text) header
    check_response(response, "/variants/{name}/table", "get")
    assert response.status_code == 206 and response.mimetype == "multipart/byteranges"
    assert int(response.headers["Content-Length"]) == len(response.data)
    # in the order asked for
    assert parts(response) == [
        (f"bytes 100-103/{size}", data[100:104]),
        (f"bytes 0-3/{size}", data[:4]),
        (f"bytes 20-29/{size}", data[20:30]),
    ]
    tail = download(client, Range=f"bytes=0-0,{size - 2}-{size + 50}", If_Range=response.headers["ETag"])
    last = (f"bytes {size - 2}-{size - 1}/{size}", data[-2:])
    assert parts(tail) == [(f"bytes 0-0/{size}", data[:1]), last]


def test_overlapping_ranges_are_merged_and_unsatisfiable_ones_dropped(
    client: FlaskClient, directory: Path
) -> None:
    data = file_bytes(directory)
    merged = download(client, Range="bytes=0-10,5-20,21-30")
    assert merged.status_code == 206 and merged.data == data[:31]
    assert merged.headers["Content-Range"] == f"bytes 0-30/{len(data)}"
    kept = download(client, Range=f"bytes=0-3,{len(data) + 5}-")
    assert kept.status_code == 206 and kept.data == data[:4]


@pytest.mark.parametrize("spec", ["bytes=999999999-", "bytes=-0", "bytes=999999999-999999999,-0"])
def test_nothing_satisfiable_is_416_with_the_length(client: FlaskClient, directory: Path, spec: str) -> None:
    response = download(client, Range=spec)
    assert response.status_code == 416 and response.mimetype == "application/problem+json"
    assert response.headers["Content-Range"] == f"bytes */{len(file_bytes(directory))}"


@pytest.mark.parametrize("spec", ["bytes=5-2", "items=0-1", "bytes=abc", "bytes=", "bytes=0-1;2-3"])
def test_an_invalid_range_or_another_unit_is_ignored(client: FlaskClient, directory: Path, spec: str) -> None:
    response = download(client, Range=spec)
    assert response.status_code == 200 and response.data == file_bytes(directory)


def test_too_many_ranges_are_ignored(client: FlaskClient, directory: Path) -> None:
    spec = ",".join(f"{n * 10}-{n * 10 + 1}" for n in range(17))
    response = download(client, Range=f"bytes={spec}")
    assert response.status_code == 200 and response.data == file_bytes(directory)


def test_if_range(client: FlaskClient, directory: Path) -> None:
    etag = download(client).headers["ETag"]
    assert download(client, Range="bytes=0-3", If_Range=etag).status_code == 206
    for other in ('"another"', f"W/{etag}", "Mon, 23 Nov 2026 19:06:31 GMT"):  # weak, or a date: no
        whole = download(client, Range="bytes=0-3", If_Range=other)
        assert whole.status_code == 200 and whole.data == file_bytes(directory), other


def test_if_none_match(client: FlaskClient) -> None:
    etag = download(client).headers["ETag"]
    for matching in (etag, f"W/{etag}", "*", f'"other", {etag}'):
        cached = download(client, If_None_Match=matching, Range="bytes=0-3")
        assert cached.status_code == 304 and cached.data == b"" and cached.headers["ETag"] == etag
    assert download(client, If_None_Match='"other"').status_code == 200


def test_if_match(client: FlaskClient, directory: Path) -> None:
    etag = download(client).headers["ETag"]
    for matching in (etag, "*", f'"other", {etag}'):
        assert download(client, If_Match=matching).data == file_bytes(directory)
    for other in ('"other"', f"W/{etag}"):  # strong comparison: a weak tag never matches
        refused = download(client, If_Match=other, Range="bytes=0-3")
        assert refused.status_code == 412 and refused.mimetype == "application/problem+json"
        assert len(refused.data) < 1000  # the problem, not the file


def test_head_ignores_range(client: FlaskClient, directory: Path) -> None:
    head = download(client, "HEAD", Range="bytes=0-3")
    assert head.status_code == 200 and int(head.headers["Content-Length"]) == len(file_bytes(directory))


def replace_file(directory: Path, tmp: Path) -> bytes:
    """Another file of the table (the same values in format 2: another header, other bytes; every
    build of one format writes the same bytes), written elsewhere and renamed over the file, as an
    operator replaces one."""
    path = directory / file_name(get_variant(NAME))
    build_file(tmp / path.name, get_variant(NAME), reduce=False)
    data = (tmp / path.name).read_bytes()
    os.replace(tmp / path.name, path)
    return data


def test_a_replaced_file_is_served_with_its_own_etag(
    client: FlaskClient, directory: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    before = download(client)
    new = replace_file(directory, tmp_path_factory.mktemp("replace"))
    assert new != before.data
    after = download(client)
    assert after.data == new and after.headers["ETag"] != before.headers["ETag"]
    assert download(client, If_Match=before.headers["ETag"]).status_code == 412
    whole = download(client, Range="bytes=0-3", If_Range=before.headers["ETag"])
    assert whole.status_code == 200 and whole.data == new
    assert download(client, If_None_Match=before.headers["ETag"]).status_code == 200


def chunks(response: TestResponse) -> Iterator[bytes]:
    yield from response.response  # type: ignore[misc]


def test_a_download_under_way_keeps_the_bytes_of_its_etag(
    client: FlaskClient, directory: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    old = file_bytes(directory)
    response = client.get(URL, buffered=False)
    pieces = chunks(response)
    first = next(pieces)
    replace_file(directory, tmp_path_factory.mktemp("replace"))
    (directory / file_name(get_variant(NAME))).unlink()  # and removed, even
    assert first + b"".join(pieces) == old
    response.close()


def test_a_removed_file_is_built_again_not_a_500(client: FlaskClient, directory: Path) -> None:
    replace_file(directory, directory.parent)  # so that the build that follows differs from it
    before = download(client)
    (directory / file_name(get_variant(NAME))).unlink()
    after = download(client)
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert after.data == file_bytes(directory)


def test_a_removed_large_file_is_a_503_not_a_500(
    store: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "RECHECK_SECONDS", 0.0)
    shutil.copy(store.path(get_variant("4x4k4")), tmp_path / file_name(get_variant("4x4k4")))
    config = {"TESTING": True, "TABLES_DIR": str(tmp_path), "TABLES_AT_START": [], "BACKGROUND_BUILDS": False}
    client = create_app(config).test_client()
    assert client.get("/variants/4x4k4/table", headers={"Range": "bytes=0-13"}).status_code == 206
    (tmp_path / file_name(get_variant("4x4k4"))).unlink()
    gone = client.get("/variants/4x4k4/table")
    body = check_response(gone, "/variants/{name}/table", "get")
    assert gone.status_code == 503 and body["type"].endswith("table-not-built")


@pytest.mark.slow
def test_a_table_damaged_in_place_and_repaired_never_answers_wrong(
    directory: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A process writes over the mapped table in place (as root may), under an app that has answered
    from it and cached those answers: the file fails its checksum and is never answered from (the
    small table is solved again), and the documented repair, a good file renamed over it, is served:
    every answer is the good table's."""
    path = directory / file_name(get_variant(NAME))
    good = path.read_bytes()
    asked = [
        ("GET", "/analyze?board=X...O.......&variant=3x4k3", None),
        ("POST", "/analyze", {"board": "X...O..X....", "variant": "3x4k3"}),
        ("GET", "/solve?variant=3x4k3&format=csv", None),
        ("GET", "/analyze?board=.X..O.......&variant=3x4k3", None),  # asked first after the damage
        ("GET", "/analyze?board=XO..........&variant=3x4k3", None),
    ]
    truth = [fresh_client(directory).open(url, method=m, json=body).data for m, url, body in asked]
    client = fresh_client(directory)
    cached = [client.open(url, method=m, json=body).data for m, url, body in asked[:3]]
    assert cached == truth[:3]
    common = max(set(good[HEADER_SIZE:]), key=good[HEADER_SIZE:].count)
    with path.open("r+b") as file:  # in place: the same inode, mapped by the app's table
        file.seek(HEADER_SIZE)
        file.write(bytes([common]) * (len(good) - HEADER_SIZE))
    damaged = [client.open(url, method=m, json=body).data for m, url, body in asked]
    assert damaged == truth  # the damaged bytes never answer, the cached answers are dropped
    repair = tmp_path_factory.mktemp("repair") / path.name
    repair.write_bytes(good)
    os.replace(repair, path)
    assert [client.open(url, method=m, json=body).data for m, url, body in asked] == truth


def fresh_client(directory: Path) -> FlaskClient:
    config = {"TESTING": True, "TABLES_DIR": str(directory), "TABLES_AT_START": [], "ACCESS_LOG": False}
    return create_app(config).test_client()
