"""The boards the search answers: listed in the variant menu apart from the
tables' boards, "nothing proven here; shallow guesses" on 8×8 with the guesses behind a toggle, the
review of a searched game with its unjudged plies shown as such in the list, the counts and the chart,
and the docs' screenshots of Connect Four and of a searched 8×8 board."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from .conftest import DESKTOP
from .ui import analysing, api_get, axe_violations, docs_shot, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

    from .conftest import PageFactory


def test_the_variant_menu_groups_the_tables_and_the_searched_boards(page: Page, base_url: str) -> None:
    listed = api_get(base_url, "/variants")["variants"]
    analysing(page, "variant=normal")
    groups = page.eval_on_selector_all(
        "#variant optgroup", "gs => gs.map(g => [g.label, [...g.children].map(o => o.value)])"
    )
    assert [label.split(":")[0] for label, _ in groups] == ["Solved tables", "Searched"]
    assert groups[0][1] == [v["name"] for v in listed if v["source"] == "table"]
    assert groups[1][1] == [v["name"] for v in listed if v["source"] == "search"]
    assert {"connect4", "5x5k4", "6x6k5", "7x7k5", "8x8k5"} <= set(groups[1][1])


def counted(summary: str, side: str, verdict: str) -> int:
    found = re.search(rf"{side}: [^·]*?(\d+) {verdict}", summary)
    return int(found.group(1)) if found else 0


def test_a_searched_8x8_game_says_what_is_not_proven(new_page: PageFactory) -> None:
    page = new_page(DESKTOP, color_scheme="light", reduced_motion="reduce")
    # 8×8: on 7×7 the provers settle some moves this early; here no move's value is proven
    # in 1 s (bounds may be)
    reviews: list[str] = []
    page.on(
        "request", lambda request: reviews.append(request.url) if request.url.endswith("/review") else None
    )
    analysing(page, "variant=8x8k5&moves=27,28,36")
    # A searched game's review waits for its end, or for the player to ask: it searches every position.
    page.wait_for_selector("#review[data-state='waiting']")
    assert "reviewed at its end" in page.inner_text("#review-state") and reviews == []
    page.click("#review-now")
    page.wait_for_selector("#review[data-state='ready']")
    assert len(reviews) == 1 and page.is_hidden("#review-now")
    # Nothing proven: said in words, no move ranked, the guesses' numbers behind their toggle.
    assert page.inner_text("#unsettled-words") == "Nothing proven here; shallow guesses only."
    assert page.is_hidden("#ranking") and page.is_hidden("#guessed")
    shown = page.eval_on_selector_all("#board .cell-value", "cells => cells.map(c => c.textContent)")
    # Unknown, or a bound the provers proved (no move wins, say): never a guess's number
    assert shown.count("") == 3 and set(shown) <= {"", "?", "≤draw", "≥draw"}, shown  # "": the marks
    page.click("#guesses summary")
    assert page.locator("#guessed li").count() == 61
    # On the board a guess's number shows where nothing is proven of the move, and only there (the
    # provers often bound every move here in the second now, "≤draw": then none shows)
    guessed = page.eval_on_selector_all("#board .cell-value", "cells => cells.map(c => c.textContent)")
    scale = page.inner_text("#guesses-scale")
    if "no time left" in scale:  # under load the estimates may get no time: then no number shows
        assert not any("≈" in value for value in guessed), guessed
    else:
        assert sum("≈" in value for value in guessed) == shown.count("?"), guessed
        assert "a score for O, who plays the move" in scale
        assert "plus for O's lines and minus for the opponent's" in scale
    # The review: every unjudged ply said so, in the list, the counts and the chart.
    verdicts = page.eval_on_selector_all("#move-list > li", "rows => rows.map(r => r.dataset.verdict)")
    details = page.inner_text("#move-list")
    summary = page.inner_text("#review-summary")
    unjudged = {side: verdicts[index::2].count("unknown") for index, side in enumerate("XO")}
    assert sum(unjudged.values()) == 3, verdicts  # nothing is proven this early on 8×8
    assert counted(summary, "X", "not judged") == 2 and counted(summary, "O", "not judged") == 1, summary
    assert counted(summary, "X", "best") == 0 and "not judged" in page.inner_text("#verdict-legend")
    assert not re.search(r"best was ,|which not|which at", details + summary), details
    assert page.locator("#chart .chart-point.verdict-unknown rect").count() == 3
    assert page.locator("#chart .chart-line.chart-open").count() == 3
    assert "not judged" in page.inner_text("#chart-caption")
    assert "judged" in page.inner_text("#review-state")
    assert axe_violations(page) == []
    page.evaluate("window.scrollTo(0, 0)")
    docs_shot(page, "searched-8x8")


def test_under_misere_the_guesses_count_ones_own_lines_against_it(page: Page) -> None:
    """The core's evaluation turns its sign under misère (a line of one's own is a liability), and the
    words that explain the guesses say so."""
    analysing(page, "variant=8x8k5-misere&moves=27,28,36")
    page.click("#guesses summary")
    scale = page.inner_text("#guesses-scale")
    if "no time left" not in scale:  # under load the estimates may get no time at all
        assert "minus for O's lines and plus for the opponent's" in scale, scale


def test_a_computer_move_no_search_proved_best_is_called_a_guess(page: Page) -> None:
    """POST /move says `proven_best: false` where "perfect" had to play the search's first-ranked move
    without a proof (forced here by rewriting the answer, as a budget too short would leave it); the
    status says the move is a guess. A proven best move is not called one."""
    flags = iter([False, True])

    def unproven(route: Route) -> None:
        response = route.fetch()
        body = response.json()
        body["proven_best"] = next(flags)
        route.fulfill(response=response, json=body)

    page.route("**/move", unproven)
    page.goto("/?variant=normal")
    wait_idle(page)
    page.click(".cell[data-cell='4']")  # X; the computer (O) replies
    page.wait_for_selector("#status:has-text('The computer (O) played')")
    wait_idle(page)
    assert "It is a guess" in page.inner_text("#status")
    board = page.get_attribute("#app", "data-board") or ""
    page.click(f".cell[data-cell='{board.index('.')}']")
    wait_idle(page)
    assert "It is a guess" not in page.inner_text("#status")
