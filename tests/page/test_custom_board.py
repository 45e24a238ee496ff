"""The "Another board" form keeps no copy of the service's grammar or size rules: it writes a board's
name as GET /variants `name_form` says, asks GET /variants/{name}, draws the board from its `shape`, and
shows the service's own sentence when the service does not play it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from .ui import api_get, api_problem, click_cell, open_link, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route


def watch_variant_requests(page: Page) -> list[str]:
    """The URLs of the GET /variants/{name} requests the page makes from now on."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/variants/" in request.url else None)
    return asked


def without_v1_sides(route: Route) -> None:
    """Answers as GET /variants and /variants/{name} would without `rows` and `cols`, which stay only
    for API v1: the page draws every board from its `shape` alone."""
    response = route.fetch()
    body = response.json()
    for facts in body.get("variants", [body]):
        facts.pop("rows", None)
        facts.pop("cols", None)
    route.fulfill(response=response, json=body)


def fill_form(page: Page, rows: int, cols: int, k: int) -> None:
    for field, value in (("rows", rows), ("cols", cols), ("k", k)):
        page.fill(f"#custom-{field}", str(value))


def test_the_form_names_a_gravity_board_and_draws_it_from_its_shape(page: Page, base_url: str) -> None:
    """The page's old copy of the grammar dropped -gravity: 4x5k4-gravity came out as 4x5k4."""
    name = "4x5k4-gravity"
    assert "gravity" in api_get(base_url, "/variants")["name_form"]["options"]
    facts = api_get(base_url, f"/variants/{name}")
    assert facts["shape"] == {"sides": [4, 5], "torus": False, "gravity_axis": 0}
    page.route("**/variants", without_v1_sides)
    page.route("**/variants/*", without_v1_sides)
    open_link(page, "variant=connect4")
    page.check("input[name='mode'][value='humans']")  # no computer move: the board stays empty
    wait_idle(page)
    page.click("#custom summary")
    # The form starts from the board being played, its options included.
    filled = [page.input_value(f"#custom-{field}") for field in ("rows", "cols", "k")]
    assert filled == ["6", "7", "4"] and page.is_checked("#custom-gravity")
    assert not any(page.is_checked(f"#custom-{option}") for option in ("torus", "misere", "exact"))
    # a searched board's wait, as the page measures it: a second a search, more for a move and a reply
    assert "reply takes two or three seconds" in page.inner_text("#custom-limits")
    asked = watch_variant_requests(page)
    fill_form(page, 4, 5, 4)
    page.click("#custom-play")
    page.wait_for_selector(f"#app[data-variant='{name}'][data-busy='false']")
    assert asked == [f"{base_url}/variants/{name}"]
    assert page.input_value("#variant") == name and "variant=4x5k4-gravity" in page.url
    # Four rows of five, drawn as a grid: five distinct columns, four distinct rows on screen.
    corners = "(cells) => cells.map((c) => [c.getBoundingClientRect().x, c.getBoundingClientRect().y])"
    boxes = page.eval_on_selector_all("#board .cell", corners)
    assert len(boxes) == 20
    assert len({round(x) for x, _ in boxes}) == 5 and len({round(y) for _, y in boxes}) == 4
    # Gravity's marks, as on Connect Four: a rack with numbered columns, only each column's lowest hole
    # offered, rows named from the bottom, and a click anywhere in a column plays its lowest cell.
    assert "gravity" in (page.get_attribute("#board", "class") or "")
    assert page.is_visible("#rack-head")
    numbers = page.eval_on_selector_all("#rack-head .rack-number", "(ns) => ns.map((n) => n.textContent)")
    assert numbers == ["1", "2", "3", "4", "5"]
    offered = page.eval_on_selector_all(
        "#board .cell[data-offered='true']", "(cells) => cells.map((c) => Number(c.dataset.cell))"
    )
    assert offered == [15, 16, 17, 18, 19]
    assert (page.get_attribute(".cell[data-cell='15']", "aria-label") or "").startswith("cell a1")
    assert (page.get_attribute(".cell[data-cell='4']", "aria-label") or "").startswith("cell e4")
    click_cell(page, 2)  # the top of column c
    assert state(page, "moves") == "17"


def test_a_board_the_service_refuses_shows_the_services_sentence(page: Page, base_url: str) -> None:
    """The page's old size rules refused these before asking, in words of its own."""
    open_link(page, "variant=normal")
    page.click("#custom summary")
    asked = watch_variant_requests(page)
    # A side past the limit (20); a line longer than the longer side.
    for rows, cols, k in ((21, 3, 3), (3, 3, 4)):
        name = f"{rows}x{cols}k{k}"
        problem = api_problem(base_url, f"/variants/{name}")
        assert problem["status"] == 422
        fill_form(page, rows, cols, k)
        page.click("#custom-play")
        page.wait_for_selector("#custom-error:not([hidden])")
        assert page.inner_text("#custom-error") == problem["detail"]
        assert asked[-1] == f"{base_url}/variants/{name}"
        assert state(page, "variant") == "normal", "a refused board replaced the one being played"
        page.fill("#custom-k", "3")
        assert page.is_hidden("#custom-error"), "the old error stayed on screen after an edit"
    assert len(asked) == 2


def test_the_form_names_a_board_exactly_k_and_keeps_it_off_a_torus(page: Page, base_url: str) -> None:
    """Exactly k takes no torus or gravity: ticking one disables the others, with the reason said, and
    the board the form names shows the service's rules sentence, a longer run counting for nothing."""
    name = "7x7k4-exact"
    assert "exact" in api_get(base_url, "/variants")["name_form"]["options"]
    facts = api_get(base_url, f"/variants/{name}")
    assert facts["exact"] and facts["rules"].startswith("Exactly four in a row (a longer run does not count)")
    assert "-exact takes no -torus" in api_problem(base_url, "/variants/7x7k4-torus-exact")["detail"]
    open_link(page, "variant=normal")
    page.check("input[name='mode'][value='humans']")  # no computer move: no search waited for
    wait_idle(page)
    page.click("#custom summary")
    assert not page.is_checked("#custom-exact") and page.is_enabled("#custom-exact")
    assert page.inner_text("#custom-options-note") == ""
    fill_form(page, 7, 7, 4)
    page.check("#custom-exact")
    assert page.is_disabled("#custom-torus") and page.is_disabled("#custom-gravity")
    assert page.is_enabled("#custom-misere")
    assert page.inner_text("#custom-options-note") == "Torus and gravity are off while exactly k is ticked."
    page.uncheck("#custom-exact")
    page.check("#custom-torus")
    assert page.is_disabled("#custom-exact") and page.is_enabled("#custom-gravity")
    assert page.inner_text("#custom-options-note") == "Exactly k is off while torus is ticked."
    page.uncheck("#custom-torus")
    assert page.is_enabled("#custom-exact") and page.inner_text("#custom-options-note") == ""
    page.check("#custom-exact")
    asked = watch_variant_requests(page)
    page.click("#custom-play")
    page.wait_for_selector(f"#app[data-variant='{name}'][data-busy='false']", timeout=30_000)
    assert asked == [f"{base_url}/variants/{name}"]
    assert page.input_value("#variant") == name and f"variant={name}" in page.url
    assert page.inner_text("#variant-rules") == facts["rules"]
    assert "7×7 board, exactly 4 in a row" in page.inner_text("#play-heading")
    assert page.locator("#board .cell").count() == 49
    # The form starts again from the board being played: exactly k ticked, the torus still kept off.
    assert page.is_checked("#custom-exact") and page.is_disabled("#custom-torus")
