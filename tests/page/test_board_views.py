"""The new views in both colour schemes with axe-core (Connect Four, 8×8 with a search answer, 2×8 with
values), the analysis shown on a first visit, the values at the computer's turn while stepping back, and
the README's screenshots of a 5×5 and a Connect Four analysis."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .axe_core import axe_results
from .conftest import ARTIFACTS, DESKTOP
from .ui import analysing, open_link, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

LABEL_IN_NAME = "label-content-name-mismatch"  # WCAG 2.5.3: failed at any impact
IMG = Path(__file__).resolve().parents[2] / "service" / "static" / "img"
VIEWS = {
    "connect4": "variant=connect4&moves=38,31,37",
    "8x8-search": "variant=8x8k5&moves=27,28",
    "2x8-values": "variant=2x8k3&moves=0",
}


# Each scheme and each language once: the scheme sets the colours axe checks the contrast of, the
# language the words and labels; the other two pairs took 25 s of CI and check nothing these do not.
@pytest.mark.parametrize(("scheme", "locale"), [("light", "en-GB"), ("dark", "ja-JP")])
def test_axe_finds_no_serious_or_critical_violation_on_the_new_views(
    new_page: PageFactory, scheme: str, locale: str
) -> None:
    """In both colour schemes and both languages (the browser's locale chooses the page's), with the
    label-in-name rule: a cell's label holds the words it shows, "勝7" as "win 7"."""
    page = new_page(color_scheme=scheme, locale=locale)
    found: dict[str, Any] = {}
    for name, query in VIEWS.items():
        analysing(page, query)
        assert page.evaluate("document.documentElement.lang") == locale[:2]
        results = axe_results(page)
        found[name] = [(v["id"], v["impact"], len(v["nodes"])) for v in results["violations"]]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"axe-boards-{scheme}-{locale}.json").write_text(json.dumps(found, indent=2))
    bad = {
        name: [v for v in found[name] if v[1] in ("serious", "critical") or v[0] == LABEL_IN_NAME]
        for name in found
    }
    assert not any(bad.values()), bad


def test_a_first_visit_shows_the_analysis(page: Page) -> None:
    page.goto("/")
    wait_idle(page)
    assert page.is_checked("input[name='overlay'][value='values']")
    assert page.is_visible("#analysis") and page.is_visible("#ranked li")
    assert page.locator("#board .cell[data-result]").count() == 9


def test_stepping_back_shows_the_values_at_the_computers_turn(page: Page) -> None:
    open_link(page, "variant=normal&moves=4,0")  # you play X; after move 1 it was the computer's turn
    assert state(page, "to-move") == "X"
    page.click("#nav-back")
    wait_idle(page)
    assert state(page, "to-move") == "O" and state(page, "ply") == "1"
    assert page.locator("#board .cell[data-result]").count() == 8
    page.click("#nav-forward")
    wait_idle(page)
    assert page.locator("#board .cell[data-result]").count() == 7


SHOTS = [("5x5", "variant=5x5k4&moves=12,6,7"), ("connect4", VIEWS["connect4"])]


@pytest.mark.parametrize(("name", "query"), SHOTS)
def test_screenshots_for_the_readme(new_page: PageFactory, name: str, query: str) -> None:
    """A 5×5 and a Connect Four analysis at 1280×800, into the artifacts; the README's copies beside its
    4×4 screenshot (service/static/img/analysis-*.png) were taken by this test."""
    page = new_page(DESKTOP, color_scheme="light", reduced_motion="reduce")
    analysing(page, query)
    page.evaluate("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"analysis-{name}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert (IMG / f"analysis-{name}.png").exists(), "the README's screenshot is missing"
