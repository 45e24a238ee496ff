"""The game record (every line played, with its variations): variations kept when a move is played back
in the game, the move list's nesting and keys, promoting and deleting a variation, the record and the overlay
in the link (and old links that name it `tree`), the move list scrolled to the current move, and hand-edited
links that cannot be played opened as the nearest game."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from .ui import api_problem, open_link, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

# A 4x4 game to four in a row that fills the board with no line: X X O O / O O X X / X X O O / O O X X.
FULL_DRAW = [0, 2, 1, 3, 6, 4, 7, 5, 8, 10, 9, 11, 14, 12, 15, 13]


def two_players(page: Page, query: str) -> None:
    open_link(page, query)
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)


def current_path(page: Page) -> str | None:
    current = page.query_selector("#move-list [aria-current='step']")
    return current.get_attribute("data-path") if current else None


def query_of(page: Page) -> str:
    return urlsplit(page.url).query


def play(page: Page, cell: int) -> None:
    page.click(f".cell[data-cell='{cell}']")
    wait_idle(page)


def test_playing_back_in_the_game_keeps_the_old_line_as_a_variation(page: Page) -> None:
    two_players(page, "variant=4x4k4&moves=5,0,10,15")
    page.click("#nav-back")
    wait_idle(page)
    page.click("#nav-back")
    wait_idle(page)
    play(page, 3)
    overlay = page.locator("input[name='overlay']:checked").get_attribute("value")
    assert f"record=5,0,10(3),15&moves=5,0,3&overlay={overlay}" in query_of(page)
    assert page.locator("#move-list > li").count() == 4  # the main line is still all there
    variation = page.locator("#move-list .variation")
    assert variation.count() == 1 and "X→d1" in variation.inner_text()
    assert current_path(page) == "5,0,3"
    assert page.get_attribute("#nav-end", "aria-disabled") == "true"  # the end of the line shown
    assert "After move 3 of 3" in page.inner_text("#nav-where")
    # Undo and Redo move along the line shown (Redo is no longer lost by playing back in the game).
    page.click("#undo")
    wait_idle(page)
    assert current_path(page) == "5,0" and page.is_enabled("#redo")
    page.click("#redo")
    wait_idle(page)
    assert current_path(page) == "5,0,3"
    # The old continuation is one click away, and playing the move that follows just steps forward.
    page.click("#move-list [data-path='5,0,10,15']")
    wait_idle(page)
    assert current_path(page) == "5,0,10,15" and "moves=5,0,10,15&" in query_of(page)
    page.click("#nav-back")
    wait_idle(page)
    play(page, 15)
    assert current_path(page) == "5,0,10,15" and page.locator("#move-list .variation").count() == 1


def test_the_keys_move_along_the_line_and_between_variations(page: Page) -> None:
    two_players(page, "variant=4x4k4&record=5,0,10(3,6),15&moves=5,0,3,6&ply=3")
    page.focus("#move-list [aria-current='step']")
    assert current_path(page) == "5,0,3"
    page.keyboard.press("ArrowLeft")
    wait_idle(page)
    assert current_path(page) == "5,0"
    page.keyboard.press("ArrowRight")  # back along the line shown, into the variation
    wait_idle(page)
    assert current_path(page) == "5,0,3"
    page.keyboard.press("ArrowUp")  # the main move tried at the same point
    wait_idle(page)
    assert current_path(page) == "5,0,10"
    page.keyboard.press("End")
    wait_idle(page)
    assert current_path(page) == "5,0,10,15"
    page.keyboard.press("Home")
    wait_idle(page)
    assert current_path(page) is None and "ply=0" in query_of(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.focus("#move-list [aria-current='step']")
    page.keyboard.press("ArrowDown")
    wait_idle(page)
    assert current_path(page) == "5,0,3"
    assert page.evaluate("document.activeElement.dataset.path") == "5,0,3"
    assert "↑ and ↓" in page.inner_text("#moves-help")


def test_a_variation_is_promoted_and_deleted(page: Page) -> None:
    two_players(page, "variant=4x4k4&record=5,0,10(3,6(7)),15&moves=5,0,3,6&ply=4")
    assert page.is_visible("#variation-controls")
    page.click("#promote")
    wait_idle(page)
    assert "record=5,0,3(10,15),6(7)&moves=5,0,3,6&" in query_of(page)
    main_line = [row.get_attribute("data-cell") for row in page.locator("#move-list > li").all()]
    assert main_line == ["5", "0", "3", "6"]
    assert page.get_attribute("#promote", "aria-disabled") == "true"  # on the main line now
    page.click("#move-list [data-path='5,0,3,7']")
    wait_idle(page)
    page.click("#delete-variation")
    wait_idle(page)
    assert "record=5,0,3(10,15),6&moves=5,0,3,6&ply=3&" in query_of(page)
    page.click("#move-list [data-path='5,0,10']")
    wait_idle(page)
    page.click("#delete-variation")
    wait_idle(page)
    assert "record=" not in query_of(page) and "moves=5,0,3,6&ply=2&" in query_of(page)
    assert page.locator("#move-list .variation").count() == 0
    assert page.is_hidden("#variation-controls")
    assert page.evaluate("document.activeElement.dataset.path") == "5,0"


def test_a_record_link_opens_as_it_was_written(page: Page) -> None:
    query = "variant=4x4k4&first=O&record=5,0(3,4(7)(8,9)),10&moves=5,3,8,9&ply=3&overlay=hint"
    open_link(page, query)
    assert query_of(page) == query
    assert page.is_checked("input[name='overlay'][value='hint']")
    assert current_path(page) == "5,3,8"
    assert page.locator("#move-list .variation").count() == 3
    page.check("input[name='overlay'][value='values']")
    assert query_of(page) == query.replace("overlay=hint", "overlay=values")
    # A link from before the record was named carries it as `tree`: the same game opens, written anew.
    open_link(page, query.replace("record=", "tree="))
    assert query_of(page) == query
    assert current_path(page) == "5,3,8" and page.locator("#move-list .variation").count() == 3
    # A link from before variations were kept still opens, and is written as before.
    open_link(page, "variant=4x4k3&moves=5,0,10&ply=2")
    assert query_of(page).startswith("variant=4x4k3&first=X&moves=5,0,10&ply=2&overlay=")


def test_the_move_list_keeps_the_current_move_in_view(page: Page) -> None:
    two_players(page, f"variant=4x4k4&moves={','.join(map(str, FULL_DRAW))}&ply=0")
    page.focus("#nav-start")
    page.keyboard.press("End")
    wait_idle(page)
    assert state(page, "status") == "draw"
    inside = """() => {
        const list = document.getElementById("move-list").getBoundingClientRect();
        const move = document.querySelector("#move-list [aria-current='step']").getBoundingClientRect();
        return move.top >= list.top - 1 && move.bottom <= list.bottom + 1;
    }"""
    assert page.evaluate("document.getElementById('move-list').scrollTop") > 0
    assert page.evaluate(inside)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    assert page.evaluate(inside)


def test_a_link_with_moves_after_a_win_opens_the_game_up_to_its_end(page: Page) -> None:
    open_link(page, "variant=normal&moves=0,3,1,4,2,5,6")  # X completes the top row at move 5
    assert state(page, "status") == "x_won"
    assert "moves=0,3,1,4,2&" in query_of(page)
    assert "moves after the end of the game (it is over after move 5)" in page.inner_text("#status")
    assert page.is_hidden("#error")


def test_a_link_with_an_impossible_start_opens_the_empty_board(page: Page, base_url: str) -> None:
    problem = api_problem(base_url, "/analyze", board="XXX......", to_move="O", variant="normal")
    open_link(page, "variant=normal&first=O&start=XXX/.../...&moves=4")
    assert f"start position is impossible: {problem['detail']}" in page.inner_text("#status")
    assert "empty board" in page.inner_text("#status")
    assert page.is_hidden("#error")
    assert page.locator("#board .cell[data-mark='X']").count() == 0
    assert "start=" not in query_of(page)


def export_text(page: Page) -> str:
    if not page.is_visible("#export-text"):
        page.click("#exchange summary")
    page.wait_for_function("() => document.getElementById('export-text').value !== ''")  # filled on opening
    return page.input_value("#export-text")


def import_text(page: Page, text: str) -> None:
    if not page.is_visible("#import-text"):
        page.click("#exchange summary")
    page.fill("#import-text", text)
    page.click("#import")
    page.wait_for_selector("#import-form[data-state='done']")
    wait_idle(page)


def test_a_game_is_exported_as_text_and_imported_back(new_page: PageFactory) -> None:
    page = new_page()
    open_link(page, "variant=4x4k4&record=5,0(3,4(7)(8,9)),10&moves=5,3,8,9&ply=3")
    text = export_text(page)
    assert text == "4x4k4 X: 1. b2 a1 (1... d1 2. a2 (2. d2) (2. a3 b3)) 2. c3"
    assert page.input_value("#export-link") == page.url
    other = new_page()
    open_link(other, "variant=normal")
    import_text(other, text)
    assert "record=5,0(3,4(7)(8,9)),10&moves=5,0,10&" in query_of(other)
    assert "Game opened from the text." in other.inner_text("#status")
    # A start board and the other side first, on a board named by its keys.
    open_link(page, "variant=normal&first=O&start=X../.O./...&record=2(6,8)&moves=2")
    text = export_text(page)
    assert text == "normal O X../.O./...: 1. 9 (1. 1 3)"
    import_text(other, text.lower().replace("normal o", "normal O"))
    assert "first=O&start=X../.O./...&record=2(6,8)&moves=2&" in query_of(other)


def test_an_import_that_does_not_read_says_why(page: Page) -> None:
    open_link(page, "variant=4x4k4&moves=5")
    for text, words in [
        ("1. b2 c3", "must start with the variant, the first side and a colon"),
        ("4x4k4 X: 1. b2 z9", "“z9” is not a cell of 4x4k4 (its cells are a1 to d4)"),
        ("normal X: 1. 5 z9", "“z9” is not a cell of normal (its cells are 1 to 9)"),  # not "7 to 3"
        ("connect4 X: 1. d1 z9", "“z9” is not a cell of connect4 (its cells are a1 to g6)"),
        ("4x4k4 X: 1. b2 b2", "Move 2 (b2) is on a cell already taken."),
        ("4x4k4 X: 1. b2 (c3", "a variation “(” is not closed"),
        ("nosuch X: 1. b2", "No variant nosuch"),
    ]:
        import_text(page, text)
        assert page.is_visible("#import-error")
        assert words in page.inner_text("#import-error")
        assert "moves=5&" in query_of(page)  # the game shown stays
    import_text(page, "normal X: 1.7 4 2.8 5 3.9 6")  # X wins with 9: O's 6 comes after the end
    assert page.is_hidden("#import-error")
    assert "moves=0,3,1,4,2&" in query_of(page)
    assert "The text has moves after the end of the game" in page.inner_text("#status")


ROUND_TRIPS = """async () => {
    const { recordOf, withLine, lineFrom } = await import("/static/record.js");
    const { gameFromUrl, gameQuery } = await import("/static/url.js");
    const { gameText, readHeader, readMoves } = await import("/static/notation.js");
    const facts = await (await fetch("/variants/4x4k4")).json(); // its shape draws the board
    let seed = 19;
    const random = (n) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
    };
    const failures = [];
    for (let trial = 0; trial < 200; trial += 1) {
        let record = recordOf([]);
        let moves = [];
        for (let line = random(6); line >= 0; line -= 1) {
            const free = [...Array(16).keys()];
            moves = Array.from({ length: random(9) }, () => free.splice(random(free.length), 1)[0]);
            record = withLine(record, moves);
        }
        moves = random(2) ? lineFrom(record, []) : moves; // the main line, or the last line added
        const first = random(2) ? "X" : "O";
        const game = { variant: "4x4k4", first, start: null, record, moves, ply: random(moves.length + 1) };
        const query = gameQuery(game, facts, "hint");
        const read = gameFromUrl(query);
        const readRecord = read.record || recordOf(read.moves);
        const again = gameQuery({ ...read, record: readRecord }, facts, read.overlay);
        const text = gameText(game, facts);
        const header = readHeader(text);
        const fromText = readMoves(header.moves, facts, header.start);
        const same = JSON.stringify(fromText) === JSON.stringify(record) && header.first === first;
        if (again !== query || !same) {
            failures.push({ query, again, text });
        }
    }
    return failures;
}"""


def test_records_round_trip_exactly_through_the_link_and_the_text(page: Page) -> None:
    open_link(page, "variant=4x4k4")
    assert page.evaluate(ROUND_TRIPS) == []
