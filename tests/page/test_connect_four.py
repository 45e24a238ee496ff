"""Connect Four as its players know it: a game by column string in a link
and by import, rows named from the bottom, the column scores over the board as Pascal Pons's solver
gives them, a disc in mid-air cut with a sentence, the progress bar before every searched answer, and
the moves never ranked with guesses among them, the same over three loads."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import pytest

from .conftest import DESKTOP
from .ui import analysing, api_get, axe_violations, docs_shot, move_texts, open_link, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

COLS, ROWS = 7, 6
# X d1, O d2, X e1, O c1: the rows count from the bottom, as Connect Four's players count them.
OPENING = ("4453", [38, 31, 39, 37], ["X→d1", "O→d2", "X→e1", "O→c1"])
# 26 discs, X to move, every move proven within a fraction of a second: wins in 1, 3 and 9, a loss in 16.
LATE = "77314243457123612257142677"
MINUS = "\N{MINUS SIGN}"  # as the page writes a negative score


def cells_of_columns(columns: str) -> list[int]:
    heights = [0] * COLS
    cells = []
    for digit in columns:
        col = int(digit) - 1
        cells.append((ROWS - 1 - heights[col]) * COLS + col)
        heights[col] += 1
    return cells


def board_of(cells: list[int]) -> str:
    marks = ["."] * (ROWS * COLS)
    for ply, cell in enumerate(cells):
        marks[cell] = "XO"[ply % 2]
    return "".join(marks)


def pons_score(move: dict[str, Any], board: str) -> str:
    """The score Pons's solver shows, from the discs each side will have placed: a win with one's s-th
    disc scores 22 - s, a loss the negative of the opponent's, a draw 0."""
    if move["result"] == "draw":
        return "0"
    mover = "X" if board.count("X") == board.count("O") else "O"
    if move["result"] == "win":
        discs = board.count(mover) + (move["remoteness"] + 1) // 2
        return f"+{22 - discs}"
    other = "O" if mover == "X" else "X"
    discs = board.count(other) + move["remoteness"] // 2
    return f"{MINUS}{22 - discs}"


def test_a_game_by_column_string_in_a_link_and_by_import(page: Page) -> None:
    columns, cells, names = OPENING
    open_link(page, f"variant=connect4&pos={columns}")
    assert state(page, "moves") == ",".join(map(str, cells))
    assert move_texts(page) == names
    assert "pos=4453" in page.url  # the page writes its own links that way too
    numbers = page.eval_on_selector_all("#rack-head .rack-number", "ns => ns.map(n => n.textContent)")
    assert numbers == [str(col) for col in range(1, COLS + 1)]
    label = page.get_attribute(".cell[data-cell='38']", "aria-label") or ""
    assert label.startswith("cell d1,") and "row" not in label  # one count of rows, the name's
    for text in (columns, f"connect4 X: 1. {names[0][2:]} {names[1][2:]} 2. e1 c1"):
        page.goto("/?variant=normal")
        wait_idle(page)
        page.click("#exchange summary")
        page.fill("#import-text", text)
        page.click("#import")
        page.wait_for_selector("#app[data-variant='connect4'][data-busy='false']")
        assert state(page, "moves") == ",".join(map(str, cells)), text
    assert "1. d1 d2 2. e1 c1" in page.input_value("#export-text")


def test_a_disc_in_mid_air_is_cut_with_a_sentence(page: Page) -> None:
    """d6 is the top of column d: the link opens the game up to the move before it, with no dead end,
    and the sentence stays on screen under a prompt that is never clipped."""
    open_link(page, "variant=connect4&moves=38,3,31")
    assert state(page, "moves") == "38"
    status = page.inner_text("#status")
    assert "move 2 (d6) cannot be played" in status and "The game is cut there." in status
    assert page.is_hidden("#error")
    prompt, box = (page.locator(s).bounding_box() for s in ("#status-prompt", "#status"))
    assert prompt and box and box["y"] <= prompt["y"]
    assert prompt["y"] + prompt["height"] <= box["y"] + box["height"], "the prompt is clipped"
    page.click("#exchange summary")
    page.fill("#import-text", "connect4 X: 1. d1 e4")
    page.click("#import")
    page.wait_for_selector("#status:has-text('move 2 (e4) cannot be played')")
    wait_idle(page)
    assert state(page, "moves") == "38"


def test_the_scores_over_the_board_are_pons_scores(new_page: PageFactory, base_url: str) -> None:
    cells = cells_of_columns(LATE)
    board = board_of(cells)
    expected = api_get(base_url, "/analyze", board=board, variant="connect4")
    assert expected["exact"], "the test's position is proven in a fraction of a second"
    want = {move["col"] + 1: pons_score(move, board) for move in expected["moves"]}
    for scheme in ("light", "dark"):
        page = new_page(DESKTOP, color_scheme=scheme, reduced_motion="reduce")
        analysing(page, f"variant=connect4&pos={LATE}")
        shown = page.eval_on_selector_all(
            "#rack-head .rack-column",
            "cs => cs.map(c => [Number(c.dataset.col) + 1, c.querySelector('.rack-score').textContent])",
        )
        assert {col: text for col, text in shown if text} == want
        # a win in 1 (X's 14th disc), in 3 (the 15th), a loss in 16 (O's 21st)
        assert {"+8", "+7", f"{MINUS}1"} <= set(want.values())
        label = page.get_attribute(f".cell[data-cell='{expected['moves'][0]['cell']}']", "aria-label") or ""
        assert f"score {want[expected['moves'][0]['col'] + 1]}" in label
        assert axe_violations(page) == [], scheme
        if scheme == "light":
            page.evaluate("window.scrollTo(0, 0)")
            docs_shot(page, "connect4")


