"""The README's curl examples are run verbatim against a live server and must print what it shows."""

from __future__ import annotations

import doctest
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from service.app import create_app
from service.engine import Table, measure_strength, strength_table

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = re.compile(r"```sh\n(curl [^\n]*)\n```\n```text\n(.*?)\n```", re.S)
EXAMPLES = EXAMPLE.findall((ROOT / "README.md").read_text())


class QuietHandler(WSGIRequestHandler):
    def log(self, type: str, message: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[BaseWSGIServer]:
    httpd = make_server("127.0.0.1", 0, create_app(), threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    thread.join(timeout=10)


def test_the_readme_has_examples_of_every_endpoint() -> None:
    commands = " ".join(command for command, _ in EXAMPLES)
    for path in ("/analyze", "/analyze/batch", "/solve", "/variants", "/move", "/review", "/healthz",
                 "/readyz", "/docs"):  # fmt: skip
        assert f"8000{path}" in commands, path


@pytest.mark.parametrize(("command", "shown"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example_prints_what_it_shows(server: BaseWSGIServer, command: str, shown: str) -> None:
    if shutil.which("curl") is None:
        pytest.fail("curl is needed for the README's examples (Debian package curl)")
    live = command.replace("127.0.0.1:8000", f"127.0.0.1:{server.server_port}")
    done = subprocess.run(["bash", "-c", live], capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.replace("\r", "").rstrip() == shown.rstrip()


def test_the_policy_strength_table_is_what_the_engine_measures(tables: dict[str, Table]) -> None:
    classic = {name: tables[name] for name in ("normal", "misere")}
    assert strength_table(measure_strength(classic)) in (ROOT / "README.md").read_text()


def test_the_engine_example_runs_as_written() -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(>>> .*?)```", readme, re.S)
    assert block is not None, "the README's engine section has a doctest block"
    examples = doctest.DocTestParser().get_doctest(block.group(1), {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(examples)
    assert runner.failures == 0 and runner.tries >= 5
