"""Driving the page as a person would, and asking the API directly (urllib) for the expected answers."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

Json = dict[str, Any]

# The page's keys, as on a numeric keypad: 7 8 9 top row, 4 5 6 middle, 1 2 3 bottom.
KEY_OF_CELL = {0: 7, 1: 8, 2: 9, 3: 4, 4: 5, 5: 6, 6: 1, 7: 2, 8: 3}


def api_get(base_url: str, path: str, **query: str) -> Json:
    url = f"{base_url}{path}?{urllib.parse.urlencode(query)}"
    with urllib.request.urlopen(url, timeout=10) as response:
        answer: Json = json.load(response)
    return answer


def api_post(base_url: str, path: str, body: Json) -> Json:
    request = urllib.request.Request(
        f"{base_url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: Json = json.load(response)
    return answer


def value_words(value: Json) -> str:
    if value["result"] == "win":
        return f"wins in {value['remoteness']}"
    if value["result"] == "loss":
        return f"loses in {value['remoteness']}"
    return "draws"


def verdict_words(analysis: Json) -> str:
    mover = analysis["to_move"]
    if analysis["result"] == "draw":
        return f"{mover} to move: draw with perfect play"
    winner = mover if analysis["result"] == "win" else ("O" if mover == "X" else "X")
    return f"{mover} to move: {winner} wins in {analysis['remoteness']} with perfect play"


def wait_idle(page: Page) -> None:
    page.wait_for_selector("#app[data-busy='false']")


def open_app(page: Page, *, mode: str = "computer", variant: str = "normal", human: str = "X") -> None:
    page.goto("/")
    wait_idle(page)
    if mode != "computer":
        page.check(f"input[name='mode'][value='{mode}']")
        wait_idle(page)
    if human != "X":
        page.select_option("#human-side", human)
        wait_idle(page)
    if variant != "normal":
        page.select_option("#variant", variant)
        wait_idle(page)


def state(page: Page, name: str) -> str:
    value = page.get_attribute("#app", f"data-{name}")
    assert value is not None, f"#app has no data-{name}"
    return value


def press_cell(page: Page, cell: int) -> None:
    """Plays `cell` of a 3×3 board with its keypad key, as a keyboard user would, and waits for the page."""
    page.focus(".cell[tabindex='0']")
    page.keyboard.press(str(KEY_OF_CELL[cell]))
    wait_idle(page)


def click_cell(page: Page, cell: int) -> None:
    page.click(f".cell[data-cell='{cell}']")
    wait_idle(page)


def show_overlay(page: Page, mode: str = "values") -> None:
    page.check(f"input[name='overlay'][value='{mode}']")


def shown_cell(page: Page, cell: int) -> Json:
    """What one cell shows: its data attributes, visible value text and accessible label."""
    shown: Json = page.eval_on_selector(
        f".cell[data-cell='{cell}']",
        """(button) => ({
            mark: button.dataset.mark,
            result: button.dataset.result ?? null,
            remoteness: button.dataset.remoteness ?? null,
            best: button.dataset.best === "true",
            text: button.querySelector(".cell-value").textContent,
            label: button.getAttribute("aria-label"),
        })""",
    )
    return shown
