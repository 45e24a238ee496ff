"""JSON nested deeper than the parser's stack is a 400 like any other unreadable body, on every POST
endpoint of the contract, with one access line and no traceback."""

from __future__ import annotations

import json
import logging

import pytest
from flask.testing import FlaskClient

from tests.http.contract import SPEC, problem_of

POST_PATHS = sorted(path for path, operations in SPEC["paths"].items() if "post" in operations)
# A thousand "[" is under 2 KB; the longest stays under the 128 KiB body limit.
BODIES = {
    "open": b"[" * 1000,
    "closed": b"[" * 1000 + b"]" * 1000,
    "in a field": b'{"board": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "very deep": b"[" * 100_000,
}


def test_every_post_endpoint_is_tested() -> None:
    assert POST_PATHS == ["/analyze", "/analyze/batch", "/move", "/record", "/review", "/tree"]


@pytest.mark.parametrize("name", BODIES)
@pytest.mark.parametrize("path", POST_PATHS)
def test_deep_nesting_is_a_400_problem_with_one_log_line(
    client: FlaskClient,
    path: str,
    name: str,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    capsys.readouterr()
    with caplog.at_level(logging.DEBUG):
        response = client.post(path, data=BODIES[name], content_type="application/json")
    body = problem_of(response, path, "post", 400)
    assert "nested too deeply" in str(body["detail"])
    assert [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info] == []
    out, err = capsys.readouterr()
    assert [json.loads(line)["status"] for line in out.splitlines()] == [400]  # the access line, only
    assert "Traceback" not in out + err
