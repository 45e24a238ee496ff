"""Driving the page as a person would, and asking the API directly (urllib) for the expected answers."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .conftest import ARTIFACTS

if TYPE_CHECKING:
    from playwright.sync_api import Page

Json = dict[str, Any]

# The page's keys, as on a numeric keypad: 7 8 9 top row, 4 5 6 middle, 1 2 3 bottom.
KEY_OF_CELL = {0: 7, 1: 8, 2: 9, 3: 4, 4: 5, 5: 6, 6: 1, 7: 2, 8: 3}


BUSY_TRIES = 10


def api_call(request: urllib.request.Request | str) -> Json:
    """The JSON answer, asked again after a 503's Retry-After as a client does: the page's own searches
    may hold the server's search slots a moment longer on a loaded machine."""
    for attempt in range(BUSY_TRIES):
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                answer: Json = json.load(response)
            return answer
        except urllib.error.HTTPError as error:
            if error.code != 503 or attempt == BUSY_TRIES - 1:
                raise
            time.sleep(float(error.headers.get("Retry-After", "1")))
    raise AssertionError("unreachable")


def api_get(base_url: str, path: str, **query: str) -> Json:
    return api_call(f"{base_url}{path}?{urllib.parse.urlencode(query)}")


def api_post(base_url: str, path: str, body: Json) -> Json:
    request = urllib.request.Request(
        f"{base_url}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    return api_call(request)


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
            strength: button.dataset.strength ?? null,
            best: button.dataset.best === "true",
            text: button.querySelector(".cell-value").textContent,
            label: button.getAttribute("aria-label"),
        })""",
    )
    return shown


def open_link(page: Page, query: str) -> None:
    """Opens the page on a game link (`variant=...&moves=...`) and waits for it to settle."""
    page.goto(f"/?{query}")
    wait_idle(page)


def cells_of(page: Page) -> int:
    return page.locator("#board .cell").count()


def board_after(moves: list[int], cells: int, first: str = "X", start: str | None = None) -> str:
    marks = list(start or "." * cells)
    for ply, cell in enumerate(moves):
        marks[cell] = first if ply % 2 == 0 else ("O" if first == "X" else "X")
    return "".join(marks)


def focused_cell(page: Page) -> int:
    """The cell that holds the board's Tab stop."""
    return int(page.get_attribute("#board .cell[tabindex='0']", "data-cell") or "-1")


def key_to_cell(page: Page, cell: int, cols: int) -> None:
    """Enters the board from the keyboard (the skip link), walks the focus to `cell` with the arrow keys
    from the board's Tab stop, then presses Enter."""
    page.focus(".skip-link")
    page.keyboard.press("Enter")
    here = focused_cell(page)
    rows_down, cols_right = cell // cols - here // cols, cell % cols - here % cols
    for key, count in (("ArrowDown", rows_down), ("ArrowUp", -rows_down)):
        for _ in range(max(count, 0)):
            page.keyboard.press(key)
    for key, count in (("ArrowRight", cols_right), ("ArrowLeft", -cols_right)):
        for _ in range(max(count, 0)):
            page.keyboard.press(key)
    assert focused_cell(page) == cell
    page.keyboard.press("Enter")
    wait_idle(page)


def play_board(page: Page, rows: int, cols: int, k: int) -> None:
    """Plays another board, with none of the name's options, through the form (already open), as a person
    would fill it. The form starts from the board being played, so an option it holds is unticked."""
    for field, value in (("rows", rows), ("cols", cols), ("k", k)):
        page.fill(f"#custom-{field}", str(value))
    for option in ("torus", "gravity", "misere"):
        page.uncheck(f"#custom-{option}")
    page.click("#custom-play")
    page.wait_for_selector(f"#app[data-variant='{rows}x{cols}k{k}'][data-busy='false']")


def api_problem(base_url: str, path: str, **query: str) -> Json:
    """The problem+json body of a GET the API refuses."""
    url = f"{base_url}{path}?{urllib.parse.urlencode(query)}"
    try:
        urllib.request.urlopen(url, timeout=10)
    except urllib.error.HTTPError as error:
        problem: Json = json.load(error)
        return problem
    raise AssertionError(f"{url} was answered")


def overlay_of(page: Page, cells: int) -> dict[int, Json]:
    return {cell: shown_cell(page, cell) for cell in range(cells)}


def axe_violations(page: Page) -> list[tuple[str, str, int]]:
    """axe-core's violations on the page as it stands, of any impact: (rule, impact, nodes). The axe-core
    pinned in tests/page (axe_core.py), with WCAG 2.5.3's label-in-name rule on."""
    from .axe_core import axe_results

    results = axe_results(page)
    return [(v["id"], v["impact"], len(v["nodes"])) for v in results["violations"]]


def analysing(page: Page, query: str) -> None:
    """Opens a link with two players on this screen and the values shown (remembered on the device)."""
    page.goto("/")
    wait_idle(page)
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page)
    open_link(page, query)


def move_texts(page: Page) -> list[str]:
    texts: list[str] = page.eval_on_selector_all("#move-list .ply-button", "bs => bs.map(b => b.textContent)")
    return texts


DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "pages" / "img-front-end"


def docs_shot(page: Page, name: str) -> None:
    """A screenshot into the artifacts; the docs' copy (docs/pages/img-front-end/) was taken by it."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    assert (DOCS_IMG / f"{name}.png").exists(), "the docs' screenshot is missing"
