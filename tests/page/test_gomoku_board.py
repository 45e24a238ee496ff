"""Five in a row as its players know it (goban.css, gomoku.js, goban.js, gomoku-record.js): 15×15 drawn
as a go board with its coordinates and star points, cells named as the API names them (h8 the centre),
move numbers, the last move marked on every kind of board, renju's forbidden points, proven wins and the
threats on an open four, a proven line played step by step, gomoku records through POST /record, and
axe-core in both languages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from .ui import analysing, api_get, api_post, axe_violations, move_texts, shown_cell, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

GOMOKU = "15x15k5"
RENJU = "15x15k5-renju"
SIZE = 15
LETTERS = "abcdefghijklmno"


def cell_of(name: str) -> int:
    """The API's cell of a name as gomoku players write it: the column's letter, the row from 1 at the
    bottom."""
    return (SIZE - int(name[1:])) * SIZE + LETTERS.index(name[0])


def board_of(stones: dict[str, str]) -> str:
    marks = ["."] * SIZE * SIZE
    for name, mark in stones.items():
        marks[cell_of(name)] = mark
    return "".join(marks)


def start_link(variant: str, board: str, moves: str = "") -> str:
    rows = "/".join(board[row : row + SIZE] for row in range(0, SIZE * SIZE, SIZE))
    return f"variant={variant}&first=X&start={rows}" + (f"&moves={moves}" if moves else "")


# X has an open four on row 8 (f8 to i8), O three on row 9 (f9 to h9) and a stone apart: e8 and j8 win at
# once for X, and e9 or i9 would give O an open four.
OPEN_FOUR = board_of({"f8": "X", "g8": "X", "h8": "X", "i8": "X", "f9": "O", "g9": "O", "h9": "O", "a1": "O"})
# The same without O's stone apart: O to move, and every move of O's loses in 2.
O_LOSES = board_of({"f8": "X", "g8": "X", "h8": "X", "i8": "X", "f9": "O", "g9": "O", "h9": "O"})


def renju_double_three() -> tuple[str, int]:
    """tests/engine/rules/test_renju.py's first double-three, black to move: X at e12 and e11 over the
    point e10, X at c10 and d10 beside it (two open threes at once), four white stones apart."""
    stones = {"e12": "X", "e11": "X", "c10": "X", "d10": "X", "i3": "O", "k3": "O", "m3": "O", "o3": "O"}
    return board_of(stones), cell_of("e10")


def labels(page: Page, selector: str) -> dict[int, str]:
    found: list[list[Any]] = page.eval_on_selector_all(
        selector, "cs => cs.map(c => [Number(c.dataset.cell), c.getAttribute('aria-label')])"
    )
    return {cell: label for cell, label in found}


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_15x15_has_its_coordinates_and_star_points_where_gomoku_players_look(page: Page) -> None:
    analysing(page, f"variant={GOMOKU}")
    letters = page.eval_on_selector_all("#board .coord-col", "ls => ls.map(l => l.textContent)")
    numbers = page.eval_on_selector_all("#board .coord-row", "ls => ls.map(l => l.textContent)")
    assert letters == list(LETTERS)
    assert numbers == [str(row) for row in range(SIZE, 0, -1)]  # 15 at the top, 1 at the bottom
    h8_x, h8_y = centre(page, f".cell[data-cell='{cell_of('h8')}']")
    h_x, h_y = centre(page, "#board .coord-col >> nth=7")
    eight_x, eight_y = centre(page, "#board .coord-row >> nth=7")
    assert abs(h_x - h8_x) < 2 and h_y > h8_y  # "h" under h8's column
    assert abs(eight_y - h8_y) < 2 and eight_x < h8_x  # "8" left of h8's row
    a1_x, a1_y = centre(page, f".cell[data-cell='{cell_of('a1')}']")
    assert abs(centre(page, "#board .coord-row >> nth=14")[1] - a1_y) < 2  # row 1 at the bottom
    assert abs(centre(page, "#board .coord-col >> nth=0")[0] - a1_x) < 2
    stars = {cell_of(name) for name in ("d4", "l4", "d12", "l12", "h8")}
    marked = page.eval_on_selector_all(
        "#board .cell[data-star='true']", "cs => cs.map(c => Number(c.dataset.cell))"
    )
    drawn = page.eval_on_selector_all(
        "#board .cell",
        """cs => cs.filter(c => getComputedStyle(c).backgroundImage.includes('radial-gradient'))
                   .map(c => Number(c.dataset.cell))""",
    )
    assert set(marked) == stars and set(drawn) == stars
    assert (page.get_attribute(f".cell[data-cell='{cell_of('h8')}']", "aria-label") or "").startswith(
        "cell h8"
    )


def test_a_clicked_intersection_plays_the_cell_the_api_names(page: Page, base_url: str) -> None:
    analysing(page, f"variant={GOMOKU}")
    h8 = f".cell[data-cell='{cell_of('h8')}']"
    page.click(h8)  # on the intersection: the middle of the cell
    wait_idle(page)
    named = api_post(base_url, "/record", {"moves": ["h8"], "variant": GOMOKU})
    assert named["moves"] == [112] and named["names"] == ["h8"]
    assert state(page, "moves") == "112"
    assert "h8" in move_texts(page)[0]
    page.click(f".cell[data-cell='{cell_of('i9')}']")
    wait_idle(page)
    assert state(page, "moves") == f"112,{cell_of('i9')}"
    stones = page.eval_on_selector_all(
        "#board .cell:not([data-mark='.']) .cell-mark",
        "ms => ms.map(m => [Number(m.closest('.cell').dataset.cell), getComputedStyle(m).backgroundImage])",
    )
    colours = {cell: image for cell, image in stones}
    assert "rgb(0, 0, 0)" in colours[112]  # the first player's stone is black
    assert "rgb(255, 255, 255)" in colours[cell_of("i9")]  # the second's white


def test_move_numbers_show_on_the_stones_when_asked(page: Page) -> None:
    analysing(page, f"variant={GOMOKU}&moves=112,98,97")
    numbered = "#board .cell-number:not(:empty)"
    assert page.locator(numbered).count() == 0
    page.check("#goban-numbers")
    shown = page.eval_on_selector_all(
        numbered, "ns => ns.map(n => [Number(n.closest('.cell').dataset.cell), n.textContent])"
    )
    assert sorted(shown) == [[97, "3"], [98, "2"], [112, "1"]]
    assert "cell h9, X, 3, move 3" in (page.get_attribute(".cell[data-cell='97']", "aria-label") or "")
    page.click("#nav-back")
    wait_idle(page)
    assert sorted(page.eval_on_selector_all(numbered, "ns => ns.map(n => n.textContent)")) == ["1", "2"]
    page.uncheck("#goban-numbers")
    assert page.locator(numbered).count() == 0


@pytest.mark.parametrize(
    "query",
    [
        "variant=normal&moves=4,0",
        "variant=connect4&pos=4453",
        "variant=3x3x3k3&moves=13,0",
        f"variant={GOMOKU}&moves=112,98",
    ],
    ids=["3x3", "connect4", "box", "15x15"],
)
def test_the_last_move_is_marked_to_the_eye_and_in_words(page: Page, query: str) -> None:
    analysing(page, query)
    moves = [int(cell) for cell in state(page, "moves").split(",")]
    for last in (moves[-1], moves[-2]):
        marked = labels(page, "#board .cell[data-last='true']")
        assert list(marked) == [last], (query, marked)
        assert "last move" in marked[last]
        said = [cell for cell, label in labels(page, "#board .cell").items() if "last move" in label]
        assert said == [last]
        marker = page.locator(f".cell[data-cell='{last}'] .cell-last")
        box = marker.bounding_box()
        assert marker.is_visible() and box is not None and box["width"] >= 6 and box["height"] >= 6, box
        # Nothing covers it or clips it away (a round hole of a rack once hid a corner's mark).
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        on_top = page.evaluate(f"document.elementFromPoint({x}, {y})?.className")
        assert on_top == "cell-last", (query, on_top)
        page.click("#nav-back")  # a step back moves the mark to the move before
        wait_idle(page)


def test_renju_forbidden_points_are_marked_and_cannot_be_played(page: Page, base_url: str) -> None:
    board, point = renju_double_three()
    answer = api_get(base_url, "/analyze", board=board, to_move="X", variant="renju")
    assert point in answer["forbidden"]
    analysing(page, start_link(RENJU, board))
    forbidden = labels(page, "#board .cell[data-forbidden='true']")
    assert sorted(forbidden) == sorted(answer["forbidden"])
    assert "forbidden to black" in forbidden[point] and "double-three" in forbidden[point]
    button = page.locator(f".cell[data-cell='{point}']")
    assert button.get_attribute("aria-disabled") == "true"
    assert page.locator(f".cell[data-cell='{point}'] .cell-threat").is_visible()
    button.click(force=True)  # as a person would, whatever the page says of it
    wait_idle(page)
    assert state(page, "moves") == "" and state(page, "board")[point] == "."
    assert "may not play e10" in page.inner_text("#status")
    page.click(f".cell[data-cell='{cell_of('h8')}']")  # another point is played
    wait_idle(page)
    assert state(page, "moves") == str(cell_of("h8"))
    assert page.locator("#board .cell[data-forbidden='true']").count() == 0  # white's turn: none shown


def test_an_open_four_shows_the_proven_wins_and_the_threats(page: Page, base_url: str) -> None:
    answer = api_get(base_url, "/analyze", board=OPEN_FOUR, to_move="X", variant=GOMOKU)
    wins = {move["cell"] for move in answer["moves"] if move["result"] == "win" and move["remoteness"] == 1}
    assert wins == {cell_of("e8"), cell_of("j8")}
    analysing(page, start_link(GOMOKU, OPEN_FOUR))
    for cell in wins:
        shown = shown_cell(page, cell)
        assert (shown["result"], shown["remoteness"], shown["text"]) == ("win", "1", "W1"), shown
        assert "wins in 1" in shown["label"] and "X makes five here" in shown["label"]
    plain = page.eval_on_selector_all(
        "#board .cell[data-mark='.']:not([data-result])",
        "cs => cs.map(c => c.querySelector('.cell-value').textContent)",
    )
    assert set(plain) <= {""}  # a move not proven is left plain
    threats = page.eval_on_selector_all(
        "#board .cell[data-threat-x], #board .cell[data-threat-o]",
        "cs => cs.map(c => [Number(c.dataset.cell), c.dataset.threatX ?? null, c.dataset.threatO ?? null])",
    )
    assert sorted(threats) == sorted(
        [
            [cell_of("e8"), "five", None],
            [cell_of("j8"), "five", None],
            [cell_of("e9"), None, "four"],
            [cell_of("i9"), None, "four"],
        ]
    )
    assert "O makes an open four here" in (
        page.get_attribute(f".cell[data-cell='{cell_of('e9')}']", "aria-label") or ""
    )
    assert page.is_visible("#goban-legend")
    page.uncheck("#goban-threats")
    assert page.locator("#board .cell[data-threat-x], #board .cell[data-threat-o]").count() == 0


def test_a_proven_line_is_played_a_move_at_a_time(page: Page, base_url: str) -> None:
    answer = api_get(base_url, "/analyze", board=O_LOSES, to_move="O", variant=GOMOKU, mainline="true")
    assert (answer["result"], answer["remoteness"]) == ("loss", 2)
    line = answer["mainline"]["cells"]
    analysing(page, start_link(GOMOKU, O_LOSES).replace("first=X", "first=O"))
    page.click("#mainline-button")
    page.wait_for_selector("#mainline[data-state='ready']")
    assert page.get_attribute("#mainline", "data-cells") == ",".join(map(str, line))
    for played in range(1, len(line) + 1):
        page.click("#mainline-step")
        wait_idle(page)
        assert state(page, "moves") == ",".join(map(str, line[:played]))
    assert state(page, "status") == "x_won"
    assert page.is_hidden("#mainline-step")


def test_a_psq_record_imports_and_the_move_list_exports_and_reads_back(page: Page, base_url: str) -> None:
    psq = "Piskvork 15x15, 11:11, 0\n8,8,1000\n9,7,1200\n8,7,900\n-1\n"
    expected = api_post(base_url, "/record", {"psq": psq})
    assert expected["names"] == ["h8", "i9", "h9"]
    analysing(page, "variant=normal")
    page.click("#exchange summary")
    page.fill("#record-text", psq)
    page.click("#record-import")
    page.wait_for_selector(f"#app[data-variant='{GOMOKU}'][data-moves='112,98,97'][data-busy='false']")
    assert [int(cell) for cell in state(page, "moves").split(",")] == expected["moves"]
    page.wait_for_function("document.querySelector('#export-moves').value === 'h8 i9 h9'")
    assert page.input_value("#export-psq") == expected["psq"]
    exported = page.input_value("#export-moves")
    page.click("#new-game")
    wait_idle(page)
    assert state(page, "moves") == ""
    page.fill("#record-text", exported)
    page.click("#record-import")
    page.wait_for_selector("#app[data-moves='112,98,97'][data-busy='false']")
    page.fill("#record-text", "h8 h8")
    page.click("#record-import")
    page.wait_for_selector("#record-error:not([hidden])")
    assert "does not read" in page.inner_text("#record-error")
    assert state(page, "moves") == "112,98,97"


# Each scheme and each language once, as on the other views (tests/page/test_board_views.py).
@pytest.mark.parametrize(("scheme", "language"), [("light", "en"), ("dark", "ja")])
def test_axe_finds_no_violation_on_a_go_board(new_page: PageFactory, language: str, scheme: str) -> None:
    board, _ = renju_double_three()
    page = new_page(color_scheme=scheme)
    analysing(page, start_link(RENJU, board, moves=f"{cell_of('h8')},{cell_of('i8')}"))
    page.check("#goban-numbers")
    page.click("#exchange summary")
    page.wait_for_selector("#board .cell[data-forbidden='true']")
    if language == "ja":
        page.click("#language button[data-language='ja']")
        wait_idle(page)
    assert page.get_attribute("html", "lang") == language
    assert axe_violations(page) == []
