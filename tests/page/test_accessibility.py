"""Accessibility and layout: axe-core (through axe-playwright-python) on the main views in both colour
schemes, the focus ring's contrast, the board in forced colours, and screenshots of a 4×4 analysis on a
desktop and a phone."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest

from .axe_core import axe_results
from .conftest import ARTIFACTS, DESKTOP, PHONE
from .ui import open_link, show_overlay, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

SCHEMES = ["light", "dark"]
# A 4×4 game with every verdict but one, shown at its third move (O to move: wins, draws and losses).
ANALYSIS = "variant=4x4k3&first=X&moves=2,4,15,12,5,1,3,13,8&ply=3"


def humans(page: Page) -> None:
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)


def analysis_view(page: Page) -> None:
    start_view(page)
    humans(page)
    show_overlay(page)
    open_link(page, ANALYSIS)
    page.click("#mainline-button")
    page.wait_for_selector("#mainline[data-state='ready']")
    page.wait_for_selector("#review[data-state='ready']")


def finished_view(page: Page) -> None:
    open_link(page, "variant=misere&moves=0,3,1,4,2")
    page.wait_for_selector("#review[data-state='ready']")


def editor_view(page: Page) -> None:
    open_link(page, "variant=3x3k3-torus")
    page.click("#edit")
    for cell in (0, 1):
        page.click(f".cell[data-cell='{cell}']")
    page.click("#editor-analyse")
    page.wait_for_selector("#editor-error:not([hidden])")


def start_view(page: Page) -> None:
    page.goto("/")
    wait_idle(page)


VIEWS = {"start": start_view, "analysis": analysis_view, "finished": finished_view, "editor": editor_view}


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_axe_finds_no_serious_or_critical_violation(new_page: PageFactory, scheme: str, locale: str) -> None:
    """axe-core 4.14 (pinned in tests/page/axe-core) on every view, in both colour schemes and both
    languages (the browser's locale chooses the page's), with WCAG 2.5.3's label-in-name rule on: any
    violation of it fails, as does any other serious or critical one."""
    page = new_page(color_scheme=scheme, locale=locale)
    found: dict[str, Any] = {}
    for name, open_view in VIEWS.items():
        open_view(page)
        assert page.evaluate("document.documentElement.lang") == locale[:2], name
        results = axe_results(page)
        found[name] = {
            "violations": [(v["id"], v["impact"], len(v["nodes"])) for v in results["violations"]],
            "incomplete": [
                (v["id"], [(n["target"], n["any"][0]["message"] if n["any"] else "") for n in v["nodes"]])
                for v in results.get("incomplete", [])
            ],
        }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"axe-{scheme}-{locale}.json").write_text(json.dumps(found, indent=2))
    bad = {
        name: [
            v
            for v in views["violations"]
            if v[1] in ("serious", "critical") or v[0] == "label-content-name-mismatch"
        ]
        for name, views in found.items()
    }
    assert not any(bad.values()), bad


def rgb(colour: str) -> tuple[float, float, float]:
    numbers = [float(n) for n in re.findall(r"[\d.]+", colour)[:3]]
    return numbers[0], numbers[1], numbers[2]


def luminance(colour: str) -> float:
    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_focus_ring_differs_from_the_best_marker_with_3_to_1_contrast(
    new_page: PageFactory, scheme: str
) -> None:
    page = new_page(color_scheme=scheme)
    open_link(page, "variant=4x4k3&moves=5")
    humans(page)
    show_overlay(page)
    page.focus("#new-game")
    for _ in range(20):  # Tab round to the board's one stop, as a keyboard user would
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.classList.contains('cell')"):
            break
    styles = page.evaluate(
        """() => {
            const cell = document.activeElement;
            const best = document.querySelector(".cell.best:not(:focus)");
            const look = (element) => getComputedStyle(element);
            return {
                focusVisible: cell.matches(":focus-visible"),
                outline: [look(cell).outlineStyle, look(cell).outlineWidth, look(cell).outlineColor],
                cellBackground: look(cell).backgroundColor,
                boardBackground: look(document.getElementById("board")).backgroundColor,
                pageBackground: look(document.documentElement).backgroundColor,
                bestMarker: look(best).boxShadow,
                bestOutline: look(best).outlineStyle,
            };
        }"""
    )
    assert styles["focusVisible"], "Tab did not reach the board"
    style, width, colour = styles["outline"]
    assert style == "solid" and float(width.rstrip("px")) >= 2
    for behind in ("cellBackground", "boardBackground", "pageBackground"):
        assert contrast(colour, styles[behind]) >= 3, (behind, colour, styles[behind])
    # The best move is marked inside the cell (an inset ring and ★), in another colour; never an outline.
    marker = re.search(r"rgba?\([^)]*\)", styles["bestMarker"])
    assert marker and "inset" in styles["bestMarker"] and styles["bestOutline"] == "none"
    assert rgb(marker.group(0)) != rgb(colour)


def test_the_board_its_lines_and_highlights_stay_visible_in_forced_colours(new_page: PageFactory) -> None:
    page = new_page(forced_colors="active")
    open_link(page, "variant=normal&moves=4,1,0,8,6,2,3")
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "forced-colours-over.png"), full_page=True)
    looks = page.evaluate(
        """() => {
            const border = (selector) => {
                const s = getComputedStyle(document.querySelector(selector));
                return [s.borderTopStyle, parseFloat(s.borderTopWidth), s.borderTopColor];
            };
            return { cell: border(".cell:not(.line)"), line: border(".cell.line"), board: border("#board") };
        }"""
    )
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    humans(page)
    show_overlay(page)
    looks["best"] = page.evaluate(
        """() => {
            const s = getComputedStyle(document.querySelector(".cell.best"));
            return [s.borderTopStyle, parseFloat(s.borderTopWidth), s.borderTopColor];
        }"""
    )
    page.screenshot(path=str(ARTIFACTS / "forced-colours-analysis.png"), full_page=True)
    for name, (style, width, colour) in looks.items():
        transparent = re.fullmatch(r"rgba\(.*,\s*0\)", colour)
        assert style != "none" and width >= 1 and not transparent, (name, style, width, colour)
    # The line and the best moves are told apart from a plain cell by the border's style and width.
    assert looks["line"][:2] != looks["cell"][:2] and looks["best"][:2] != looks["cell"][:2]
    assert looks["line"][0] != looks["best"][0]


@pytest.mark.parametrize(("name", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_screenshots_of_a_4x4_analysis(new_page: PageFactory, name: str, viewport: Any) -> None:
    page = new_page(viewport)
    analysis_view(page)
    page.evaluate("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"analysis-4x4-{name}.png"))
    page.screenshot(path=str(ARTIFACTS / f"analysis-4x4-{name}-full.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"{name}: the page scrolls sideways ({width}px)"
    board = page.locator("#board").bounding_box()
    assert board is not None
    assert board["x"] >= 0 and board["x"] + board["width"] <= viewport["width"]
    assert board["y"] + board["height"] <= viewport["height"], f"{name}: the board is cut off"
    cell = page.locator("#board .cell").first.bounding_box()
    assert cell is not None and cell["width"] >= 44 and cell["height"] >= 44, f"{name}: cells too small"
