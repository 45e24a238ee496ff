"""`sanmoku serve` for real: two gunicorn workers, metrics summed across them, JSON access lines.

Started through the CLI with WEB_CONCURRENCY and SANMOKU_BIND, so this also checks that `serve`
honours both and that gunicorn_conf.py empties a stale metrics folder.
"""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.serving import harness
from tests.serving.harness import Server, totals

REQUESTS = 120  # 4 kinds of request, 30 each
ODD_AGENT = 'odd "agent" \\ {"x": 1}'  # what breaks a JSON-looking gunicorn access format
# A readiness poll whose client gave up (2 s, on a busy host) is counted when the server ends it, which
# may fall between the test's two readings (a 200 too many, once on CI): not counted here.
PROBES = ("/readyz",)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("gunicorn")
    server = harness.start_gunicorn(
        workdir, workers=2, command=[sys.executable, "-m", "service.cli.main", "serve"]
    )
    stale = workdir / f"metrics-{server.port}"
    stale.mkdir()
    (stale / "counter_999999.db").write_bytes(b"\0" * 8)  # a previous run's counts, which must go
    try:
        harness.wait_ready(server)
        yield server
    finally:
        server.stop()


def call(server: Server, i: int) -> int:
    """Four kinds in turn: GET, POST, an error (422) and an unknown URL (404)."""
    headers = {"X-Request-ID": f"test-{i}", "User-Agent": ODD_AGENT}
    kind = i % 4
    if kind == 1:
        body, headers["Content-Type"] = b'{"board":"X...O...."}', "application/json"
        request = urllib.request.Request(f"{server.url}/analyze", body, headers, method="POST")
    else:
        path = ["/analyze?board=.........", "", "/analyze?board=XXXX.....", "/missing"][kind]
        request = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status: int = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status


def access_lines(server: Server, request_id: str) -> list[dict[str, object]]:
    """Every line of the server's output (each must be JSON), once the request's own is there."""
    harness.access_lines(server, lambda lines: any(line.get("request_id") == request_id for line in lines))
    return [json.loads(line) for line in server.stdout.read_text().splitlines()]


def test_the_stale_metrics_folder_was_emptied(served: Server) -> None:
    assert not (served.stdout.parent / f"metrics-{served.port}" / "counter_999999.db").exists()


def busy(server: Server) -> int:
    """A batch of 1,000 positions: tens of milliseconds of work, during which the other worker
    accepts (an idle gevent worker would otherwise take a light load alone)."""
    body = json.dumps({"positions": [{"board": "X...O...."}] * 1000}).encode()
    request = urllib.request.Request(
        f"{server.url}/analyze/batch", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        status: int = response.status
    return status


def test_metrics_count_every_request_across_workers(served: Server) -> None:
    before = totals(served, leave_out=PROBES)
    with ThreadPoolExecutor(8) as pool:
        heavy = [pool.submit(busy, served) for _ in range(8)]
        statuses = list(pool.map(lambda i: call(served, i), range(REQUESTS)))
        assert [f.result() for f in heavy] == [200] * len(heavy)
    assert sorted(set(statuses)) == [200, 404, 422]
    after = totals(served, leave_out=PROBES)
    gained = {status: after.get(status, 0.0) - before.get(status, 0.0) for status in after}
    assert gained == {"200": REQUESTS / 2 + len(heavy), "404": REQUESTS / 4, "422": REQUESTS / 4}
    lines = access_lines(served, f"test-{REQUESTS - 1}")
    assert (
        len(
            {line["pid"] for line in lines if line["path"] == "/analyze/batch"}
            | {line["pid"] for line in lines if str(line.get("request_id", "")).startswith("test-")}
        )
        == 2
    ), "one worker served everything: nothing summed"


def test_one_json_access_line_per_request(served: Server) -> None:
    assert call(served, 1003) == 404  # 1003 % 4 == 3: an unknown URL, with request id test-1003
    lines = access_lines(served, "test-1003")  # every line parsed as JSON, the odd user agent's included
    [line] = [line for line in lines if line.get("request_id") == "test-1003"]
    assert (line["method"], line["status"], line["user_agent"], line["logger"]) == (
        "GET",
        404,
        ODD_AGENT,
        "sanmoku.access",
    )
    assert isinstance(line["duration_ms"], float)
    errors = [json.loads(line) for line in served.stderr.read_text().splitlines()]  # gunicorn's own, JSON too
    assert any("Booting worker" in str(e["message"]) for e in errors)
