"""Keys that always work, and the move list's smaller fixes: after a click on
the board the arrows step through the game; ↑ ↓ at a fork, Shift+← out of a variation, Space plays the
best proven move, f turns the board, ? lists the keys; Tab onto the board gives its arrows to the cells;
the skip link lands on the board; the move list is one Tab stop, numbers its variations' moves, and
deletes a main-line move."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .ui import analysing, api_get, axe_violations, board_after, move_texts, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page


def press(page: Page, key: str) -> None:
    page.keyboard.press(key)
    wait_idle(page)


def active_cell(page: Page) -> str | None:
    cell: str | None = page.evaluate("document.activeElement.dataset.cell ?? null")
    return cell


def test_the_game_keys_work_after_a_click_on_the_board(page: Page, base_url: str) -> None:
    analysing(page, "variant=4x4k3")
    for cell in (5, 6):
        page.click(f".cell[data-cell='{cell}']")
        wait_idle(page)
    assert active_cell(page) is not None  # the focus is on the board, as after any click there
    press(page, "ArrowLeft")
    assert state(page, "ply") == "1" and state(page, "moves") == "5,6"
    press(page, "ArrowRight")
    press(page, "Home")
    assert state(page, "ply") == "0"
    press(page, "End")
    assert state(page, "ply") == "2"
    # A fork: ↑ and ↓ switch between the moves tried after move 1, Shift+← leaves the variation.
    press(page, "ArrowLeft")
    page.click(".cell[data-cell='9']")
    wait_idle(page)
    press(page, "ArrowUp")
    assert state(page, "moves") == "5,6" and state(page, "ply") == "2"
    press(page, "ArrowDown")
    assert state(page, "moves") == "5,9"
    assert move_texts(page) == ["X→b2", "O→c2", "2. O→b3"]  # the variation's move has its number
    press(page, "Shift+ArrowLeft")
    assert state(page, "moves") == "5,6" and state(page, "ply") == "1"
    # Space: the lowest proven best move, as the service says.
    best = api_get(base_url, "/analyze", board=board_after([5], 16), variant="4x4k3")["best_moves"]
    press(page, "Space")
    assert state(page, "moves").split(",")[:2] == ["5", str(best[0])]
    # f turns the board round: the top-left cell is drawn bottom right.
    press(page, "f")
    corner = page.locator(".cell[data-cell='0']").bounding_box()
    other = page.locator(".cell[data-cell='15']").bounding_box()
    assert corner and other and corner["x"] > other["x"] and corner["y"] > other["y"]
    press(page, "f")
    press(page, "?")
    assert page.is_visible("#keys-dialog") and "Shift+←" in page.inner_text("#keys-list")
    assert axe_violations(page) == []
    press(page, "Escape")
    assert page.is_hidden("#keys-dialog")


def test_tab_onto_the_board_moves_between_cells_and_the_skip_link_lands_there(page: Page) -> None:
    analysing(page, "variant=4x4k3&moves=5,6")
    page.keyboard.press("Tab")  # the page's first stop
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    assert active_cell(page) is not None, "the skip link did not land on the board"
    start = active_cell(page)
    page.keyboard.press("ArrowRight")
    assert active_cell(page) == str(int(start or 0) + 1) and state(page, "ply") == "2"
    page.keyboard.press("Escape")  # the arrows are the game's again
    press(page, "ArrowLeft")
    assert state(page, "ply") == "1"


def test_the_move_list_is_one_tab_stop_and_deletes_from_any_move(page: Page) -> None:
    analysing(page, "variant=4x4k3&record=5,6(9,10),7&moves=5,6,7&ply=2")
    stops = page.eval_on_selector_all(
        "#move-list .ply-button", "bs => bs.filter(b => b.tabIndex === 0).map(b => b.dataset.path)"
    )
    assert stops == ["5,6"]  # the current move only
    page.focus("#move-list [aria-current='step']")
    press(page, "ArrowRight")
    assert page.evaluate("document.activeElement.dataset.path") == "5,6,7"
    # Delete from a main-line move: it goes with what follows it, and the variation becomes the line.
    page.click("#move-list [data-path='5,6']")
    wait_idle(page)
    page.click("#delete-from-here")
    wait_idle(page)
    assert state(page, "ply") == "1" and move_texts(page) == ["X→b2", "O→b3", "X→c3"]
    assert "Move 2 and what followed it are deleted." in page.inner_text("#status")


def test_after_a_variant_is_chosen_the_keys_play_on_the_board(page: Page) -> None:
    """The board takes the focus from the variant select: "4" then drops a disc in Connect Four's fourth
    column (the bottom cell, 38) instead of choosing the 4x4 board by the select's type-ahead."""
    page.goto("/?variant=normal")
    wait_idle(page)
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    # the keypad's names say nothing of rows and columns: the label says both
    centre = page.get_attribute(".cell[data-cell='4']", "aria-label") or ""
    assert centre.startswith("cell 5,") and "row 2 column 2" in centre
    page.focus("#variant")
    page.select_option("#variant", "connect4")
    page.wait_for_selector("#app[data-variant='connect4'][data-busy='false']")
    assert active_cell(page) is not None
    press(page, "4")
    assert page.input_value("#variant") == "connect4" and state(page, "moves") == "38"
