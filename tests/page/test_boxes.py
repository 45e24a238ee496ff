"""Boxes of layers and boards past 8×8 on the page: 3×3×3 chosen from the menu, drawn as three layers of
nine cells side by side, played by click and by keys across its layers, its centre shown as the win the
search proves, its moves named by layer in the list and the game's text; a box through the form; 15×15
played against the search; 20×20 drawn within the page with its values; and axe on a box."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import DESKTOP, PHONE
from .ui import api_get, axe_violations, focused_cell, move_texts, show_overlay, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

BOX = "3x3x3k3"
CENTRE = 13  # layer 2, row 2, column b: 1 * 9 + 1 * 3 + 1


def two_players_with_values(page: Page) -> None:
    page.goto("/")
    wait_idle(page)
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page)


def choose(page: Page, name: str) -> None:
    page.select_option("#variant", name)
    page.wait_for_selector(f"#app[data-variant='{name}'][data-busy='false']")


def layers_drawn(page: Page) -> list[list[Any]]:
    """Each layer's heading and the cells under it, in the page's order."""
    drawn: list[list[Any]] = page.eval_on_selector_all(
        "#board .layer",
        """layers => layers.map(layer => [
            layer.querySelector('.layer-heading').textContent,
            [...layer.querySelectorAll('.cell')].map(cell => Number(cell.dataset.cell)),
        ])""",
    )
    return drawn


def press(page: Page, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


def test_a_box_from_the_menu_is_three_layers_played_by_click_and_by_keys(page: Page, base_url: str) -> None:
    listed = [v["name"] for v in api_get(base_url, "/variants")["variants"]]
    assert BOX in listed
    two_players_with_values(page)
    choose(page, BOX)
    assert layers_drawn(page) == [
        [f"Layer {layer + 1}", list(range(9 * layer, 9 * layer + 9))] for layer in range(3)
    ]
    assert "3×3×3 board in 3 layers" in page.inner_text("#play-heading")
    # The search proves the empty box: X wins in 7 from the centre, its one best move.
    analysis = api_get(base_url, "/analyze", board="." * 27, variant=BOX)
    centre = next(move for move in analysis["moves"] if move["cell"] == CENTRE)
    assert (centre["layer"], centre["row"], centre["col"], centre["result"]) == (1, 1, 1, "win")
    shown = page.eval_on_selector(
        f".cell[data-cell='{CENTRE}']",
        "c => [c.dataset.result, c.dataset.best, c.querySelector('.cell-value').textContent,"
        " c.getAttribute('aria-label')]",
    )
    assert shown[:3] == ["win", "true", f"W{centre['remoteness']}"], shown  # a box's cells are small
    # What the cell shows first (W7, ★), as a voice control user reads it; then the words in full.
    want = f"cell 2b2, W{centre['remoteness']}, ★, empty, wins in {centre['remoteness']}, best move"
    assert shown[3].startswith(f"{want}, layer 2, row 2, column b"), shown
    assert "PageUp and PageDown" in page.inner_text("#keys-help")
    # X by click on the centre; O by keys: the board's Tab stop follows the move, ↑ stays in its layer,
    # PageDown and ] go to the next layer (round from the last to the first), PageUp and [ back.
    page.click(f".cell[data-cell='{CENTRE}']")
    wait_idle(page)
    assert state(page, "moves") == str(CENTRE)
    page.focus(".skip-link")
    press(page, "Enter")
    assert focused_cell(page) == CENTRE
    steps = {"ArrowUp": 10, "PageDown": 19, "]": 1, "[": 19, "PageUp": 10, "ArrowLeft": 9}
    for key, cell in steps.items():
        press(page, key)
        assert focused_cell(page) == cell, key
        assert page.evaluate("document.activeElement.dataset.cell") == str(cell), key
    press(page, "ArrowUp")  # round within the layer: row 1 to row 3
    assert focused_cell(page) == 15
    press(page, "PageDown", "Enter")
    wait_idle(page)
    assert state(page, "moves") == f"{CENTRE},24"
    assert page.evaluate("document.activeElement.dataset.cell") == "24"  # the keyboard stays on the board
    # Moves are named by layer, column and row: in the list, the status and the game's text.
    assert move_texts(page) == ["X→2b2", "O→3a3"]
    assert "O played 3a3" in page.inner_text("#status")
    page.click("#exchange summary")
    page.wait_for_function("() => document.getElementById('export-text').value !== ''")
    # the centre is the only first move that wins (every other loses): the move list marks it "!"
    assert page.input_value("#export-text") == f"{BOX} X: 1. 2b2! 3a3"
    page.fill("#import-text", f"{BOX} X: 1. 2b2 3a3 2. 1a1")
    page.click("#import")
    page.wait_for_selector(f"#app[data-moves='{CENTRE},24,0'][data-busy='false']")
    page.fill("#import-text", f"{BOX} X: 1. 2b2 4a1")
    page.click("#import")
    page.wait_for_selector("#import-error:not([hidden])")
    assert "“4a1” is not a cell of 3x3x3k3 (its cells are 1a1 to 3c3)" in page.inner_text("#import-error")


def test_a_box_through_the_form_takes_only_the_options_a_box_name_takes(page: Page, base_url: str) -> None:
    form = api_get(base_url, "/variants")["name_form"]
    assert form["box_pattern"] == "{layers}x{rows}x{cols}k{k}" and "misere" in form["box_options"]
    assert "torus" not in form["box_options"] and "gravity" in form["box_options"]
    two_players_with_values(page)
    page.click("#custom summary")
    assert page.input_value("#custom-layers") == "1"  # the board being played is flat
    for field, value in (("layers", 2), ("rows", 3), ("cols", 4), ("k", 3)):
        page.fill(f"#custom-{field}", str(value))
    # The options the form has a box for: only those a box's name takes stay offered.
    fields = [option for option in form["options"] if page.locator(f"#custom-{option}").count() == 1]
    assert {"torus", "gravity", "misere"} <= set(fields)
    for option in fields:
        assert page.is_enabled(f"#custom-{option}") == (option in form["box_options"]), option
    page.check("#custom-misere")
    page.click("#custom-play")
    page.wait_for_selector("#app[data-variant='2x3x4k3-misere'][data-busy='false']")
    assert [heading for heading, _ in layers_drawn(page)] == ["Layer 1", "Layer 2"]
    assert page.locator("#board .cell").count() == 24
    # Back to one layer: a flat board again, its options offered.
    page.fill("#custom-layers", "1")
    assert page.is_enabled("#custom-torus")


def cells_fit(page: Page) -> dict[str, float]:
    """The board's and its cells' sizes against the frame, and how many cells' words overflow them."""
    sizes: dict[str, float] = page.evaluate(
        """() => {
            const frame = document.getElementById("board-frame");
            const board = document.getElementById("board").getBoundingClientRect();
            const cells = [...document.querySelectorAll("#board .cell")];
            const cell = cells[0].getBoundingClientRect();
            const spill = cells.filter((c) => {
                const words = c.querySelector(".cell-value");
                return words.textContent && words.scrollWidth > c.clientWidth;
            });
            return {
                frame: frame.clientWidth, scroll: frame.scrollWidth, board: board.width,
                cell: cell.width, page: document.documentElement.scrollWidth, spill: spill.length,
            };
        }"""
    )
    return sizes


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_box_fits_the_page_side_by_side(new_page: PageFactory, viewport: Any) -> None:
    page = new_page(viewport)
    two_players_with_values(page)
    choose(page, BOX)
    sizes = cells_fit(page)
    tops = page.eval_on_selector_all("#board .layer", "ls => ls.map(l => l.getBoundingClientRect().top)")
    assert len(set(tops)) == 1, tops  # side by side, on a phone too
    assert sizes["cell"] >= 24 and sizes["scroll"] <= sizes["frame"], sizes
    assert sizes["page"] <= viewport["width"] and sizes["spill"] == 0, sizes


