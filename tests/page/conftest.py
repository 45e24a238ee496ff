"""Fixtures for the browser tests: the real app on a loopback port and Debian's headless Chromium.

Outside CI the tests skip when Chromium or the playwright package is missing; in CI (CI set to true)
they fail instead, so that a runner without a browser cannot pass them by skipping.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from werkzeug.serving import WSGIRequestHandler, make_server

from service.app import create_app

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, ViewportSize

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"
PHONE: ViewportSize = {"width": 375, "height": 667}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
TIMEOUT_MS = 10_000
FAILED = pytest.StashKey[bool]()


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(reason: str) -> None:
    if in_ci():
        pytest.fail(f"browser tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


class QuietRequestHandler(WSGIRequestHandler):
    """Logs errors but not every request: a game makes dozens of them."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    """create_app() served by werkzeug on 127.0.0.1 and a free port, in a thread, for the session.

    Its searches take the shipped default budget: some tests read proofs that a smaller one does not
    always reach (a 15x15 loss in 2 came back unknown at 250 ms, a loss without its distance at 500)."""
    server = make_server("127.0.0.1", 0, create_app(), threaded=True, request_handler=QuietRequestHandler)
    thread = threading.Thread(target=server.serve_forever, name="browser-test-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True, timeout=30_000
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[FAILED] = report.failed
    return report


class PageFactory:
    """Opens pages in fresh browser contexts (a viewport, a colour scheme) and watches them: uncaught
    script errors and Content-Security-Policy violations are collected for the test to fail on."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser, self.base_url = browser, base_url
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def __call__(self, viewport: ViewportSize = DESKTOP, **options: Any) -> Page:
        # The page's service worker (offline 3x3) answers requests itself, and page.route() never sees
        # those: it is blocked unless a test asks for it (service_workers="allow").
        options.setdefault("service_workers", "block")
        context = self.browser.new_context(viewport=viewport, base_url=self.base_url, **options)
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        opened = context.new_page()
        opened.on("pageerror", lambda error: self.errors.append(str(error)))
        opened.on("console", self._console)
        return opened

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def new_page(browser: Browser, base_url: str, request: pytest.FixtureRequest) -> Iterator[PageFactory]:
    """Pages on the app; a failed test leaves a screenshot of each, and script errors fail the test."""
    factory = PageFactory(browser, base_url)
    try:
        yield factory
        if request.node.stash.get(FAILED, False):
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            for index, context in enumerate(factory.contexts):
                for opened in context.pages:
                    shot = ARTIFACTS / f"failed-{request.node.name}-{index}.png"
                    opened.screenshot(path=str(shot), full_page=True)
    finally:
        factory.close()
    assert not factory.errors, f"the page threw or broke its CSP: {factory.errors}"


@pytest.fixture
def page(new_page: PageFactory) -> Page:
    """A fresh desktop-size page on the app."""
    return new_page()