BAR_WATCH = """
document.addEventListener("DOMContentLoaded", () => {
  const bar = document.getElementById("search-progress");
  window.barShown = 0;
  new MutationObserver(() => { if (!bar.hidden) window.barShown += 1; })
    .observe(bar, { attributes: true, attributeFilter: ["hidden"] });
});
"""


def test_the_progress_bar_shows_before_every_searched_answer(new_page: PageFactory) -> None:
    """GET /variants says which boards a search answers, so the bar shows before the answer comes, on
    Connect Four too (whether a search or a book then answers), and never on a table's board."""
    page = new_page()
    page.add_init_script(BAR_WATCH)
    for variant, searched in (("3x4k3", False), ("connect4", True)):
        analysing(page, f"variant={variant}")
        page.evaluate("window.barShown = 0")
        page.click(".cell[data-cell='0']")
        wait_idle(page)
        assert (page.evaluate("window.barShown") > 0) == searched, variant
        assert page.is_hidden("#search-progress")


def ranked(page: Page) -> tuple[list[list[str]], list[list[str]], str]:
    proven = page.eval_on_selector_all(
        "#ranked li", "rows => rows.map(r => [r.dataset.cell, r.dataset.result, r.innerText])"
    )
    # textContent: the rows are behind a closed toggle, which innerText would read as empty
    guessed = page.eval_on_selector_all(
        "#guessed li", "rows => rows.map(r => [r.dataset.cell, r.textContent])"
    )
    return proven, guessed, page.inner_text("#unsettled-words")


def test_the_empty_board_never_ranks_guesses_and_reads_the_same_three_times(page: Page) -> None:
    """The first ranked move was a guess, and three loads gave three orders."""
    seen = []
    analysing(page, "variant=connect4")
    for load in range(3):
        if load > 0:
            open_link(page, "variant=connect4")  # a new page load: nothing kept in the page
        proven, guessed, words = ranked(page)
        assert all(result != "unknown" for _, result, _ in proven), proven
        cells = [int(cell) for cell, _ in guessed]
        assert cells == sorted(cells), "guesses are in the board's order, not ranked"
        assert sorted(cells + [int(cell) for cell, _, _ in proven]) == list(range(35, 42))
        if guessed and not proven:
            assert words == "Nothing proven here; shallow guesses only."
        scale = page.eval_on_selector("#guesses-scale", "scale => scale.textContent")
        seen.append((proven, cells, words, guessed, scale))
    # The same every load; the guesses too when read as deep (the estimates' nodes are a budget, but
    # under load the deadline may stop them a ply sooner, and the scale then says how deep they went).
    assert seen[0][:3] == seen[1][:3] == seen[2][:3]
    for one, other in itertools.combinations(seen, 2):
        if one[4] == other[4]:
            assert one[3] == other[3], (one, other)
    if seen[0][1]:  # the guesses wait behind their toggle, with their side and scale
        assert page.is_hidden("#guessed")
        page.click("#guesses summary")
        scale = page.inner_text("#guesses-scale")
        guessed = seen[2][3]
        if all("no guess" in text for _, text in guessed):  # under load: no time for guesses
            assert "no time left" in scale
        else:
            assert "a score for X, who plays the move" in scale and "plies ahead" in scale
            assert all("guess" in text for _, text in guessed), guessed


BADGE_COLOURS = """() => {
    const hex = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    const rgb = (value) => {
        const probe = document.createElement("i");
        probe.style.color = value;
        document.body.append(probe);
        const found = getComputedStyle(probe).color;
        probe.remove();
        return found;
    };
    return [...document.querySelectorAll("#board .cell[data-plan-side]")].map((cell) => [
        getComputedStyle(cell.querySelector(".cell-plan")).backgroundColor,
        rgb(hex(cell.dataset.planSide === "X" ? "--disc-x" : "--disc-o")),
    ]);
}"""


def test_the_main_lines_badges_take_the_discs_colours(page: Page) -> None:
    """Each numbered badge of the main line is drawn in the colour of the disc its side plays (X red,
    O yellow), not the page's X blue and O red: on every gravity board's rack, here one with a table,
    whose main line is proven to the end."""
    analysing(page, "variant=4x4k3-gravity&moves=12")
    page.click("#mainline-button")
    page.wait_for_selector("#mainline[data-state='ready']")
    pairs = page.evaluate(BADGE_COLOURS)
    assert len(pairs) >= 2 and all(badge == disc for badge, disc in pairs), pairs
