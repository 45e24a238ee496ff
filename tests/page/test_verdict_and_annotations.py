"""The verdict bar and the move list's annotations, against values computed here from the API's answers:
the bar's words for a position, "??" on a planted mistake, "!" on the only winning move, "?" never on a
best move, the why line from the API's main line, and the annotations kept through the game's text."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .ui import KEY_OF_CELL, Json, analysing, api_get, board_after, click_cell, wait_idle

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response

    from .conftest import PageFactory

RANK = {"loss": 0, "draw": 1, "win": 2}
SLOW_PLIES = 4  # as annotations.js and the page's help say


def analysis(base_url: str, moves: list[int], first: str = "X") -> Json:
    to_move = first if len(moves) % 2 == 0 else ("O" if first == "X" else "X")
    return api_get(
        base_url, "/analyze", variant="normal", board=board_after(moves, 9, first), to_move=to_move
    )


def expected_glyph(before: Json, cell: int) -> str:
    """The annotation of `cell` played in the position `before`, by the rules the help states."""
    played = next(move for move in before["moves"] if move["cell"] == cell)
    if RANK[played["result"]] < RANK[before["result"]]:
        return "??"
    others = [move for move in before["moves"] if move["cell"] != cell]
    if (
        before["result"] != "loss"
        and others
        and all(RANK[move["result"]] < RANK[before["result"]] for move in others)
    ):
        return "!"
    slower = {
        "win": played["remoteness"] - before["remoteness"],
        "loss": before["remoteness"] - played["remoteness"],
    }
    return "?" if slower.get(before["result"], 0) >= SLOW_PLIES else ""


def planted_game(base_url: str) -> list[int]:
    """The first game (in cell order) whose second move throws the draw away and whose third is X's only
    winning move: a planted mistake and an only move, found from the API's answers."""
    start = analysis(base_url, [])
    for first in (move["cell"] for move in start["moves"]):
        after_first = analysis(base_url, [first])
        for reply in after_first["moves"]:
            if expected_glyph(after_first, reply["cell"]) != "??":
                continue
            after_reply = analysis(base_url, [first, reply["cell"]])
            winning = [move["cell"] for move in after_reply["moves"] if move["result"] == "win"]
            if len(winning) == 1:
                return [first, reply["cell"], winning[0]]
    raise AssertionError("3x3 has no such game")


def glyphs(page: Page) -> list[str]:
    shown: list[str] = page.eval_on_selector_all(
        "#move-list .ply-button + .move-glyph", "marks => marks.map(m => m.dataset.glyph || '')"
    )
    return shown


def bar_words(analysed: Json) -> str:
    if analysed["result"] == "draw":
        return "draw"
    mover = analysed["to_move"]
    winner = mover if analysed["result"] == "win" else ("O" if mover == "X" else "X")
    return f"{winner} wins in {analysed['remoteness']}"


def test_the_verdict_bar_says_the_apis_result_and_distance(new_page: PageFactory, base_url: str) -> None:
    for moves in ([], [4, 1], [0, 4, 8]):
        expected = analysis(base_url, moves)
        page = new_page(locale="en-GB")
        analysing(page, f"variant=normal&moves={','.join(map(str, moves))}")
        assert page.text_content("#verdict-bar-words") == bar_words(expected), moves
        assert page.get_attribute("#verdict-bar", "aria-live") == "polite"
    expected = analysis(base_url, [4, 1])
    page = new_page(locale="ja-JP")
    analysing(page, "variant=normal&moves=4,1")
    assert page.text_content("#verdict-bar-words") == f"Xの{expected['remoteness']}手で勝ち"


def test_a_gravity_board_adds_pons_score(page: Page, base_url: str) -> None:
    """Pons's score of the position: a win with b discs before the winning one, on n cells, scores
    ⌊(n + 1 - b) / 2⌋; the position's remoteness counts the mover's next disc, so b = marks + r - 1."""
    for _ in range(40):  # a table being built is answered by the search meanwhile: wait for the table
        answer = api_get(base_url, "/analyze", variant="4x4k3-gravity", board="." * 16, to_move="X")
        if answer["source"] == "table":
            break
        time.sleep(0.5)
    assert answer["result"] == "win", answer
    score = (16 + 1 - (answer["remoteness"] - 1)) // 2
    analysing(page, "variant=4x4k3-gravity")
    words = page.text_content("#verdict-bar-words")
    assert words == f"X wins in {answer['remoteness']} (score +{score})"


