"""The analysis board: the position editor, the game in the URL, the move list and ←/→, the value chart,
the overlay's modes and the review's words."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from .conftest import PHONE
from .ui import (
    api_post,
    api_problem,
    board_after,
    click_cell,
    open_link,
    overlay_of,
    show_overlay,
    state,
    value_words,
    verdict_words,
    wait_idle,
)

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

    from .conftest import PageFactory

# X takes the centre, O an edge (a mistake), and X completes the left column: a finished normal game.
FINISHED = [4, 1, 0, 8, 6, 2, 3]


def paint(page: Page, mark: str, cells: list[int]) -> None:
    page.check(f"input[name='paint'][value='{mark}']")
    for cell in cells:
        page.click(f".cell[data-cell='{cell}']")


def assert_overlay_is(page: Page, expected: dict[str, object], cells: int) -> None:
    moves = {move["cell"]: move for move in expected["moves"]}  # type: ignore[attr-defined]
    for cell, shown in overlay_of(page, cells).items():
        if cell not in moves:
            assert shown["result"] is None and shown["text"] == "", cell
            continue
        move = moves[cell]
        assert (shown["result"], shown["remoteness"]) == (move["result"], str(move["remoteness"])), cell
        assert shown["text"] == value_words(move), cell
        assert shown["best"] == (cell in expected["best_moves"]), cell  # type: ignore[operator]
    assert page.inner_text("#verdict") == verdict_words(expected)  # type: ignore[arg-type]


def test_the_editor_sets_up_a_position_whose_overlay_equals_analyze(page: Page, base_url: str) -> None:
    open_link(page, "variant=4x4k3")
    page.click("#edit")
    assert page.is_visible("#editor") and state(page, "editing") == "true"
    paint(page, "X", [0, 1, 2])
    page.check("input[name='editor-to-move'][value='O']")
    page.click("#editor-analyse")
    # Three X and no O: the engine's own sentence says why the position cannot be.
    expected = api_problem(base_url, "/analyze", board="XXX" + "." * 13, to_move="O", variant="4x4k3")
    page.wait_for_selector("#editor-error:not([hidden])")
    assert expected["detail"] in page.inner_text("#editor-error")
    paint(page, "X", [2])  # X on an X empties the cell
    paint(page, "O", [5, 10])
    page.check("input[name='editor-to-move'][value='X']")
    page.click("#editor-analyse")
    page.wait_for_selector("#app[data-editing='false'][data-busy='false']")
    board = "XX...O....O....."
    assert state(page, "board") == board and state(page, "to-move") == "X"
    assert "start=XX../.O../..O./...." in page.url and "first=X" in page.url
    assert page.is_checked("input[name='mode'][value='humans']")
    expected = api_post(base_url, "/analyze", {"board": board, "to_move": "X", "variant": "4x4k3"})
    assert_overlay_is(page, expected, 16)
    # Play on from it: the move list and the review start at the set-up position.
    best = expected["best_moves"][0]
    click_cell(page, best)
    assert state(page, "moves") == str(best)
    page.wait_for_selector("#review[data-state='ready']")
    assert page.get_attribute("#move-list li", "data-verdict") == "best"
    # The set-up position is in the link: a reload gives the same board and moves.
    played = {name: state(page, name) for name in ("board", "moves", "ply", "variant")}
    page.reload()
    wait_idle(page)
    assert {name: state(page, name) for name in played} == played


def test_the_editor_plays_on_against_the_computer(page: Page) -> None:
    open_link(page, "variant=normal")
    page.click("#edit")
    paint(page, "X", [4])
    page.check("input[name='editor-to-move'][value='O']")
    page.click("#editor-play")
    page.wait_for_selector("#app[data-editing='false']")
    wait_idle(page)
    # You play X: the computer answers for O at once.
    assert len(state(page, "moves").split(",")) == 1 and state(page, "to-move") == "X"


def test_a_link_with_moves_restores_the_game_after_a_reload_and_back(new_page: PageFactory) -> None:
    page = new_page()
    open_link(page, "variant=4x4k4")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page)
    for cell in [5, 0, 10, 15, 6]:
        click_cell(page, cell)
    page.click("#nav-back")
    wait_idle(page)
    before = {name: state(page, name) for name in ("board", "moves", "ply", "variant")}
    assert before["ply"] == "4" and "moves=5,0,10,15,6&ply=4" in page.url
    page.reload()
    wait_idle(page)
    assert {name: state(page, name) for name in before} == before
    assert page.is_checked("input[name='mode'][value='humans']"), "the settings were not remembered"
    assert page.is_checked("input[name='overlay'][value='values']")
    # Another variant is a new entry in the history; Back returns to this game.
    page.select_option("#variant", "normal")
    page.wait_for_selector("#app[data-variant='normal'][data-busy='false']")
    page.go_back()
    page.wait_for_selector("#app[data-variant='4x4k4'][data-busy='false']")
    assert {name: state(page, name) for name in before} == before
    # The link as copied opens the same board in another browser.
    link = page.url
    other = new_page()
    other.goto(link)
    wait_idle(other)
    assert {name: state(other, name) for name in before} == before


def test_copy_link_copies_the_games_link(new_page: PageFactory) -> None:
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    open_link(page, "variant=normal&moves=4,0")
    page.click("#copy-link")
    page.wait_for_selector("#copy-state:has-text('Link copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    page.click("#nav-back")  # another position, another link: the line no longer speaks of it
    wait_idle(page)
    assert page.inner_text("#copy-state") == ""


def test_arrow_keys_step_through_a_finished_game(page: Page) -> None:
    open_link(page, f"variant=normal&first=X&moves={','.join(map(str, FINISHED))}")
    assert state(page, "status") == "x_won"
    page.focus("#nav-end")
    for ply in range(len(FINISHED) - 1, -1, -1):
        page.keyboard.press("ArrowLeft")
        wait_idle(page)
        assert state(page, "ply") == str(ply)
        assert state(page, "board") == board_after(FINISHED[:ply], 9)
        assert state(page, "moves") == ",".join(map(str, FINISHED)), "stepping back dropped moves"
    for ply in range(1, len(FINISHED) + 1):
        page.keyboard.press("ArrowRight")
        wait_idle(page)
        assert state(page, "ply") == str(ply)
    assert state(page, "status") == "x_won"
    page.keyboard.press("Home")
    wait_idle(page)
    assert state(page, "ply") == "0"
    page.click("#move-list li:nth-child(3) .ply-button")
    wait_idle(page)
    assert state(page, "ply") == "3" and state(page, "board") == board_after(FINISHED[:3], 9)
    assert page.get_attribute("#move-list li:nth-child(3) .ply-button", "aria-current") == "step"


def test_the_chart_has_one_point_per_ply_and_jumps_to_it(page: Page, base_url: str) -> None:
    open_link(page, f"variant=normal&first=X&moves={','.join(map(str, FINISHED))}")
    page.wait_for_selector("#review[data-state='ready']")
    expected = api_post(base_url, "/review", {"moves": FINISHED, "variant": "normal", "first": "X"})
    points = page.locator("#chart .chart-point")
    assert points.count() == len(FINISHED)
    verdicts = [points.nth(i).get_attribute("data-verdict") for i in range(len(FINISHED))]
    assert verdicts == [ply["verdict"] for ply in expected["plies"]]
    marked = page.locator("#chart .chart-mark").count()
    assert marked == sum(ply["verdict"] in ("mistake", "blunder") for ply in expected["plies"]) > 0
    # Up is X (who moved first) winning: the last point, X's win, is the highest.
    heights = [float(points.nth(i).locator("circle").get_attribute("cy") or 0) for i in range(len(FINISHED))]
    assert heights[-1] == min(heights)
    points.nth(2).click()
    wait_idle(page)
    assert state(page, "ply") == "3"


def test_the_overlay_shows_on_the_humans_turn_and_hint_shows_only_the_best(page: Page) -> None:
    open_link(page, "variant=4x4k3&moves=5")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page, "hint")
    shown = overlay_of(page, 16)
    assert all(cell["result"] is None and cell["text"] == "" for cell in shown.values())
    assert any(cell["best"] for cell in shown.values())
    assert page.is_hidden("#analysis")
    # Against the computer (you play X), a link opened at the computer's turn: its options are not shown
    # as if they were the player's, until it has played.
    page.check("input[name='mode'][value='computer']")
    open_link(page, "variant=4x4k3&moves=5")
    show_overlay(page, "values")
    assert state(page, "to-move") == "O" and page.is_visible("#play-on")
    assert all(cell["result"] is None and not cell["best"] for cell in overlay_of(page, 16).values())
    page.click("#play-on")
    wait_idle(page)
    shown = overlay_of(page, 16)
    assert state(page, "to-move") == "X" and any(cell["result"] for cell in shown.values())
    # The strongest colour goes to the fastest win.
    wins = sorted((int(c["remoteness"]), c["strength"]) for c in shown.values() if c["result"] == "win")
    assert wins and wins[0][1] == "3"


def test_the_main_line_is_drawn_on_the_board(page: Page, base_url: str) -> None:
    open_link(page, "variant=4x4k4&moves=5,0")
    show_overlay(page)
    page.click("#mainline-button")
    page.wait_for_selector("#mainline[data-state='ready']")
    line = api_post(
        base_url, "/analyze", {"board": board_after([5, 0], 16), "variant": "4x4k4", "mainline": True}
    )["mainline"]["cells"]
    numbered = page.eval_on_selector_all(
        "#board .cell[data-plan]",
        "(cells) => cells.map((c) => [Number(c.dataset.cell), Number(c.dataset.plan)])",
    )
    assert sorted(numbered, key=lambda pair: pair[1]) == [[cell, n + 1] for n, cell in enumerate(line)]
    page.click("#mainline-button")
    assert page.locator("#board .cell[data-plan]").count() == 0


def test_misere_words_and_a_review_that_failed_can_be_retried(page: Page) -> None:
    # X completes the top row under misère rules, and so loses.
    failures: list[int] = []

    def failing(route: Route) -> None:
        failures.append(1)
        route.fulfill(status=500, content_type="application/problem+json", body=json.dumps({"title": "Boom"}))

    page.route("**/review", failing)
    open_link(page, "variant=misere&moves=0,3,1,4,2")
    assert state(page, "status") == "o_won"
    assert "X completed a line of 3 and so loses; O wins." in page.inner_text("#status")
    page.wait_for_selector("#review[data-state='error']")
    assert page.is_visible("#review-retry") and failures == [1]
    page.unroute("**/review")
    page.click("#review-retry")
    page.wait_for_selector("#review[data-state='ready']")
    legend = page.inner_text("#verdict-legend")
    assert all(word in legend for word in ("best", "slower win", "faster loss", "mistake", "blunder"))


def test_the_review_scrolls_into_view_on_a_phone(new_page: PageFactory) -> None:
    page = new_page(PHONE)
    open_link(page, "variant=normal&moves=0,3,1,4")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    click_cell(page, 2)  # X completes the top row
    page.wait_for_selector("#review[data-state='ready']")
    # Just under the board, which stays at the top of a phone's screen.
    page.wait_for_function(
        """() => {
            const review = document.getElementById('review').getBoundingClientRect();
            const board = document.getElementById('board-frame').getBoundingClientRect();
            const pinned = document.getElementById('pinned').getBoundingClientRect();
            return board.top > -1 && review.top >= pinned.bottom && review.top - pinned.bottom < 16;
        }""",
        timeout=5000,
    )
