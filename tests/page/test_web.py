"""The reference front end in headless Chromium against the real app on a loopback port."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from .ui import (
    KEY_OF_CELL,
    api_get,
    api_post,
    click_cell,
    open_app,
    press_cell,
    show_overlay,
    shown_cell,
    state,
    value_words,
    verdict_words,
    wait_idle,
)

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROW_COL = {cell: (cell // 3 + 1, cell % 3 + 1) for cell in range(9)}


def free_cells(board: str) -> list[int]:
    return [cell for cell, mark in enumerate(board) if mark == "."]


def assert_overlay_matches(page: Page, base_url: str, variant: str) -> None:
    board, to_move = state(page, "board"), state(page, "to-move")
    expected = api_post(base_url, "/analyze", {"board": board, "to_move": to_move, "variant": variant})
    moves = {move["cell"]: move for move in expected["moves"]}
    played = [int(cell) for cell in state(page, "moves").split(",") if cell]
    last = played[int(state(page, "ply")) - 1] if int(state(page, "ply")) > 0 else None
    for cell in range(9):
        shown = shown_cell(page, cell)
        row, col = ROW_COL[cell]
        if cell not in moves:
            assert shown["result"] is None and shown["text"] == "", f"occupied cell {cell} shows a value"
            marked = ", last move" if cell == last else ""  # the last move's mark, said last
            where = f"row {row} column {col}"
            assert shown["label"] == f"cell {KEY_OF_CELL[cell]}, {board[cell]}, {where}{marked}"
            continue
        move = moves[cell]
        words = value_words(move)
        assert (shown["result"], shown["remoteness"]) == (move["result"], str(move["remoteness"])), cell
        assert shown["text"] == words, cell
        assert shown["best"] == (cell in expected["best_moves"]), cell
        # What the cell shows first (WCAG 2.5.3, label in name), then what it does not.
        star = ", ★ best" if shown["best"] else ""
        assert shown["label"] == f"cell {KEY_OF_CELL[cell]}, {words}{star}, empty, row {row} column {col}"
    assert page.inner_text("#verdict") == verdict_words(expected)


def test_the_overlay_shows_the_analysis_of_each_position(page: Page, base_url: str) -> None:
    open_app(page, mode="humans")
    show_overlay(page)
    # X takes the centre, O an edge (a mistake), and X goes on to a forced win.
    for cell in [None, 4, 1, 0, 8, 6]:
        if cell is not None:
            click_cell(page, cell)
        assert_overlay_matches(page, base_url, "normal")
    assert "X wins in" in page.inner_text("#verdict")


def test_misere_changes_the_overlay(page: Page, base_url: str) -> None:
    open_app(page, mode="humans")
    show_overlay(page)
    assert {shown_cell(page, cell)["text"] for cell in range(9)} == {"draws"}
    page.select_option("#variant", "misere")
    wait_idle(page)
    assert_overlay_matches(page, base_url, "misere")
    assert shown_cell(page, 4)["text"] == "draws" and shown_cell(page, 4)["best"]
    for cell in [0, 1, 2, 3, 5, 6, 7, 8]:
        shown = shown_cell(page, cell)
        assert shown["result"] == "loss" and shown["text"].startswith("loses in"), shown
    assert page.inner_text("#verdict") == "X to move: draw with perfect play"


def test_the_main_line_is_shown_on_request(page: Page, base_url: str) -> None:
    open_app(page, mode="humans")
    show_overlay(page)
    click_cell(page, 4)
    click_cell(page, 1)
    query = {"board": ".O..X....", "to_move": "X", "variant": "normal", "mainline": "true"}
    expected = api_get(base_url, "/analyze", **query)
    page.click("#mainline-button")
    page.wait_for_selector("#mainline[data-state='ready']")
    cells = expected["mainline"]["cells"]
    assert page.get_attribute("#mainline", "data-cells") == ",".join(map(str, cells))
    assert page.get_attribute("#mainline", "data-status") == expected["mainline"]["status"]
    sides = ["X", "O"] * 5
    sequence = ", ".join(f"{side}→{KEY_OF_CELL[cell]}" for side, cell in zip(sides, cells, strict=False))
    assert sequence in page.inner_text("#mainline")


def test_a_finished_game_is_reviewed_ply_by_ply(page: Page, base_url: str) -> None:
    open_app(page, mode="humans")
    moves = [4, 1, 0, 8, 6, 2, 3]  # O's edge reply loses; X completes the left column
    for cell in moves:
        click_cell(page, cell)
    assert state(page, "status") == "x_won"
    expected = api_post(base_url, "/review", {"moves": moves, "variant": "normal", "first": "X"})
    page.wait_for_selector("#review[data-state='ready']")
    rows = page.locator("#move-list li")
    assert rows.count() == len(moves) == len(expected["plies"])
    for index, ply in enumerate(expected["plies"]):
        row = rows.nth(index)
        assert row.get_attribute("data-ply") == str(ply["ply"])
        assert row.get_attribute("data-cell") == str(ply["cell"])
        assert row.get_attribute("data-verdict") == ply["verdict"]
        assert f"{ply['player']}→{KEY_OF_CELL[ply['cell']]}" in row.inner_text()
        assert ply["verdict"] in row.inner_text()
    assert expected["plies"][1]["verdict"] in ("mistake", "blunder")
    assert "Game over: X wins." in page.inner_text("#review-state")


def test_keys_follow_the_keypad_and_undo_and_redo_take_back_a_round(page: Page) -> None:
    open_app(page)
    assert page.get_attribute("#status", "aria-live") == "polite"
    press_cell(page, 6)  # key 1: bottom left
    assert state(page, "board")[6] == "X"
    assert state(page, "moves").count(",") == 1, "the computer did not answer"
    press_cell(page, 2 if state(page, "board")[2] == "." else 8)
    assert len(state(page, "moves").split(",")) == 4
    page.click("#undo")
    wait_idle(page)
    assert state(page, "ply") == "2" and state(page, "to-move") == "X"
    assert len(state(page, "moves").split(",")) == 4, "undo forgot the moves that redo brings back"
    page.click("#undo")
    wait_idle(page)
    assert state(page, "ply") == "0" and page.is_disabled("#undo")
    page.click("#redo")
    wait_idle(page)
    assert state(page, "ply") == "2", "redo did not bring back the round"
    click_cell(page, next(cell for cell in (8, 2, 0) if state(page, "board")[cell] == "."))
    assert len(state(page, "moves").split(",")) == 4 and state(page, "ply") == "4", "no play on from ply 2"


def test_a_failing_service_is_reported_and_can_be_retried(page: Page) -> None:
    open_app(page)
    problem = {"title": "Service Unavailable", "detail": "try again later", "status": 503}
    page.route(
        "**/move",
        lambda route: route.fulfill(
            status=503, content_type="application/problem+json", body=json.dumps(problem)
        ),
    )
    press_cell(page, 4)
    assert page.is_visible("#error")
    assert "Service Unavailable: try again later" in page.inner_text("#error")
    assert page.get_attribute(".cell[data-cell='0']", "aria-disabled") == "true"
    page.unroute("**/move")
    page.click("#retry")
    wait_idle(page)
    assert page.is_hidden("#error")
    assert len(state(page, "moves").split(",")) == 2


def test_the_page_modules_keep_the_keypad_undo_and_naming_rules(page: Page) -> None:
    page.goto("/")
    found = page.evaluate(
        """async () => {
            const game = await import("/static/game.js");
            const words = await import("/static/words.js");
            const cells = [0, 1, 2, 3, 4, 5, 6, 7, 8];
            return {
                keys: cells.map((cell) => game.keyOfCell(cell, 3, 3)),
                back: cells.map((cell) => game.cellOfKey(game.keyOfCell(cell, 3, 3), 3, 3)),
                redoTo: [
                    game.redoTarget(0, 4, "X", "X"),
                    game.redoTarget(2, 3, "X", "X"),
                    game.redoTarget(1, 4, "X", null),
                    game.redoTarget(4, 4, "X", null),
                ],
                undoTo: [4, 3, 1].map((ply, i) => game.undoTarget(ply, "X", i < 2 ? "X" : "O")),
                names: [
                    game.cellNameOf(0, { rows: 4, cols: 4 }),
                    game.cellNameOf(15, { rows: 4, cols: 4 }),
                    game.cellNameOf(6, { rows: 3, cols: 3 }),
                    // Under gravity the rows count from the bottom, as players say: column d's bottom is d1.
                    game.cellNameOf(38, { rows: 6, cols: 7, gravity: true }),
                    game.cellNameOf(3, { rows: 6, cols: 7, gravity: true }),
                ],
                opening: game.openingOf("XO.X.O...", "X"),
                words: [
                    words.valueWords({ result: "win", remoteness: 3 }),
                    words.valueWords({ result: "draw", remoteness: 9 }),
                    words.valueWords({ result: "loss", remoteness: 5 }),
                ],
            };
        }"""
    )
    assert found["keys"] == [KEY_OF_CELL[cell] for cell in range(9)]
    assert found["back"] == list(range(9))
    assert found["undoTo"] == [2, 2, None]
    assert found["redoTo"] == [2, 3, 2, None]
    assert found["names"] == ["a1", "d4", "1", "d1", "d6"]
    assert found["opening"] == {"first": "X", "moves": [0, 1, 3, 5]}
    assert found["words"] == ["wins in 3", "draws", "loses in 5"]
