"""axe-core, pinned here: the copy axe-playwright-python 0.1.8 bundles is 4.12.1, where WCAG 2.5.3's
"label in name" rule (label-content-name-mismatch) is experimental and off. This is axe-core 4.14.1
from npm (`npm pack axe-core@4.14.1`, its axe.min.js and LICENSE, MPL-2.0), checked against the
sha256 that axe-core's own sri-history.json lists for it, and run with that rule on."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
AXE_FILE = Path(__file__).with_name("axe-core") / "axe.min.js"
AXE_SRI = "sha256-KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="  # axe-core's sri-history.json, 4.14.1
# Rules that axe-core leaves off by default or tags experimental, turned on for this page.
RULES_ON = {"label-content-name-mismatch": {"enabled": True}}


@cache
def pinned_axe() -> Axe:
    from axe_playwright_python.sync_playwright import Axe

    data = AXE_FILE.read_bytes()
    digest = "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()
    assert digest == AXE_SRI, f"{AXE_FILE} is not axe-core {AXE_VERSION}: {digest}"
    return Axe(axe_script=data.decode("utf-8"))


def axe_results(page: Page, context: str | None = None) -> dict[str, Any]:
    """axe-core's whole answer on the page as it stands (or within `context`, a selector)."""
    answer: dict[str, Any] = (
        pinned_axe()
        .run(page, context=context, options={"resultTypes": ["violations"], "rules": RULES_ON})
        .response
    )
    version = answer.get("testEngine", {}).get("version")
    assert version == AXE_VERSION, f"axe-core {version} ran, not {AXE_VERSION}"
    return answer
