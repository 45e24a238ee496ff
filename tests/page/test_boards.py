"""Larger boards: Connect Four played by columns (keys and clicks) to the end against the perfect
computer, the mark's fall, cells never under 44px, an 8-column board's words, the search's answers shown
for what they are (estimates, the source, a progress bar) and the moves ranked beside the board."""

from __future__ import annotations

import itertools
import random
import time
from typing import TYPE_CHECKING

import pytest

from .ui import api_get, open_link, show_overlay, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

COLS, ROWS = 7, 6


def lowest_empty(board: str, col: int) -> int | None:
    for row in range(ROWS - 1, -1, -1):
        if board[row * COLS + col] == ".":
            return row * COLS + col
    return None


def test_connect_four_is_played_by_columns_to_the_end_against_perfect(page: Page) -> None:
    """The human (X) picks columns, by the number keys and by clicks on the top cell of a column; the
    computer answers every move, searched or exact. Perfect play wins against random columns in a few
    dozen plies, which keeps the test to about a minute. A searched game is reviewed once, at its end
    (a review after every move searched the whole game again each time)."""
    reviews: list[str] = []
    page.on("request", lambda asked: reviews.append(asked.url) if asked.url.endswith("/review") else None)
    open_link(page, "variant=connect4")
    assert page.locator("#board .cell").count() == ROWS * COLS
    assert "into the columns a to g" in page.inner_text("#keys-help")
    rng = random.Random("connect4")
    started = time.monotonic()
    for turn in range(ROWS * COLS // 2):
        if state(page, "status") != "in_progress":
            break
        board = state(page, "board")
        assert state(page, "to-move") == "X", "the computer has not answered"
        # Only the lowest empty cell of each column is offered.
        offered = sorted(
            int(c)
            for c in page.eval_on_selector_all(
                "#board .cell[data-offered='true']", "cells => cells.map(c => c.dataset.cell)"
            )
        )
        open_cols = [col for col in range(COLS) if lowest_empty(board, col) is not None]
        assert offered == sorted(lowest_empty(board, col) for col in open_cols)  # type: ignore[type-var]
        col = rng.choice(open_cols)
        if turn % 2 == 0:
            page.focus("#new-game")  # the number keys work anywhere but in a form control
            page.keyboard.press(str(col + 1))
        else:
            page.click(f".cell[data-cell='{col}']")  # the top cell: the mark falls to the bottom
        wait_idle(page)
        after = state(page, "board")
        assert after[lowest_empty(board, col)] == "X", (col, board, after)  # type: ignore[index]
    status = state(page, "status")
    assert status in ("o_won", "draw"), f"the game did not end or the human won: {status}"
    # The review of the game may wait for the service's search slots a moment: the status says so first.
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('Game over')", timeout=30_000
    )
    assert time.monotonic() - started < 120
    page.wait_for_selector("#review[data-state='ready']")
    assert len(reviews) == 1, reviews  # none while it was played, one once it ended


def test_the_mark_falls_and_a_full_column_is_said(page: Page) -> None:
    open_link(page, "variant=connect4&moves=38,31,24,17,10")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    page.click(".cell[data-cell='3']")  # column d has one cell left: its top
    wait_idle(page)
    top = page.locator(".cell[data-cell='3']")
    assert top.get_attribute("data-mark") == "O"
    assert "dropped" in (top.get_attribute("class") or "")
    falling = "m => getComputedStyle(m).animationName"
    assert page.eval_on_selector(".cell[data-cell='3'] .cell-mark", falling) == "drop"
    assert page.get_attribute(".cell[data-cell='10']", "aria-disabled") == "true"
    page.focus("#new-game")
    page.keyboard.press("4")  # X's key for column d, now full
    assert "column d is full" in page.inner_text("#status")
    assert state(page, "moves") == "38,31,24,17,10,3"


def test_no_motion_when_the_reader_prefers_less(new_page: PageFactory) -> None:
    page = new_page(reduced_motion="reduce")
    open_link(page, "variant=connect4")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    page.click(".cell[data-cell='0']")
    wait_idle(page)
    name = page.eval_on_selector(".cell[data-cell='35'] .cell-mark", "m => getComputedStyle(m).animationName")
    assert name == "none"


