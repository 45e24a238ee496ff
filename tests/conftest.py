"""Session-wide fixtures: one tables directory with the presets built once, the app and its client.

SANMOKU_TABLES_DIR points at that directory for the whole session, so that servers the tests start
(gunicorn, the CLI) find the same tables instead of building their own. The suite runs on two
pytest-xdist workers (pyproject's addopts): they share that directory (the store's locks let one
process build a table and the other wait for it); a file's tests run on one worker (`--dist loadfile`),
so what a module shares (a browser, a Ray cluster, a long comparison) is made once.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import DEFAULTS, create_app
from service.engine import PRESETS, Table, TableStore
from service.engine.tables.locks import file_lock
from tests import background

pytest_plugins = ["tests.ray_cluster"]  # a Ray cluster for the modules that ask, one each

WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # None in the controller, or when xdist is off
# A worker inherits the directory the controller made (its configure runs before workers start).
if WORKER:
    _SESSION_DIR = Path(os.environ["SANMOKU_TABLES_DIR"])
else:
    _SESSION_DIR = Path(tempfile.mkdtemp(prefix="sanmoku-test-tables-"))


# The shipped per-client limits (docs/pages/api.md), before the session turns them off below.
SHIPPED_RATE_LIMITS = DEFAULTS["RATE_LIMITS"]


def pytest_configure(config: pytest.Config) -> None:
    os.environ["SANMOKU_TABLES_DIR"] = str(_SESSION_DIR)
    if not WORKER:  # the workers inherit it
        os.environ[background.DIRECTORY_VARIABLE] = tempfile.mkdtemp(prefix="sanmoku-test-background-")
    # Every app and server of the suite answers one client, 127.0.0.1, thousands of times: the shipped
    # limits would refuse it. Off for them (the servers read the variable, the apps the defaults);
    # tests/http/test_rate_limits.py sets limits of its own.
    os.environ["SANMOKU_RATE_LIMITS"] = "off"
    DEFAULTS["RATE_LIMITS"] = "off"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The order the modules run in: the modules of most tests first, as pytest-xdist would sort them
    (so the page's modules, browsers, are spread among the engine's rather than two browsers at once,
    which slowed the page's tests by 176 s in all), and the checks of long comparisons last, whatever
    their size: their work runs meanwhile (tests/background.py). pyproject's addopts keep xdist from
    sorting again. The modules that measure latency alone on the host, small, meet at the end."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::")[0], []).append(item)
    checks = [name for name, its in modules.items() if hasattr(_module(its[0]), "start_in_background")]
    order = sorted((name for name in modules if name not in checks), key=lambda name: -len(modules[name]))
    items[:] = [item for name in order + checks for item in modules[name]]


def _module(item: pytest.Item) -> object:
    return getattr(item, "module", None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the long comparisons of the modules this session runs (see tests/background.py): every
    process knows them, the first to claim each runs it. `--collect-only` runs no test: none start."""
    if session.config.option.collectonly:
        return
    modules = dict.fromkeys(_module(item) for item in session.items)
    for module in modules:
        if hasattr(module, "start_in_background"):
            module.start_in_background()


@pytest.fixture(autouse=True)
def engine_log_level() -> Iterator[None]:
    """The engine's log level as it was: a command run in-process (`cache verify`, `cache stats`) quiets
    the engine's warnings, as its own process should, and a later test's caplog would see none."""
    logger = logging.getLogger("service.engine")
    level = logger.level
    yield
    logger.setLevel(level)


def pytest_unconfigure(config: pytest.Config) -> None:
    background.shut_down()
    if not WORKER:
        shutil.rmtree(_SESSION_DIR, ignore_errors=True)
        shutil.rmtree(background.directory(), ignore_errors=True)


@pytest.fixture(autouse=True)
def recursion_limit() -> Iterator[None]:
    """The recursion limit as it was before each test: the reference solvers raise it, and JSON nested
    1000 deep is "too deep" only under the default (tests/http/test_deep_json.py after tests/engine)."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


@pytest.fixture(scope="session", autouse=True)
def store() -> TableStore:
    """The session's tables: every preset built once (about two seconds), others on first use; so an
    app made anywhere in the tests finds its tables at start and builds nothing in the background."""
    built = TableStore(_SESSION_DIR)
    for variant in PRESETS:
        built.get(variant)
    return built


@pytest.fixture(scope="session")
def tables(store: TableStore) -> dict[str, Table]:
    return {variant.name: store.get(variant) for variant in PRESETS}


@pytest.fixture(scope="session")
def app(store: TableStore) -> Flask:
    return create_app({"TESTING": True, "TABLES_DIR": str(store.directory)})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def alone_on_the_host() -> Iterator[None]:
    """The tests that measure latency or a peak beside a load, one at a time across the session's
    workers: two side by side would each load both cores and measure the other's load as well."""
    with file_lock(_SESSION_DIR / ".latency-tests.lock"):
        yield