def test_a_searched_board_says_only_what_is_proven(page: Page) -> None:
    """7x7 five in a row, early: the search proves little; the bar says the bound the page's answer
    proves (or that nothing is), never the guesses' numbers. The answer is the one the page received:
    asked again, the search starts from what the first proved and may prove more."""
    answers: list[Json] = []

    def received(response: Response) -> None:
        if "/analyze?" in response.url and "7x7k5" in response.url:
            answers.append(response.json())

    page.on("response", received)
    analysing(page, "variant=7x7k5")
    board = page.get_attribute("#app", "data-board") or "." * 49
    answer = answers[-1]
    assert answer["board"] == board and answer["to_move"] == "X", answer
    words = page.text_content("#verdict-bar-words") or ""
    if answer["result"] != "unknown":
        assert words == bar_words(answer)
    elif answer["lower"] == "draw":
        assert words == "X to move: at least a draw; a win is not proven"
    elif answer["upper"] == "draw":
        assert words == "X to move: at most a draw; a draw is not proven"
    else:
        assert words == "unknown: nothing proven"
    assert "≈" not in words


def test_a_played_game_is_annotated_and_keeps_its_marks_through_text(
    new_page: PageFactory, base_url: str
) -> None:
    moves = planted_game(base_url)
    expected = [expected_glyph(analysis(base_url, moves[:ply]), cell) for ply, cell in enumerate(moves)]
    assert expected[1:] == ["??", "!"]
    page = new_page(locale="en-GB")
    analysing(page, "variant=normal")
    for cell in moves:
        click_cell(page, cell)
    assert glyphs(page) == expected
    # The why of the mistake: the API's main line after it, asked for when opened, cells named by keys.
    page.click("#move-list .ply-button >> nth=1")
    wait_idle(page)
    assert page.locator("#why").is_visible()
    page.click("#why-button")
    after = api_get(
        base_url, "/analyze", variant="normal", board=board_after(moves[:2], 9), to_move="X", mainline="true"
    )
    line = " ".join(str(KEY_OF_CELL[cell]) for cell in after["mainline"]["cells"])
    page.wait_for_function("() => !document.querySelector('#why-line').textContent.includes('…')")
    assert page.text_content("#why-line") == f"X then wins in {after['remoteness']}: {line}"
    # A variation's move gets its mark too: after the first move, another mistaken reply.
    page.click("#move-list .ply-button >> nth=0")
    wait_idle(page)
    after_first = analysis(base_url, moves[:1])
    other = next(
        move["cell"]
        for move in after_first["moves"]
        if move["cell"] != moves[1] and expected_glyph(after_first, move["cell"]) == "??"
    )
    click_cell(page, other)
    path = f"{moves[0]},{other}"
    mark = page.get_attribute(
        f"#move-list .variation .ply-button[data-path='{path}'] + .move-glyph", "data-glyph"
    )
    assert mark == "??"
    # The text carries the marks, and an import in a fresh page (which holds no analysis of these
    # positions) shows them again and writes the same text.
    page.click("#exchange summary")
    # filled when the box opens (its toggle event): read it once it is, as the other page tests do
    page.wait_for_function("() => document.getElementById('export-text').value !== ''")
    text = page.input_value("#export-text")
    assert f"{KEY_OF_CELL[moves[1]]}??" in text and f"{KEY_OF_CELL[moves[2]]}!" in text, text
    assert f"{KEY_OF_CELL[other]}??" in text, text
    fresh = new_page(locale="en-GB")
    fresh.goto("/")
    wait_idle(fresh)
    fresh.click("#exchange summary")
    fresh.fill("#import-text", text)
    fresh.click("#import")
    wait_idle(fresh)
    fresh.wait_for_selector("#move-list .ply-button")
    main_marks: list[str] = fresh.eval_on_selector_all(
        "#move-list > li > .ply-button + .move-glyph", "marks => marks.map(m => m.dataset.glyph || '')"
    )
    assert main_marks == expected
    assert fresh.input_value("#export-text") == text
