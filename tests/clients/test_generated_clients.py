"""Clients generated from the contract, as a third party generates them: a Python client
(openapi-python-client) and TypeScript types (openapi-typescript, with openapi-fetch), both from the spec a
live gunicorn serves on loopback. The Clients page's examples run as written, then each client calls every
operation of the contract and reads every answer through its own types, errors included.

A generator that cannot read the contract (an enum it cannot name, an object it cannot model) fails here
before any call; the generated code lives in temporary folders and is never committed. The npm packages
are installed once into pytest's cache (about 45 MB, 5 s), keyed by their pinned versions.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.clients.python_calls import call_every_operation
from tests.http.contract import SPEC
from tests.requires import require
from tests.serving import harness

HERE = Path(__file__).resolve().parent
PAGE = (HERE.parents[1] / "docs" / "pages" / "clients.md").read_text()
DOCS_URL = "http://127.0.0.1:8000"
OPERATIONS = {
    operation["operationId"]: (path, method)
    for path, item in SPEC["paths"].items()
    for method, operation in item.items()
    if isinstance(operation, dict) and "operationId" in operation
}
# What the calls must have met between them: every kind of answer a client can provoke from one gunicorn
# (501 comes from nginx alone, 400 on a GET from a request line no client library writes).
STATUSES = {200, 206, 304, 400, 404, 412, 413, 414, 415, 416, 422, 431, 503}
SECONDS = 120  # the bound on each step: generation, install, compile, the calls


def section(title: str) -> str:
    found = re.search(rf"^## {title}\n(.*?)(?=^## |\Z)", PAGE, re.S | re.M)
    assert found, f"clients.md has no section {title}"
    return found.group(1)


def block(text: str, language: str) -> str:
    found = re.search(rf"```{language}\n(.*?)```", text, re.S)
    assert found, f"no {language} block"
    return found.group(1)


def live(text: str, server: harness.Server) -> str:
    return text.replace(DOCS_URL, server.url)


def run(command: list[str] | str, cwd: Path) -> str:
    done = subprocess.run(
        command,
        cwd=cwd,
        shell=isinstance(command, str),
        capture_output=True,
        text=True,
        timeout=SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.Server]:
    """gunicorn as deployed, one worker, on the session's tables: it answers 414 and 431 itself."""
    served = harness.start_gunicorn(tmp_path_factory.mktemp("clients-server"), workers=1)
    try:
        harness.wait_ready(served)
        yield served
    finally:
        served.kill()


@pytest.fixture(scope="module")
def python_client(server: harness.Server, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's commands: the pinned generator is the test extra's (pyproject), then generate."""
    install, generate = block(section("Python"), "sh").strip().splitlines()
    assert install == f"pip install openapi-python-client=={version('openapi-python-client')}"
    folder = tmp_path_factory.mktemp("python-client")
    generator = Path(sys.executable).with_name("openapi-python-client")
    run([str(generator), *live(generate, server).split()[1:]], folder)
    return folder


def npm_packages(cache: Path) -> Path:
    """node_modules with the page's pinned packages, installed once per set of versions."""
    install = block(section("TypeScript"), "sh").strip().splitlines()[0]
    assert re.fullmatch(r"npm install( [@a-z-]+@\d+\.\d+\.\d+)+", install), install
    key = re.sub(r"[^a-z0-9.]+", "-", install.removeprefix("npm install "))
    target = cache / key
    if (target / "node_modules" / ".bin" / "tsc").exists():
        return target / "node_modules"
    require("npm", "npm")
    partial = cache / f"{key}.{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    (partial / "package.json").write_text('{"private": true}\n')  # npm installs here, not in a parent
    done = subprocess.run(
        [*install.split(), "--no-audit", "--no-fund"],
        cwd=partial,
        capture_output=True,
        text=True,
        timeout=SECONDS,
    )
    if done.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        if not os.environ.get("CI") and not registry_reachable():
            pytest.skip(
                "the npm registry (registry.npmjs.org) is unreachable: the TypeScript client is not installed"
            )
        pytest.fail(f"{install}\n{done.stderr[-3000:]}")
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)  # whole or not at all: an interrupted install is never taken for a cache
    return target / "node_modules"