def test_an_8_column_board_keeps_its_words_apart(page: Page) -> None:
    """On a 2×8 board the cells' names overlapped the values and "★ best" was clipped, and the main
    line's numbers covered the values."""
    open_link(page, "variant=2x8k3")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page)
    for main_line in (False, True):
        if main_line:
            page.click("#mainline-button")
            page.wait_for_selector("#mainline[data-state='ready']")
            assert page.locator("#board .cell[data-plan]").count() > 0
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('#board .cell')].map((cell) => {
                const box = (el) => el.getBoundingClientRect();
                const inner = [...cell.querySelectorAll('span')]
                    .filter((s) => s.textContent && s.offsetParent);
                return { cell: box(cell).toJSON(), parts: inner.map((s) => box(s).toJSON()) };
            })"""
        )
        for shown in boxes:
            cell, parts = shown["cell"], shown["parts"]
            assert cell["width"] >= 44 and cell["height"] >= 44
            for part in parts:  # inside the cell, not clipped
                assert part["left"] >= cell["left"] - 0.5 and part["right"] <= cell["right"] + 0.5, shown
                assert part["top"] >= cell["top"] - 0.5 and part["bottom"] <= cell["bottom"] + 0.5, shown
            for a, b in itertools.combinations(parts, 2):  # and none on top of another
                apart = a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5
                beside = a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5
                assert apart or beside, (main_line, shown)


def test_a_search_answer_shows_estimates_its_source_and_a_progress_bar(page: Page) -> None:
    """On 8×8 five in a row the search proves nothing about the first moves within its second: every
    move is drawn as an estimate, never coloured as a result, and the note says the answer is not exact."""
    page.goto("/")
    wait_idle(page)
    page.check("input[name='mode'][value='humans']")  # remembered on the device for the link below
    wait_idle(page)
    show_overlay(page)
    open_link(page, "variant=8x8k5&moves=27")
    assert page.is_hidden("#search-progress")
    # A move sends the page back to the service: the bar shows while the search runs.
    page.click(".cell[data-cell='28']")
    page.wait_for_selector("#search-progress:not([hidden])")
    wait_idle(page)
    assert page.is_hidden("#search-progress")
    note = page.locator("#answer-note")
    assert note.get_attribute("data-source") == "search" and note.get_attribute("data-exact") == "false"
    assert "Not exact" in page.inner_text("#answer-words") and "search" in page.inner_text("#answer-words")
    unknown = page.locator("#board .cell[data-result='unknown']")
    assert unknown.count() > 0
    assert unknown.count() == page.locator("#board .cell[data-estimate='true']").count()
    assert page.locator("#board .cell[data-result='unknown'].best").count() == 0
    label = unknown.first.get_attribute("aria-label") or ""
    assert "not proven" in label
    # The same moves are listed apart from the proven ones, never ranked among them (a guess
    # ranked first misled), and their guesses wait behind a toggle that says how far ahead they were read.
    assert page.locator("#ranked li[data-result='unknown']").count() == 0
    assert page.locator("#guessed li").count() == unknown.count()
    page.click("#guesses summary")
    guessed = page.inner_text("#guessed")
    assert "not proven" in guessed
    # Under load the estimates may get no time at all: then every row and the scale say so.
    made = [g for g in page.locator("#guessed .guess").all_inner_texts() if not g.startswith("no guess")]
    scale = page.inner_text("#guesses-scale")
    assert ("plies ahead" in scale) if made else ("no time left" in scale), (made, scale)


def test_an_exact_answer_says_so_and_the_moves_are_ranked_best_first(page: Page, base_url: str) -> None:
    open_link(page, "variant=4x4k3&moves=5")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page)
    expected = api_get(base_url, "/analyze", board="." * 5 + "X" + "." * 10, variant="4x4k3")
    assert page.get_attribute("#answer-note", "data-exact") == "true"
    assert page.inner_text("#answer-words").startswith("Exact")
    rows = page.locator("#ranked li")
    shown = [int(rows.nth(i).get_attribute("data-cell") or -1) for i in range(rows.count())]
    assert shown == [move["cell"] for move in expected["moves"]][: len(shown)]
    first = rows.first.inner_text()
    assert "★ best" in first and ("loses in" in first or "wins in" in first or "draws" in first)
