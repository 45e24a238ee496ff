"""Computer against computer with a pause, and a phone that keeps the board beside
the tool in use, with no word of keys on a touch screen."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from .conftest import PHONE
from .ui import axe_violations, open_link, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import FloatRect, Page

    from .conftest import PageFactory

GAME_OVER = "() => ['x_won', 'o_won', 'draw'].includes(document.getElementById('app').dataset.status)"


# The panels' scroll margin follows the pinned block (the status line, the board, the step buttons)
# through a ResizeObserver (app.js), a frame late: scrolled before it has, a panel stops under the
# block's old height (CI once: 37 px, the rack's head).
BOARD_HEIGHT_KNOWN = """() => getComputedStyle(document.getElementById('app'))
    .getPropertyValue('--pinned-height')
    === `${Math.ceil(document.getElementById('pinned').offsetHeight)}px`"""


def plies(page: Page) -> int:
    return len([cell for cell in state(page, "moves").split(",") if cell])


def test_computer_against_computer_plays_pauses_and_goes_on(page: Page) -> None:
    open_link(page, "variant=normal")
    page.select_option("#policy", "random")  # any strength: the policy plays both sides
    wait_idle(page)
    page.check("input[name='mode'][value='computers']")
    page.wait_for_function("() => document.getElementById('app').dataset.moves.split(',').length >= 2")
    assert "Computer against computer (random on both sides)" in page.inner_text("#mode-words")
    page.click("#pause")
    wait_idle(page)
    paused = state(page, "moves")
    time.sleep(1.0)  # more than a move's pace: nothing is played while paused
    assert state(page, "moves") == paused and page.inner_text("#pause") == "Go on"
    assert page.is_hidden("#play-on") and axe_violations(page) == []
    free = state(page, "board").index(".")
    page.click(f".cell[data-cell='{free}']")
    wait_idle(page)  # while paused a person may move for the side to move
    assert plies(page) == len(paused.split(",")) + 1
    page.click("#pause")
    page.wait_for_function(GAME_OVER, timeout=20_000)
    assert "Game over" in page.inner_text("#status") and page.inner_text("#pause") == "Pause"


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def test_on_a_phone_the_board_stays_beside_the_tool_in_use(new_page: PageFactory) -> None:
    page = new_page(PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce")
    open_link(page, "variant=connect4&pos=44")
    assert page.is_hidden("#keys-button") and page.is_hidden("#keys-help")  # no keys on a touch screen
    page.click("#edit")
    board, marks = box(page, "#board"), box(page, "#editor fieldset")
    # The board at the top of the screen, the marks to paint with right under it.
    assert board["y"] >= -1 and board["y"] + board["height"] <= marks["y"]
    assert marks["y"] + marks["height"] <= PHONE["height"]
    page.tap(".cell[data-cell='0']")
    assert page.get_attribute(".cell[data-cell='0']", "data-mark") == "X"
    page.click("#editor-cancel")
    wait_idle(page)  # the position back, with the rack's head over the columns
    # Scrolled to the move list, the board stays in view above it; the settings work on no board, and
    # the board has gone up with the page there.
    page.wait_for_function(BOARD_HEIGHT_KNOWN)
    page.eval_on_selector("#moves", "t => t.scrollIntoView({ block: 'start' })")
    page.wait_for_timeout(100)
    board, steps, shown = box(page, "#board"), box(page, ".nav"), box(page, "#moves")
    assert board["y"] >= -1 and steps["y"] + steps["height"] <= PHONE["height"] - 150
    assert shown["y"] >= steps["y"] + steps["height"] - 1 and shown["y"] < PHONE["height"]
    page.eval_on_selector("section.settings", "t => t.scrollIntoView({ block: 'start' })")
    page.wait_for_timeout(100)
    assert box(page, "#board")["y"] + box(page, "#board")["height"] <= box(page, "section.settings")["y"]
