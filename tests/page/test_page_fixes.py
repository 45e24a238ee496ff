"""The page's bugs, each as it was seen: the editor's Analyse no longer changes the saved settings (and
the page says which mode it is in), the editor works out the side to move and says it once, unticking
the number keys does not make a waiting computer move, "1 mark", and /docs pre-fills neither to_move
nor a shared request id."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from .ui import api_problem, open_link, show_overlay, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request


def saved(page: Page) -> dict[str, object]:
    kept: dict[str, object] = json.loads(page.evaluate("localStorage.getItem('sanmoku.settings') || '{}'"))
    return kept


def test_analysing_a_set_up_position_keeps_the_saved_settings_and_says_the_mode(page: Page) -> None:
    open_link(page, "variant=4x4k3")
    show_overlay(page, "off")
    before = saved(page)
    assert before["mode"] == "computer" and before["overlay"] == "off" and before["first"] == "X"
    assert "against the computer" in page.inner_text("#mode-words")
    page.click("#edit")
    page.click(".cell[data-cell='0']")  # one X: O is to move, worked out from the marks
    assert page.is_checked("input[name='editor-to-move'][value='O']")
    page.click("#editor-analyse")
    page.wait_for_selector("#app[data-editing='false'][data-busy='false']")
    assert state(page, "to-move") == "O"
    status = page.inner_text("#status")
    assert status.count("O to move") == 1 and "Position set up." in status, status
    # Two players and the values for this page, said above the board; the device keeps what it had.
    assert page.is_checked("input[name='mode'][value='humans']")
    assert page.locator("#board .cell[data-result]").count() > 0
    assert "Analysing a set-up position" in page.inner_text("#mode-words")
    assert saved(page) == before
    # A setting changed by hand is kept, the others stay as they were saved.
    page.uncheck("#shortcuts")
    wait_idle(page)
    assert saved(page) == {**before, "shortcuts": False}
    page.click("#mode-back")
    wait_idle(page)
    assert page.is_checked("input[name='mode'][value='computer']")
    assert page.is_checked("input[name='overlay'][value='off']")
    assert page.is_hidden("#mode-back") and "against the computer" in page.inner_text("#mode-words")
    # New game after an analysis: the saved settings again, and the saved first player, not
    # the set-up position's side to move.
    page.click("#edit")
    page.click("#editor-clear")
    page.click(".cell[data-cell='5']")  # one X: O is to move
    page.click("#editor-analyse")
    page.wait_for_selector("#app[data-editing='false'][data-busy='false']")
    assert page.is_visible("#mode-back") and state(page, "to-move") == "O"
    page.click("#new-game")
    wait_idle(page)
    assert page.is_checked("input[name='mode'][value='computer']") and page.is_hidden("#mode-back")
    assert page.input_value("#first") == "X" and state(page, "to-move") == "X"
    assert state(page, "board") == "." * 16 and saved(page)["first"] == "X"


def test_the_editor_says_a_mark_not_1_marks(page: Page, base_url: str) -> None:
    problem = api_problem(base_url, "/analyze", board="X........", to_move="X", variant="normal")
    assert "X has 1 mark and O has 0" in problem["detail"]
    open_link(page, "variant=normal")
    page.click("#edit")
    page.click(".cell[data-cell='4']")
    page.check("input[name='editor-to-move'][value='X']")  # against the marks: the service refuses
    page.click("#editor-analyse")
    page.wait_for_selector("#editor-error:not([hidden])")
    assert "1 mark and" in page.inner_text("#editor-error")


def test_unticking_the_number_keys_does_not_make_a_waiting_computer_move(page: Page) -> None:
    open_link(page, "variant=normal&moves=4")  # O, the computer, waits after a link
    page.uncheck("#shortcuts")
    wait_idle(page)
    page.wait_for_timeout(300)
    assert state(page, "moves") == "4" and "The computer (O) played" not in page.inner_text("#status")
    assert "keypad" not in page.inner_text("#keys-help")


def test_docs_answer_a_board_typed_on_its_own_with_no_shared_request_id(page: Page) -> None:
    sent: list[Request] = []
    page.on("request", lambda r: sent.append(r) if "/analyze" in r.url else None)
    page.goto("/docs/")
    block = "#operations-analysis-analyzeGet"
    page.wait_for_selector(block, state="attached")
    page.click(f"{block} .opblock-summary")
    page.click(f"{block} .try-out__btn")
    row = f"{block} tr[data-param-name='%s']"
    assert page.input_value(f"{row % 'to_move'} input") == ""  # a pattern's text box, left empty
    assert page.input_value(f"{row % 'X-Request-ID'} input") == ""
    page.fill(f"{row % 'board'} input", "XX..O....")  # O to move, which the service works out
    page.click(f"{block} .execute")
    status = page.locator(f"{block} .live-responses-table .response .response-col_status")
    status.wait_for()
    assert status.inner_text().strip() == "200"
    assert sent and "to_move" not in sent[-1].url
    assert "x-request-id" not in sent[-1].headers
