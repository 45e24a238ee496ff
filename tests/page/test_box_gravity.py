"""Score Four (4x4x4k4-gravity) on the page: a box under gravity, built through the form, drawn as its
layers side by side with the last one headed as the bottom. A click on a place's cell in any layer, or
Enter on it, plays that place's lowest empty cell; only those cells are offered; the cells' names and
labels say their layer; the game lives in its link; and axe finds nothing in either colour scheme."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .ui import analysing, axe_violations, focused_cell, move_texts, show_overlay, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

SCORE_FOUR = "4x4x4k4-gravity"
LAYER = 16  # cells in one layer: the step from a cell to the one under it
B2 = 5  # row 2, column b of the first layer (row 1, col 1 from 0)


def cells_where(page: Page, selector: str) -> list[int]:
    found: list[int] = page.eval_on_selector_all(
        f"#board .cell{selector}", "cells => cells.map(c => Number(c.dataset.cell))"
    )
    return found


def label(page: Page, cell: int) -> str:
    return page.get_attribute(f".cell[data-cell='{cell}']", "aria-label") or ""


def test_score_four_from_the_form_drops_every_move_to_the_bottom_of_its_place(page: Page) -> None:
    page.goto("/")
    wait_idle(page)
    page.check("input[name='mode'][value='humans']")  # no computer move: each ply is a click or a key
    wait_idle(page)
    show_overlay(page)
    page.click("#custom summary")
    for field in ("layers", "rows", "cols", "k"):
        page.fill(f"#custom-{field}", "4")
    # A box takes gravity now; exactly k then is off, as on a flat board.
    assert page.is_enabled("#custom-gravity") and not page.is_enabled("#custom-torus")
    page.check("#custom-gravity")
    assert not page.is_enabled("#custom-exact")
    page.click("#custom-play")
    page.wait_for_selector(f"#app[data-variant='{SCORE_FOUR}'][data-busy='false']")
    # Four layers side by side, the last headed as the bottom; no rack of numbered columns over a box.
    headings = page.eval_on_selector_all("#board .layer-heading", "hs => hs.map(h => h.textContent)")
    assert headings == ["Layer 1", "Layer 2", "Layer 3", "Layer 4 (bottom)"]
    assert page.is_visible("#board .layer[data-layer='3'] .layer-bottom")
    assert page.is_hidden("#rack-head")
    assert "layer 4 being the bottom" in page.inner_text("#keys-help")
    # Only the bottom layer's cells take a mark at first.
    assert cells_where(page, "[data-offered='true']") == list(range(3 * LAYER, 4 * LAYER))
    # X clicks b2 of the first layer: the mark falls to the bottom layer's b2, cell 53; O clicks the same
    # cell: its mark lands on X's, cell 37.
    page.click(f".cell[data-cell='{B2}']")
    wait_idle(page)
    assert state(page, "moves") == str(B2 + 3 * LAYER)
    assert state(page, "board")[53] == "X"
    page.click(f".cell[data-cell='{B2}']")
    wait_idle(page)
    assert state(page, "moves") == "53,37"
    assert state(page, "board")[37] == "O"
    offered = cells_where(page, "[data-offered='true']")
    assert B2 + LAYER in offered and 37 not in offered and len(offered) == 16
    # Names say the layer, its rows counted from the top as on any box: X→4b2 is layer 4, column b, row 2.
    assert move_texts(page) == ["X→4b2", "O→3b2"]
    # The label says first what the cell shows (its name, its mark), then where it is.
    assert label(page, 53).startswith("cell 4b2, X, layer 4 (bottom), row 2, column b")
    assert "plays place b2 at 2b2" in label(page, B2)
    labels = page.eval_on_selector_all("#board .cell", "cs => cs.map(c => c.getAttribute('aria-label'))")
    assert not any("NaN" in text or "undefined" in text for text in labels)
    # By keys, as on any box: the Tab stop is on O's move (37, layer 3); ← goes to a2 of that layer, and
    # Enter drops X to the bottom of that place, cell 52, where the focus follows it.
    page.focus(".skip-link")
    page.keyboard.press("Enter")
    assert focused_cell(page) == 37
    page.keyboard.press("ArrowLeft")
    assert focused_cell(page) == 36
    page.keyboard.press("Enter")
    wait_idle(page)
    assert state(page, "moves") == "53,37,52"
    assert page.evaluate("document.activeElement.dataset.cell") == "52"
    # A box has no column string: the link keeps the cells, and gives the same game back.
    assert "moves=53,37,52" in page.url and "pos=" not in page.url
    page.reload()
    page.wait_for_selector(f"#app[data-variant='{SCORE_FOUR}'][data-busy='false']")
    assert state(page, "moves") == "53,37,52"
    assert move_texts(page) == ["X→4b2", "O→3b2", "X→4a2"]
    # A click on a taken cell plays its place too. A full place is offered in no layer; a click that
    # reaches it all the same (aria-disabled is no barrier to a click) is said, not sent.
    for clicked, landed in ((53, 21), (21, B2)):
        page.click(f".cell[data-cell='{clicked}']")
        wait_idle(page)
        assert state(page, "board")[landed] != "."
    assert state(page, "moves") == "53,37,52,21,5"
    place = [f".cell[data-cell='{B2 + layer * LAYER}']" for layer in range(4)]
    assert [page.get_attribute(cell, "aria-disabled") for cell in place] == ["true"] * 4
    page.click(f".cell[data-cell='{B2 + 2 * LAYER}']", force=True)
    assert "The place b2 is full." in page.inner_text("#status")
    assert state(page, "moves") == "53,37,52,21,5"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_on_score_four(new_page: PageFactory, scheme: str) -> None:
    page = new_page(color_scheme=scheme)
    analysing(page, f"variant={SCORE_FOUR}&moves=53")
    assert cells_where(page, "[data-offered='true']") == [37, *range(48, 53), *range(54, 64)]
    assert axe_violations(page) == []
