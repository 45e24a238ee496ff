"""A phone (375×667): the controls one plays with (the step buttons, the editor's button, the overlay's
choice) within one screen of the board's top, no cell under 44px (an 8-column board scrolls sideways in
its frame, the page never does), and a new board scrolled into view after a change of variant."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .conftest import PHONE
from .ui import open_link, play_board, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import FloatRect, Page

    from .conftest import PageFactory

CONTROLS = ["#nav-start", "#nav-end", "#new-game", "#undo", "#edit", ".overlay-choice"]


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


@pytest.mark.parametrize(("variant", "scrolls"), [("connect4", False), ("8x8k5", True), ("5x5k4", False)])
def test_no_cell_under_44px_and_only_the_board_scrolls_sideways(
    new_page: PageFactory, variant: str, scrolls: bool
) -> None:
    page = new_page(PHONE)
    open_link(page, f"variant={variant}")
    sizes = page.eval_on_selector_all(
        "#board .cell", "cells => cells.map((c) => [c.offsetWidth, c.offsetHeight])"
    )
    assert min(min(size) for size in sizes) >= 44, variant
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    frame = page.eval_on_selector("#board-frame", "f => [f.scrollWidth, f.clientWidth]")
    assert (frame[0] > frame[1]) == scrolls, (variant, frame)
    if scrolls:  # the last column can be reached
        page.eval_on_selector("#board-frame", "f => { f.scrollLeft = f.scrollWidth; }")
        page.click(".cell[data-cell='63']")
        wait_idle(page)
        assert "63" in page.get_attribute("#app", "data-moves")  # type: ignore[operator]


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
