"""Every variant in the page: the presets and any other board, drawn from the API, played by pointer and
by keyboard, and a table still being built waited for."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

from service.engine import get_variant

from .ui import (
    api_get,
    click_cell,
    key_to_cell,
    open_link,
    play_board,
    press_cell,
    state,
    wait_idle,
)

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

    from .conftest import PageFactory


def free_cells(board: str) -> list[int]:
    return [cell for cell, mark in enumerate(board) if mark == "."]


# Normal, 4x4k4 and 5x5k4 (a board with no table: the search answers) are draws, 4x4k3 a first-player
# win, misère a draw: the human can win none of them.
@pytest.mark.parametrize(
    ("variant", "human"), [("normal", "X"), ("misere", "O"), ("4x4k4", "X"), ("4x4k3", "O"), ("5x5k4", "X")]
)
def test_a_game_against_perfect_never_ends_in_a_human_win(page: Page, variant: str, human: str) -> None:
    open_link(page, f"variant={variant}")
    page.select_option("#human-side", human)
    wait_idle(page)
    assert page.input_value("#policy") == "perfect"
    cols = get_variant(variant).cols
    assert page.locator("#board .cell").count() == cols * cols
    board_top = page.locator("#board").bounding_box()
    rng = random.Random(f"{variant}-{human}")
    for turn in range(cols * cols):
        if state(page, "status") != "in_progress":
            break
        assert state(page, "to-move") == human, "the computer has not answered"
        cell = rng.choice(free_cells(state(page, "board")))
        # Alternate the pointer and the keyboard: the keypad keys on 3×3, else arrow keys and Enter.
        if turn % 2 == 0:
            click_cell(page, cell)
        elif cols == 3:
            press_cell(page, cell)
        else:
            key_to_cell(page, cell, cols)
        box = page.locator("#board").bounding_box()
        assert box and board_top and box["y"] == board_top["y"], "the board moved when the status changed"
    status = state(page, "status")
    assert status in ("x_won", "o_won", "draw"), f"the game did not end: {status}"
    assert status != f"{human.lower()}_won", "the human beat the perfect computer"
    assert "Game over" in page.inner_text("#status")


def test_the_variants_policies_and_depths_come_from_the_api(page: Page, base_url: str) -> None:
    page.goto("/")
    wait_idle(page)
    listed = api_get(base_url, "/variants")["variants"]
    offered = page.eval_on_selector_all("#variant option", "(options) => options.map((o) => o.value)")
    assert offered == [variant["name"] for variant in listed]
    policies = api_get(base_url, "/policies")["policies"]
    names = page.eval_on_selector_all("#policy option", "(options) => options.map((o) => o.value)")
    assert names == [policy["name"] for policy in policies]
    for variant in ("normal", "4x4k4"):
        open_link(page, f"variant={variant}")
        page.select_option("#policy", "depth")
        wait_idle(page)
        depth = next(v for v in listed if v["name"] == variant)["depth"]
        shown = page.eval_on_selector_all("#depth option", "(options) => options.map((o) => Number(o.value))")
        assert shown == list(range(depth["min"], depth["max"] + 1)), variant
        assert page.input_value("#depth") == str(depth["default"])
        assert page.inner_text("#variant-rules") == next(v for v in listed if v["name"] == variant)["rules"]


def test_another_board_from_the_form_and_a_torus_that_shows_its_wrap(page: Page) -> None:
    page.goto("/")
    wait_idle(page)
    page.click("#custom summary")
    for field in ("rows", "cols", "k"):
        page.fill(f"#custom-{field}", "3")
    page.check("#custom-torus")
    page.check("#custom-misere")
    page.click("#custom-play")
    page.wait_for_selector("#app[data-variant='3x3k3-torus-misere'][data-busy='false']")
    assert page.input_value("#variant") == "3x3k3-torus-misere"
    assert "wrap" in page.inner_text("#variant-rules")
    assert page.is_visible("#torus-note")
    # A cut-off ring around the 3×3 board repeats the opposite edges: 3 + 3 + 3 + 3 + 4 corners.
    assert page.locator("#board .ghost").count() == 16
    click_cell(page, 0)
    assert page.get_attribute("#board .ghost[data-ghost-of='0'].ghost-bottom", "data-mark") == "X"
    assert "variant=3x3k3-torus-misere" in page.url
    # A longer side on a board a table holds is served (2x11): the form takes it.
    page.uncheck("#custom-torus")
    page.uncheck("#custom-misere")
    play_board(page, 2, 11, 4)
    assert page.locator("#board .cell").count() == 22 and page.is_hidden("#custom-error")
    assert (page.get_attribute(".cell[data-cell='10']", "aria-label") or "").startswith("cell k1")


def unavailable_first(
    times: int, detail: str, answered: list[int], status: int = 503
) -> Callable[[Route], None]:
    """A route that answers `status` (503 or 429) with Retry-After: 1 and `detail` the first `times`
    times (each noted in `answered`), then lets the request through."""

    def route_to(route: Route) -> None:
        if len(answered) >= times:
            route.continue_()
            return
        answered.append(status)
        route.fulfill(
            status=status,
            headers={"Retry-After": "1", "Content-Type": "application/problem+json"},
            body=json.dumps({"title": "Unavailable", "status": status, "detail": detail}),
        )

    return route_to


def test_a_table_being_built_is_waited_for_and_said(page: Page) -> None:
    answered: list[int] = []
    building = unavailable_first(2, "the 4x4k4 table is being built", answered)

    page.route("**/analyze?*", building)
    page.goto("/?variant=4x4k4")
    page.wait_for_selector("#status:has-text('the 4x4k4 table is being built')")
    assert "Trying again in 1 s" in page.inner_text("#status")
    wait_idle(page)
    assert answered == [503, 503]
    assert state(page, "status") == "in_progress" and page.is_hidden("#error")


def test_a_client_past_its_quota_waits_for_its_window_and_says_so(page: Page) -> None:
    """A 429 (the client's rate limit spent) is waited for as a 503 is: Retry-After, then again."""
    answered: list[int] = []
    refused = unavailable_first(1, "this client has spent its quota", answered, status=429)

    page.route("**/analyze?*", refused)
    page.goto("/?variant=4x4k4")
    page.wait_for_selector("#status:has-text('this client has spent its quota')")
    assert "Trying again in 1 s" in page.inner_text("#status")
    wait_idle(page)
    assert answered == [429]
    assert state(page, "status") == "in_progress" and page.is_hidden("#error")


def test_the_keypad_keys_only_on_3x3(new_page: PageFactory) -> None:
    page = new_page()
    open_link(page, "variant=3x4k3")
    page.focus("#board .cell[tabindex='0']")
    page.keyboard.press("5")
    wait_idle(page)
    assert state(page, "moves") == "", "a number key played on a board without a keypad"
    assert "numeric keypad" not in page.inner_text("#keys-help")
    tab_stops = page.eval_on_selector_all(
        "#board .cell", "(cells) => cells.filter((c) => c.tabIndex === 0).length"
    )
    assert tab_stops == 1, "the board is not one Tab stop"
    key_to_cell(page, 6, 4)
    assert state(page, "board")[6] == "X"


def test_a_review_that_waits_for_the_service_leaves_the_games_state_said(page: Page) -> None:
    """A review answered 503 (the worker's search slots busy) is waited for and said after the game's
    state, not instead of it: "Game over: X wins." stays on the status line meanwhile."""
    answered: list[int] = []
    busy = unavailable_first(1, "all 2 search slots of this worker stayed busy", answered)

    page.route("**/review", busy)
    page.goto("/?variant=normal&first=X&moves=0,3,1,4,2")
    page.wait_for_selector("#status:has-text('search slots of this worker stayed busy')")
    said = page.inner_text("#status-prompt")
    assert said.startswith("Game over: X wins.") and "Trying again in 1 s" in said, said
    page.wait_for_selector("#review[data-state='ready']")
    assert answered == [503] and page.inner_text("#status-prompt").startswith("Game over: X wins.")
