"""Requests the app never sees: gunicorn answers them itself, or nginx does before gunicorn (the
compose configuration on loopback). Either way the answer is problem+json with a request id, and its
status is documented for the operation asked (openapi.yaml, components/responses)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import pytest

from service.http.cors import SIMPLE
from tests.http.contract import SPEC, resolve, validator
from tests.serving import harness
from tests.serving.harness import HOST, Server

HOST_LINE = b"Host: sanmoku\r\nConnection: close\r\n"
CHUNKED = b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"


def get(target: bytes, headers: bytes = b"") -> bytes:
    return b"GET " + target + b" HTTP/1.1\r\n" + HOST_LINE + headers + b"\r\n"


@dataclass(frozen=True)
class Case:
    raw: bytes
    path: str  # the operation whose documentation must hold the answer
    method: str
    status: int  # the same directly and through nginx, whoever of the two answers
    fronts: tuple[str, ...] = ("gunicorn", "nginx")


CASES = {
    "request line over gunicorn's limit": Case(get(b"/healthz?p=" + b"a" * 5000), "/healthz", "get", 414),
    # gunicorn stops reading at 8 KiB and resets the rest: only nginx (which reads it all) is asked
    "request line over nginx's limit": Case(
        get(b"/healthz?p=" + b"a" * 20000), "/healthz", "get", 414, ("nginx",)
    ),
    "too many header fields": Case(
        get(b"/healthz", b"".join(b"X-H%d: v\r\n" % i for i in range(101))), "/healthz", "get", 431
    ),
    "a header field too large": Case(
        get(b"/healthz", b"X-Big: " + b"v" * 9000 + b"\r\n"), "/healthz", "get", 431
    ),
    "a control character in a header": Case(get(b"/healthz", b"X-Bad: a\x01b\r\n"), "/healthz", "get", 400),
    "a bad header name": Case(get(b"/healthz", b"X Bad: a\r\n"), "/healthz", "get", 400),
    "a bad chunk size": Case(
        b"POST /analyze HTTP/1.1\r\n" + HOST_LINE + CHUNKED + b"\r\nzz\r\n{}\r\n0\r\n\r\n",
        "/analyze",
        "post",
        400,
    ),
    "Content-Length with Transfer-Encoding": Case(
        b"POST /analyze HTTP/1.1\r\n"
        + HOST_LINE
        + CHUNKED
        + b"Content-Length: 5\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        "/analyze",
        "post",
        400,
    ),
}


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


def send(port: int, raw: bytes) -> Answer:
    """The request as given, byte for byte (no client library would send these), and the answer."""
    received = b""
    # A server may answer and hang up before reading all of an oversized request: the answer arrives
    # all the same, then the connection is reset.
    with (
        socket.create_connection((HOST, port), timeout=10) as connection,
        suppress(ConnectionResetError, BrokenPipeError),
    ):
        connection.sendall(raw)
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return Answer(int(status_line.split()[1]), headers, body)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    harness.require_nginx()
    workdir = tmp_path_factory.mktemp("server-errors")
    with harness.gunicorns(workdir, count=1) as [backend], harness.nginx([backend.port]) as proxy:
        yield {"gunicorn": backend, "nginx": proxy}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "front"), [(name, front) for name, case in CASES.items() for front in case.fronts]
)
def test_unreadable_requests_get_a_documented_problem(
    servers: dict[str, Server], front: str, name: str
) -> None:
    case = CASES[name]
    answer = send(servers[front].port, case.raw)
    assert answer.status == case.status, answer.body[:200]
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers.get("x-request-id")
    readable_cross_origin(answer)
    problem = json.loads(answer.body)
    assert problem["status"] == case.status
    documented = resolve(SPEC["paths"][case.path][case.method]["responses"][str(case.status)])
    validator(documented["content"]["application/problem+json"]["schema"]).validate(problem)


NGINX_OWN = {
    "a body over the limit": (
        b"POST /analyze HTTP/1.1\r\n" + HOST_LINE + b"Content-Length: 200000\r\n\r\n",
        413,
    ),
    "the internal problem page": (get(b"/.problem"), 404),
    "an HTTP version it does not serve": (b"GET / HTTP/9.1\r\n\r\n", 505),
    "a method it refuses (TRACE)": (b"TRACE / HTTP/1.1\r\n" + HOST_LINE + b"\r\n", 405),
    "a transfer coding other than chunked": (
        b"POST /analyze HTTP/1.1\r\n" + HOST_LINE + b"Transfer-Encoding: gzip\r\n\r\n",
        501,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", NGINX_OWN)
def test_nginx_answers_its_own_errors_as_problems(servers: dict[str, Server], name: str) -> None:
    raw, status = NGINX_OWN[name]
    answer = send(servers["nginx"].port, raw)
    assert (answer.status, answer.headers["content-type"]) == (status, "application/problem+json")
    assert answer.headers["x-content-type-options"] == "nosniff"
    readable_cross_origin(answer)
    problem = json.loads(answer.body)
    assert (
        problem["status"] == status
        and problem["title"] != "Error"
        and "proxy could not" not in problem["detail"]
    )


def test_the_transfer_coding_problem_is_documented(servers: dict[str, Server]) -> None:
    raw, status = NGINX_OWN["a transfer coding other than chunked"]
    problem = json.loads(send(servers["nginx"].port, raw).body)
    documented = resolve(SPEC["paths"]["/analyze"]["post"]["responses"][str(status)])
    validator(documented["content"]["application/problem+json"]["schema"]).validate(problem)


def test_the_proxys_own_answers_are_nosniff(servers: dict[str, Server]) -> None:
    answer = send(servers["nginx"].port, get(b"/nginx-health"))
    assert (answer.status, answer.headers["x-content-type-options"]) == (200, "nosniff")
    through = send(servers["nginx"].port, get(b"/analyze?board=........."))
    assert (through.status, through.headers["x-content-type-options"]) == (200, "nosniff")


def test_the_apps_own_400_keeps_its_detail_through_nginx(servers: dict[str, Server]) -> None:
    body = b"{x}"
    raw = b"POST /analyze HTTP/1.1\r\n" + HOST_LINE + b"Content-Type: application/json\r\n"
    answer = send(servers["nginx"].port, raw + b"Content-Length: 3\r\n\r\n" + body)
    assert answer.status == 400
    assert "not valid JSON" in json.loads(answer.body)["detail"]


def test_a_backend_that_cannot_answer_is_a_problem(tmp_path: Path) -> None:
    harness.require_nginx()
    with harness.nginx([harness.free_port()]) as proxy:  # nothing listens there
        answer = send(proxy.port, get(b"/healthz"))
    assert (answer.status, answer.headers["content-type"]) == (502, "application/problem+json")
    readable_cross_origin(answer)


def readable_cross_origin(answer: Answer) -> None:
    """The CORS headers the app sends on its own answers (gunicorn's and nginx's lacked them)."""
    assert [answer.headers.get(name.lower()) for name, _ in SIMPLE] == [value for _, value in SIMPLE]
