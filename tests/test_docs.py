"""The README and the documentation pages: their curl examples are run verbatim against a live server
and must print what they show, their engine example runs as written, the policy strength table is what
the engine measures, and the site builds with `mkdocs build --strict` (a broken link fails)."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from service.app import create_app
from service.engine import Table, TableStore, measure_strength, strength_table
from tests.docs_readers import readers
from tests.requires import require

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted((DOCS / "pages").glob("*.md"))]
EXAMPLE = re.compile(r"```sh\n(curl [^\n]*)\n```\n```text\n(.*?)\n```", re.S)
EXAMPLES = [(page.name, *found) for page in PAGES for found in EXAMPLE.findall(page.read_text())]


class QuietHandler(WSGIRequestHandler):
    def log(self, type: str, message: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server(store: TableStore, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BaseWSGIServer]:
    """A server as a reader starts one: the session's tables and books (linked, not built again), and a
    cache of proven positions of its own, not the one every other test has written to (after a whole
    run its /readyz once said "degraded"; a reader's fresh server says "ready")."""
    tables = tmp_path_factory.mktemp("docs-tables")
    for path in [*store.directory.glob("*.table"), store.directory / "books"]:
        if path.exists():
            (tables / path.name).symlink_to(path)
    app = create_app({"TABLES_DIR": str(tables)})
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    thread.join(timeout=10)


def test_the_docs_have_examples_of_every_endpoint() -> None:
    commands = " ".join(command for _, command, _ in EXAMPLES)
    for path in ("/analyze", "/analyze/batch", "/solve", "/variants", "/move", "/review", "/record", "/tree",
                 "/healthz", "/readyz", "/docs"):  # fmt: skip
        assert f"8000{path}" in commands, path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "command", "shown"), EXAMPLES, ids=[f"{p}:{c[:50]}" for p, c, _ in EXAMPLES]
)
def test_example_prints_what_it_shows(server: BaseWSGIServer, page: str, command: str, shown: str) -> None:
    require("curl")
    live = command.replace("127.0.0.1:8000", f"127.0.0.1:{server.server_port}")
    done = subprocess.run(["bash", "-c", live], capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.replace("\r", "").rstrip() == shown.rstrip()


@pytest.mark.slow
def test_the_policy_strength_table_is_what_the_engine_measures(tables: dict[str, Table]) -> None:
    classic = {name: tables[name] for name in ("normal", "misere")}
    assert strength_table(measure_strength(classic)) in (DOCS / "pages" / "api.md").read_text()


def test_the_engine_example_runs_as_written() -> None:
    page = (DOCS / "pages" / "engine.md").read_text()
    block = re.search(r"```python\n(>>> .*?)```", page, re.S)
    assert block is not None, "the engine page has a doctest block"
    examples = doctest.DocTestParser().get_doctest(block.group(1), {}, "engine", "engine.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(examples)
    assert runner.failures == 0 and runner.tries >= 5


@pytest.mark.slow
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(DOCS / "mkdocs.yml")]
    done = subprocess.run(
        [*command, "--site-dir", str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "index.html").exists() and (tmp_path / "img" / "screenshot.png").exists()


def test_the_docs_server_and_the_service_take_different_ports() -> None:
    """`mkdocs serve` beside `sanmoku serve` on one machine: both defaulted to 8000 once. (The server's
    configuration is read, not imported: importing it sets up the metrics' folder.)"""
    served = re.findall(r'"SANMOKU_BIND", "([^"]+)"', (ROOT / "service" / "gunicorn_conf.py").read_text())
    config = yaml.safe_load((DOCS / "mkdocs.yml").read_text())
    assert served == ["127.0.0.1:8000"] and config["dev_addr"] == "127.0.0.1:8001"


def test_the_packaged_books_are_the_ones_the_docs_list() -> None:
    """`sanmoku book list` on a fresh install shows every packaged book: the example shows them all."""
    packaged = {path.stem for path in (ROOT / "service" / "engine" / "books" / "data").glob("*.book")}
    page = (DOCS / "pages" / "books.md").read_text()
    shown = set(re.findall(r"books/data/([^/\s]+)\.book", page))
    assert shown == packaged


def test_the_readme_is_short_and_links_only_to_what_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 220
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


CITATION = re.compile(r"\b[Ii]ssues? #?\d|\bBug \d")
CITABLE = ("*.md", "*.py", "*.c", "*.h", "*.js", "*.css", "*.html", "*.yaml", "*.yml", "*.conf")


def test_no_file_cites_the_trackers_issue_numbers() -> None:
    """A reader of the repository cannot see the tracker, so a page, comment or docstring says the reason
    instead of an issue's number (17 comments and 28 places in the docs did, besides the tests)."""
    places = [ROOT / "README.md", ROOT / "openapi.yaml", ROOT / "Dockerfile", ROOT / "docker-compose.yml"]
    for folder in ("docs", "service", "tests", "deploy", ".ci"):
        places += [
            p for pattern in CITABLE for p in (ROOT / folder).rglob(pattern) if "__pycache__" not in p.parts
        ]
    places += [p for p in (ROOT / ".ci").iterdir() if p.is_file()]
    cited = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted(set(places))
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if CITATION.search(line)
    ]
    assert not cited, "\n".join(cited)


def test_every_page_is_for_one_reader() -> None:
    """The navigation has three parts, Use, Operate and Internals, and every page is in one of them (the
    word counts per reader, `python -m tests.docs_readers`, read the parts from it)."""
    nav = yaml.safe_load((DOCS / "mkdocs.yml").read_text())["nav"]
    assert [next(iter(part)) for part in nav] == ["Use", "Operate", "Internals"]
    assert sorted(readers(None)) == sorted(page.name for page in (DOCS / "pages").glob("*.md"))