def registry_reachable() -> bool:
    try:
        socket.create_connection(("registry.npmjs.org", 443), timeout=5).close()
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def typescript_client(
    server: harness.Server, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The page's commands, as written, in a folder of their own that sees the cached packages; the
    every-operation script compiled beside the page's example."""
    require("node", "nodejs")
    pytest_cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider: install each run
    cache = pytest_cache.mkdir("sanmoku-npm") if pytest_cache else tmp_path_factory.mktemp("npm")
    folder = tmp_path_factory.mktemp("typescript-client")
    (folder / "node_modules").symlink_to(npm_packages(cache), target_is_directory=True)
    (folder / "analyze.mts").write_text(live(block(section("TypeScript"), "ts"), server))
    shutil.copy(HERE / "every_operation.mts", folder)
    return folder


@pytest.mark.slow
def test_the_python_example_prints_what_it_shows(python_client: Path, server: harness.Server) -> None:
    text = section("Python")
    (python_client / "example.py").write_text(live(block(text, "python"), server))
    assert run([sys.executable, "example.py"], python_client) == block(text, "text")


@pytest.mark.slow
def test_the_typescript_example_prints_what_it_shows(typescript_client: Path, server: harness.Server) -> None:
    text = section("TypeScript")
    _, generate, compile_and_run = block(text, "sh").strip().splitlines()
    run(live(generate, server), typescript_client)
    assert run(compile_and_run, typescript_client) == block(text, "text")


def check_calls(done: list[tuple[str, int]], failures: list[str]) -> None:
    assert failures == [], "\n".join(failures)
    assert {operation for operation, _ in done} == set(OPERATIONS)
    for operation, status in done:
        path, method = OPERATIONS[operation]
        assert str(status) in SPEC["paths"][path][method]["responses"], (
            f"{operation}: {status} is not documented"
        )
    assert {status for _, status in done} == STATUSES


@pytest.mark.slow
def test_the_python_client_calls_every_operation(python_client: Path, server: harness.Server) -> None:
    sys.path.insert(0, str(python_client))
    try:
        calls = call_every_operation("sanmoku_client", server.url)
    finally:
        sys.path.remove(str(python_client))
    check_calls(calls.done, calls.failures)


@pytest.mark.slow
def test_a_python_client_with_literal_enums_reads_the_search_statistics(
    server: harness.Server, tmp_path: Path
) -> None:
    """The generator's other enum style: an inline object in a `oneOf` once left its model unwritten, and
    every analysis then failed to import it (ModuleNotFoundError)."""
    (tmp_path / "config.yaml").write_text("literal_enums: true\n")
    generator = Path(sys.executable).with_name("openapi-python-client")
    spec = f"{server.url}/openapi.yaml"
    run([str(generator), "generate", "--url", spec, "--meta", "none", "--output-path", "literal_client",
         "--config", "config.yaml"], tmp_path)  # fmt: skip
    example = """
import sys
from literal_client import Client
from literal_client.api.analysis import analyze_post
from literal_client.models import AnalyzeRequest, SearchStats
client = Client(base_url=sys.argv[1])
table = analyze_post.sync(client=client, body=AnalyzeRequest(board="X...O...."))
search = analyze_post.sync(client=client, body=AnalyzeRequest(board="X...O....", source="search"))
print(table.result, table.search, search.source, isinstance(search.search, SearchStats))
"""
    (tmp_path / "example.py").write_text(example)
    assert run([sys.executable, "example.py", server.url], tmp_path) == "draw None search True\n"


@pytest.mark.slow
def test_the_typescript_client_calls_every_operation(typescript_client: Path, server: harness.Server) -> None:
    if not (
        typescript_client / "sanmoku.d.ts"
    ).exists():  # the example's test generates it, unless deselected
        run(live(block(section("TypeScript"), "sh").strip().splitlines()[1], server), typescript_client)
    tsc = typescript_client / "node_modules" / ".bin" / "tsc"
    run(
        [
            str(tsc),
            "--strict",
            "--module",
            "nodenext",
            "--target",
            "es2022",
            "--skipLibCheck",
            "every_operation.mts",
        ],
        typescript_client,
    )
    answer = json.loads(run(["node", "every_operation.mjs", server.url], typescript_client))
    check_calls([(operation, status) for operation, status in answer["done"]], answer["failures"])
