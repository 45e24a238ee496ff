"""The interactive API documentation renders the spec from local files only."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .conftest import ARTIFACTS

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page


def test_docs_render_every_operation_without_another_origin(page: Page, base_url: str) -> None:
    elsewhere: list[str] = []
    refused: list[str] = []  # what the page's Content-Security-Policy blocked, as Chromium reports it
    page.on("request", lambda r: None if r.url.startswith(base_url) else elsewhere.append(r.url))
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto("/docs/")
    page.wait_for_selector(".opblock-summary-path", state="attached")
    paths = set(page.locator(".opblock-summary-path").all_inner_texts())
    assert {"/analyze", "/analyze/batch", "/move", "/review", "/solve", "/variants"} <= {
        p.replace("\u200b", "").strip() for p in paths
    }
    # The UI runs, not only draws: an operation opens and "Try it out" reaches this origin.
    page.locator(".opblock-post").first.locator(".opblock-summary").click()
    page.get_by_role("button", name="Try it out").first.click()
    page.get_by_role("button", name="Execute").first.click()
    page.wait_for_selector(".live-responses-table .response-col_status", state="attached")
    assert elsewhere == []
    assert refused == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "docs.png"))


def test_try_it_out_calls_the_service_that_serves_the_docs(page: Page, base_url: str) -> None:
    """The spec's server is relative and its examples use `normal`: Execute works wherever this runs."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/analyze" in r.url or "/variants/" in r.url else None)
    page.goto("/docs/")
    for operation in ("analysis-analyzeGet", "analysis-variant"):
        block = f"#operations-{operation}"
        page.wait_for_selector(block, state="attached")
        page.click(f"{block} .opblock-summary")
        page.click(f"{block} .try-out__btn")
        page.click(f"{block} .execute")
        status = page.locator(f"{block} .live-responses-table .response .response-col_status")
        status.wait_for()
        assert status.inner_text().strip() == "200", operation
    assert len(sent) == 2 and all(url.startswith(base_url) for url in sent), sent
    assert "variant=normal" in sent[0] and sent[1] == f"{base_url}/variants/normal"
