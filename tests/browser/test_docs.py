"""The interactive API documentation renders the spec from local files only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .conftest import ARTIFACTS

if TYPE_CHECKING:
    from playwright.sync_api import Page


def test_docs_render_every_operation_without_another_origin(page: Page, base_url: str) -> None:
    elsewhere: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(base_url) else elsewhere.append(r.url))
    page.goto("/docs/")
    page.wait_for_selector(".opblock-summary-path", state="attached")
    paths = set(page.locator(".opblock-summary-path").all_inner_texts())
    assert {"/analyze", "/analyze/batch", "/move", "/review", "/solve", "/variants"} <= {
        p.replace("\u200b", "").strip() for p in paths
    }
    assert elsewhere == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "docs.png"))
