"""Streamed /solve answers: the same bytes whatever the size of a piece, a cap on the streams
of one worker with a 503 that names the table file, no buffering by a proxy, and the watchdog that
closes a stream whose client reads nothing (on a real socket, in a thread: the gevent worker's case
is tests/serving/test_streams.py)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from service.app import create_app
from service.engine import Table, TableStore
from service.http import solve_formats
from service.http.solve_formats import SolveRequest, gzipped, render
from service.serving.streams import RETRY_AFTER, Streams
from tests.http.contract import check_response

STREAM = "/solve?variant=3x4k3&format=ndjson"  # 111,973 positions: streamed, not kept whole


@pytest.mark.slow
@pytest.mark.parametrize(("fmt", "symmetry"), [("ndjson", "none"), ("csv", "canonical"), ("json", "none")])
def test_the_size_of_a_piece_changes_no_byte(
    tables: dict[str, Table], monkeypatch: pytest.MonkeyPatch, fmt: str, symmetry: str
) -> None:
    """The ETag promises the same bytes: pieces of 512 rows give what whole chunks of 4,096 gave."""
    wanted = SolveRequest(tables["3x4k3"], "X", symmetry, fmt)
    small = b"".join(render(wanted))
    packed = b"".join(gzipped(render(wanted)))
    monkeypatch.setattr(solve_formats, "ROWS_PER_PIECE", solve_formats.ROWS_PER_CHUNK)
    assert b"".join(render(wanted)) == small
    assert b"".join(gzipped(render(wanted))) == packed


def capped_client(store: TableStore, limit: int) -> FlaskClient:
    config = {"TESTING": True, "TABLES_DIR": str(store.directory), "SOLVE_STREAMS_PER_WORKER": limit}
    return create_app(config).test_client()


def test_a_stream_past_the_cap_is_refused_and_names_the_table_file(store: TableStore) -> None:
    client = capped_client(store, 1)
    running = client.get(STREAM, buffered=False)  # not read yet: it holds the one slot
    assert running.status_code == 200
    refused = client.get(STREAM)
    body = check_response(refused, "/solve", "get")
    assert refused.status_code == 503 and refused.headers["Retry-After"] == str(RETRY_AFTER)
    assert body["type"] == "urn:sanmoku:problem:too-many-streams" and body["retry_after"] == RETRY_AFTER
    assert "GET /variants/3x4k3/table" in body["detail"]
    small = client.get("/solve?variant=normal&format=ndjson")  # a kept body is no stream: never refused
    assert small.status_code == 200
    running.close()  # the server closes the stream: the slot is free again
    again = client.get(STREAM, buffered=False)
    assert again.status_code == 200
    again.close()


def test_a_stream_read_to_its_end_frees_its_slot(store: TableStore) -> None:
    client = capped_client(store, 1)
    for _ in range(2):
        response = client.get(STREAM)
        assert response.status_code == 200 and len(response.data) > 10_000_000


def test_streams_ask_proxies_not_to_buffer_them(client: FlaskClient) -> None:
    streamed = client.get(STREAM, buffered=False)
    assert streamed.headers["X-Accel-Buffering"] == "no"
    streamed.close()
    kept = client.get("/solve?variant=normal&format=ndjson")
    assert "X-Accel-Buffering" not in kept.headers  # a whole body a proxy may buffer and cache


def endless() -> Iterator[bytes]:
    piece = b"x" * 65536
    while True:
        yield piece


def test_the_watchdog_closes_a_stream_whose_reader_stalls() -> None:
    """A writer thread plays the server: it writes each piece to a socket whose other end reads
    nothing. Once the socket's buffers are full the write blocks; the watchdog shuts the socket down
    after the allowed stall, the write fails and the stream is closed, its slot free."""
    streams = Streams(limit=1, stall_seconds=0.4)
    server_side, client_side = socket.socketpair()
    stream = streams.open(endless(), {"werkzeug.socket": server_side, "PATH_INFO": "/solve"})
    assert stream is not None and streams.open(endless(), {}) is None  # the one slot is taken
    failed: list[BaseException] = []

    def serve() -> None:
        try:
            for piece in stream:
                server_side.sendall(piece)
        except OSError as error:
            failed.append(error)
        finally:
            stream.close()

    started = time.monotonic()
    writer = threading.Thread(target=serve, daemon=True)
    writer.start()
    writer.join(timeout=10)
    took = time.monotonic() - started
    try:
        assert not writer.is_alive(), "the stalled write was never failed"
        assert failed and isinstance(failed[0], OSError)
        assert 0.4 <= took < 5, took
        assert streams.running() == 0
    finally:
        server_side.close()
        client_side.close()
