"""A phone (375×667): the controls one plays with (the step buttons, the editor's button, the overlay's
choice) within one screen of the board's top; every column on the screen (cells of 44px up to five
columns, down to 34px past that), the page never scrolling sideways; the board pinned with the status
line and the step buttons over the tools that work on it, and over nothing else; and a new board
scrolled into view after a change of variant."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .conftest import PHONE
from .ui import open_link, play_board, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import FloatRect, Page

    from .conftest import PageFactory

CONTROLS = ["#nav-start", "#nav-end", "#new-game", "#undo", "#edit", ".overlay-choice"]
# What stays at the top of a phone's screen while a tool on the board is in use (tools.css).
PINNED = {"status": "#status", "board": "#board", "steps": ".nav"}
# The panels' scroll margin follows the pinned block through a ResizeObserver (app.js), a frame late.
PINNED_HEIGHT_KNOWN = """() => getComputedStyle(document.getElementById('app'))
    .getPropertyValue('--pinned-height')
    === `${Math.ceil(document.getElementById('pinned').offsetHeight)}px`"""


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


@pytest.mark.parametrize("variant", ["normal", "5x5k4", "connect4", "8x8k5"])
def test_the_controls_are_within_one_screen_of_the_board(new_page: PageFactory, variant: str) -> None:
    page = new_page(PHONE)
    open_link(page, f"variant={variant}&moves=0")
    board = box(page, "#board")
    for selector in CONTROLS:
        control = box(page, selector)
        reach = control["y"] + control["height"] - board["y"]
        assert reach <= PHONE["height"], f"{variant}: {selector} is {reach:.0f}px below the board's top"


@pytest.mark.parametrize(
    ("variant", "cols", "least"), [("connect4", 7, 34), ("8x8k5", 8, 34), ("5x5k4", 5, 44)]
)
def test_every_column_is_shown_and_nothing_scrolls_sideways(
    new_page: PageFactory, variant: str, cols: int, least: int
) -> None:
    """Up to five columns, no cell under 44px; past five, cells down to 34px (WCAG 2.5.8 asks 24px)
    so that every column is on the screen: an 8×8 board lost its 8th column past the edge."""
    page = new_page(PHONE)
    open_link(page, f"variant={variant}")
    sizes = page.eval_on_selector_all(
        "#board .cell", "cells => cells.map((c) => [c.offsetWidth, c.offsetHeight])"
    )
    assert min(min(size) for size in sizes) >= least, variant
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    frame = page.eval_on_selector("#board-frame", "f => [f.scrollWidth, f.clientWidth]")
    assert frame[0] <= frame[1], (variant, frame)
    last = box(page, f".cell[data-cell='{cols - 1}']")  # the first row's last column
    assert last["x"] >= 0 and last["x"] + last["width"] <= PHONE["width"], variant
    page.click(f".cell[data-cell='{cols * cols - 1 if variant == '8x8k5' else cols - 1}']")
    wait_idle(page)
    assert state(page, "moves") != "", variant


def pinned_parts(page: Page) -> dict[str, FloatRect]:
    return {name: box(page, selector) for name, selector in PINNED.items()}


@pytest.mark.parametrize("variant", ["normal", "connect4", "8x8k5"])
def test_the_pinned_board_keeps_the_status_and_steps_and_covers_nothing(
    new_page: PageFactory, variant: str
) -> None:
    """Scrolled to a tool that works on the board, the board stays at the top with the status line over
    it and the step buttons under it, none covering another, and the tool starts under them; scrolled
    on to the search tree and the settings, the board has gone up with the page: nothing is under it."""
    page = new_page(PHONE, reduced_motion="reduce")
    open_link(page, f"variant={variant}&moves=0")
    page.wait_for_function(PINNED_HEIGHT_KNOWN)
    for tool in ("#moves", "#analysis"):
        page.eval_on_selector(tool, "t => t.scrollIntoView({ block: 'start' })")
        page.wait_for_timeout(100)
        parts, shown = pinned_parts(page), box(page, tool)
        status, board, steps = parts["status"], parts["board"], parts["steps"]
        assert page.evaluate("window.scrollY") > 0, tool  # the page did scroll: the board is pinned
        assert status["y"] >= -1 and status["y"] + status["height"] <= board["y"], (tool, parts)
        assert board["y"] + board["height"] <= steps["y"], (tool, parts)
        assert steps["y"] + steps["height"] <= shown["y"] + 1, (tool, parts, shown)
        assert shown["y"] < PHONE["height"] - 150, f"{tool}: less than 150px left under the board"
        assert page.is_visible("#nav-back") and page.is_visible("#status-prompt")
    for tool in ("#search-tree", "section.settings"):
        page.eval_on_selector(tool, "t => t.scrollIntoView({ block: 'start' })")
        page.wait_for_timeout(100)
        pinned, shown = box(page, "#pinned"), box(page, tool)
        assert pinned["y"] + pinned["height"] <= shown["y"] + 1, (tool, pinned, shown)
        assert shown["y"] < 20, tool  # scrolled to the top of the screen, with nothing over it


def test_a_new_variant_and_another_board_scroll_the_board_into_view(new_page: PageFactory) -> None:
    page = new_page(PHONE, reduced_motion="reduce")
    open_link(page, "variant=normal")
    page.select_option("#variant", "connect4")
    page.wait_for_selector("#app[data-variant='connect4'][data-busy='false']")
    page.wait_for_function("() => document.getElementById('board').getBoundingClientRect().top < 667")
    board = box(page, "#board")
    assert board["y"] >= 0 and board["y"] + board["height"] <= PHONE["height"]
    page.click("#custom summary")
    play_board(page, 5, 5, 4)
    page.wait_for_function("() => document.getElementById('board').getBoundingClientRect().top < 667")
    board = box(page, "#board")
    assert board["y"] >= 0 and board["y"] + board["height"] <= PHONE["height"]