def test_a_15x15_game_against_the_search_is_playable(page: Page) -> None:
    """Gomoku's board from the menu against "perfect": the search answers within its budget, unproven,
    and the page says the computer's move is a guess."""
    page.goto("/")
    wait_idle(page)
    choose(page, "15x15k5")
    assert page.locator("#board .cell").count() == 225
    sizes = cells_fit(page)
    assert sizes["cell"] >= 24 and sizes["scroll"] <= sizes["frame"], sizes
    started = time.monotonic()
    page.click(".cell[data-cell='112']")  # h8, the centre
    page.wait_for_selector("#status:has-text('The computer (O) played')", timeout=20_000)
    wait_idle(page)
    assert time.monotonic() - started < 15
    moves = state(page, "moves").split(",")
    assert len(moves) == 2 and moves[0] == "112"
    assert "It is a guess" in page.inner_text("#status")
    assert state(page, "board")[int(moves[1])] == "O"


def test_a_20x20_board_shows_its_values_within_the_page(page: Page) -> None:
    two_players_with_values(page)
    page.goto("/?variant=20x20k5&moves=210&overlay=values")
    wait_idle(page)
    assert page.locator("#board .cell").count() == 400
    shown = page.eval_on_selector_all(
        "#board .cell-value", "cells => [...new Set(cells.map(c => c.textContent))]"
    )
    assert set(shown) <= {"", "?", "≤D", "≥D"}, shown  # unproven, or a bound: never a result
    sizes = cells_fit(page)
    assert sizes["cell"] >= 24 and sizes["scroll"] <= sizes["frame"], sizes
    assert sizes["page"] <= DESKTOP["width"] and sizes["spill"] == 0, sizes


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_a_box(new_page: PageFactory, scheme: str) -> None:
    page = new_page(color_scheme=scheme)
    two_players_with_values(page)
    choose(page, BOX)
    page.click(f".cell[data-cell='{CENTRE}']")
    wait_idle(page)
    assert axe_violations(page) == []
