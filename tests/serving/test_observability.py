"""Request ids, access log records and metrics, in one process (plain Prometheus mode)."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import gevent
import pytest
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from pythonjsonlogger.json import JsonFormatter

from service.app import create_app
from service.serving import observability

HEX32 = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def app() -> Iterator[Flask]:
    app = create_app({"TESTING": True, "PROPAGATE_EXCEPTIONS": False})

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("planted")

    @app.get("/items/<int:number>")
    def item(number: int) -> str:
        return str(number)

    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def samples(client: FlaskClient, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    response = client.get("/metrics")
    assert response.status_code == 200
    found = {}
    for family in text_string_to_metric_families(response.data.decode()):
        for sample in family.samples:
            if sample.name == name:
                found[tuple(sorted(sample.labels.items()))] = sample.value
    return found


@pytest.mark.parametrize("given", ["abc-123", "A.b_c-9", "x" * 128])
def test_a_safe_request_id_is_echoed(client: FlaskClient, given: str) -> None:
    assert client.get("/healthz", headers={"X-Request-ID": given}).headers["X-Request-ID"] == given


@pytest.mark.parametrize("given", [None, "", "has space", "x" * 129, "semi;colon", "a/b", "tab\tx", "é"])
def test_an_unsafe_or_missing_request_id_is_replaced(client: FlaskClient, given: str | None) -> None:
    headers = {} if given is None else {"X-Request-ID": given}
    assert HEX32.fullmatch(client.get("/healthz", headers=headers).headers["X-Request-ID"])


def test_a_trailing_newline_is_not_safe() -> None:
    # `$` in a pattern would let "abc\n" through; the check is a full match
    assert observability.request_id("abc\n") != "abc\n"


def test_every_answer_has_a_request_id(client: FlaskClient) -> None:
    etag = client.get("/analyze?board=X........").headers["ETag"]
    answers = {
        304: client.get("/analyze?board=X........", headers={"If-None-Match": etag}),
        404: client.get("/nowhere"),
        405: client.delete("/analyze"),
        413: client.post("/analyze", data=b"{" * (200 * 1024), content_type="application/json"),
        415: client.post("/analyze", data="board", content_type="text/plain"),
        422: client.post("/analyze", json={"board": "XXXX....."}),
        500: client.get("/boom"),
    }
    for status, response in answers.items():
        assert response.status_code == status
        assert HEX32.fullmatch(response.headers["X-Request-ID"]), status


def test_one_access_line_per_request(client: FlaskClient, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    client.get("/analyze?board=.........", headers={"X-Request-ID": "r-1", "User-Agent": 'a "b" \\'})
    client.post("/analyze", json={"board": "XX"}, headers={"X-Request-ID": "r-2"})
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]  # each line valid JSON
    assert [(x["method"], x["path"], x["status"], x["request_id"]) for x in lines] == [
        ("GET", "/analyze", 200, "r-1"),
        ("POST", "/analyze", 422, "r-2"),
    ]
    assert lines[0]["user_agent"] == 'a "b" \\'
    assert all(x["duration_ms"] >= 0 and x["logger"] == observability.ACCESS_LOGGER for x in lines)
    assert {"time", "level", "pid", "message"} <= set(lines[0])


def test_the_access_line_is_written_as_the_docs_show(
    client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example line in the operators' page has the fields, their order and the compact separators of
    a line the app writes."""
    page = (Path(__file__).parents[2] / "docs" / "pages" / "deployment.md").read_text()
    shown = next(line for line in page.splitlines() if line.startswith('{"time"'))
    capsys.readouterr()
    client.get("/analyze?board=.........", headers={"User-Agent": "curl/7.88.1"})
    written = capsys.readouterr().out.splitlines()[0]
    assert list(json.loads(shown)) == list(json.loads(written))
    assert shown == json.dumps(json.loads(shown), separators=(",", ":"))
    assert written == json.dumps(json.loads(written), separators=(",", ":"))


def test_the_access_line_can_be_switched_off(capsys: pytest.CaptureFixture[str]) -> None:
    quiet = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
    capsys.readouterr()
    assert quiet.get("/healthz").status_code == 200
    assert capsys.readouterr().out == ""


def test_other_logs_are_json_through_python_json_logger() -> None:
    settings = observability.LOGGING["formatters"]["json"]
    formatter = JsonFormatter(settings["fmt"], rename_fields=settings["rename_fields"])
    record = logging.LogRecord("service", logging.ERROR, __file__, 1, 'failed "x"', None, None)
    line = json.loads(formatter.format(record))
    assert (line["level"], line["logger"], line["message"]) == ("ERROR", "service", 'failed "x"')


def test_metrics_count_requests_by_method_and_status(client: FlaskClient) -> None:
    for _ in range(3):
        client.get("/analyze?board=X........")
    client.post("/analyze", json={"board": "XX"})
    client.get("/metrics")  # scrapes are not counted
    totals = samples(client, "flask_http_request_total")
    assert totals == {
        (("method", "GET"), ("status", "200")): 3.0,
        (("method", "POST"), ("status", "422")): 1.0,
    }
    response = client.get("/metrics")
    assert response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"


def test_metrics_label_routes_not_raw_paths(client: FlaskClient) -> None:
    for path in ("/a", "/b/c", "/items/1", "/items/2", "/analyze"):
        client.get(path)
    counts = samples(client, "flask_http_request_duration_seconds_count")
    routes = {dict(labels)["route"] for labels in counts}
    assert routes == {"<unmatched>", "/items/<int:number>", "/analyze"}


def test_each_app_counts_on_its_own(client: FlaskClient) -> None:
    client.get("/healthz")
    other = create_app({"TESTING": True}).test_client()
    assert sum(samples(other, "flask_http_request_total").values()) == 0


@pytest.mark.parametrize(
    "nanoseconds",
    [
        1_700_000_000_123_456_789,
        1_700_000_000_999_999_999,  # the last millisecond of a second, then the next second
        1_700_000_001_000_000_000,
        1_704_067_199_999_000_000,  # the last millisecond of 2023
        1_704_067_200_000_500_000,
    ],
)
def test_the_access_time_is_what_datetime_writes(monkeypatch: pytest.MonkeyPatch, nanoseconds: int) -> None:
    expected = (
        datetime.fromtimestamp(nanoseconds // 10**9, UTC)
        .replace(microsecond=nanoseconds // 1000 % 10**6)
        .isoformat(timespec="milliseconds")
    )
    clock = observability.Clock()
    monkeypatch.setattr(time, "time_ns", lambda: nanoseconds - 10**9)  # a second before
    clock.now()
    monkeypatch.setattr(time, "time_ns", lambda: nanoseconds)
    assert clock.now() == expected


def test_a_gevent_worker_writes_the_lines_of_one_loop_turn_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(observability, "is_module_patched", lambda name: True)
    writes: list[str] = []
    monkeypatch.setattr(sys, "stdout", type("Out", (), {"write": writes.append, "flush": id})())
    lines = observability.AccessLog()
    lines.write("one\n")
    lines.write("two\n")
    assert writes == []
    gevent.sleep(0)  # the loop's turn ends
    assert writes == ["one\ntwo\n"]
    lines.write("three\n")
    gevent.sleep(0)
    assert writes == ["one\ntwo\n", "three\n"]
