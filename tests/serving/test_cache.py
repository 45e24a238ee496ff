"""nginx's answer cache (deploy/proxy.conf) on loopback: GET /analyze and /solve are kept and
replayed byte for byte, ETag included; POST is never kept; a body too large or of unknown length is
relayed but not kept."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.serving import harness
from tests.serving.harness import HOST, Server

CACHED = [
    ("/analyze?board=X...O....", {}),
    ("/analyze?board=....X....&variant=misere&mainline=true", {}),
    ("/solve", {"Accept-Encoding": "gzip"}),
    ("/solve", {}),  # 1.2 MB: under the limit, kept too
    ("/solve?variant=misere&format=csv", {}),
]
REPLAYED = ("Content-Type", "Content-Encoding", "Content-Length", "ETag", "Cache-Control", "Vary")


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes


def ask(
    port: int, path: str, headers: dict[str, str], method: str = "GET", body: bytes | None = None
) -> Answer:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, response.headers, response.read())
    finally:
        connection.close()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    harness.require_nginx()
    with (
        harness.gunicorns(tmp_path_factory.mktemp("cache"), count=1) as [origin],
        harness.nginx([origin.port]) as proxy,
    ):
        yield origin, proxy


@pytest.mark.slow
@pytest.mark.parametrize(("path", "headers"), CACHED)
def test_a_kept_answer_is_the_origins_byte_for_byte(
    stack: tuple[Server, Server], path: str, headers: dict[str, str]
) -> None:
    origin, proxy = stack
    direct = ask(origin.port, path, headers)
    first, second = ask(proxy.port, path, headers), ask(proxy.port, path, headers)
    assert (first.headers["X-Cache-Status"], second.headers["X-Cache-Status"]) == ("MISS", "HIT")
    for answer in (first, second):
        assert answer.status == direct.status == 200
        assert answer.body == direct.body
        assert {h: answer.headers[h] for h in REPLAYED} == {h: direct.headers[h] for h in REPLAYED}
    assert first.headers["X-Request-ID"] != second.headers["X-Request-ID"]  # each request its own id


def test_a_kept_answer_answers_if_none_match(stack: tuple[Server, Server]) -> None:
    _, proxy = stack
    path = "/analyze?board=XO......."
    etag = ask(proxy.port, path, {}).headers["ETag"]
    assert ask(proxy.port, path, {}).headers["X-Cache-Status"] == "HIT"
    assert ask(proxy.port, path, {"If-None-Match": etag}).status == 304


def test_post_is_never_kept(stack: tuple[Server, Server]) -> None:
    origin, proxy = stack
    body = b'{"board":"X.O......"}'
    seen_before = posts_logged(origin)
    answers = [
        ask(proxy.port, "/analyze", {"Content-Type": "application/json"}, "POST", body) for _ in range(3)
    ]
    assert all(a.status == 200 and a.headers.get("X-Cache-Status") != "HIT" for a in answers)
    assert posts_logged(origin, seen_before + 3) - seen_before == 3


def posts_logged(server: Server, expected: int = 0) -> int:
    """POSTs in the origin's access lines (read again for a moment while fewer than `expected`)."""
    lines = harness.access_lines(server, lambda lines: posts(lines) >= expected)
    return posts(lines)


def posts(lines: list[harness.AccessLine]) -> int:
    return sum(line.get("method") == "POST" for line in lines)


def test_other_routes_are_not_kept(stack: tuple[Server, Server]) -> None:
    _, proxy = stack
    for path in ("/readyz", "/metrics", "/variants"):
        ask(proxy.port, path, {})
        assert "X-Cache-Status" not in ask(proxy.port, path, {}).headers


class LargeAnswers(BaseHTTPRequestHandler):
    """A stand-in backend with answers the cache must not keep: 10 MB, and streamed (chunked)."""

    protocol_version = "HTTP/1.1"
    served: list[str] = []  # noqa: RUF012  # shared by the handler instances on purpose

    def do_GET(self) -> None:
        LargeAnswers.served.append(self.path)
        self.send_response(200)
        self.send_header("Cache-Control", "public, max-age=86400, immutable")
        if "stream" in self.path:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for _ in range(3):
                self.wfile.write(b"5\r\nchunk\r\n")
            self.wfile.write(b"0\r\n\r\n")
        else:
            size = 10_000_000
            self.send_header("Content-Length", str(size))
            self.end_headers()
            self.wfile.write(b"x" * size)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_large_or_streamed_bodies_are_relayed_not_kept() -> None:
    harness.require_nginx()
    backend = ThreadingHTTPServer((HOST, 0), LargeAnswers)
    thread = threading.Thread(target=backend.serve_forever, daemon=True)
    thread.start()
    try:
        with harness.nginx([backend.server_port]) as proxy:
            for path in ("/solve?size=10MB", "/solve?stream=1"):
                answers = [ask(proxy.port, path, {}) for _ in range(2)]
                assert [a.headers["X-Cache-Status"] for a in answers] == ["MISS", "MISS"], path
                assert answers[0].body == answers[1].body and len(answers[0].body) in (15, 10_000_000)
    finally:
        backend.shutdown()
        thread.join(timeout=10)
    assert sorted(LargeAnswers.served) == sorted(
        ["/solve?size=10MB", "/solve?stream=1"] * 2
    )  # each one asked
