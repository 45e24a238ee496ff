"""The service's certificates of a win on five in a row, stepped on the page (certificate.js): a win by
continuous fours (`win_line`) shown and played as the main line is, both sides' moves, to the five; and a
win by threes (`win_tree`) whose next move follows whatever the defender replies, dropped when the game
leaves it; in English and Japanese, with axe-core."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.fours import Rule
from service.engine.search.native import Game
from service.engine.search.root_trees import MOST_THREES
from service.engine.search.win_tree import FOUR, QUIET, TWO, win_tree
from tests.engine.search.gomoku_puzzles import puzzles

from .ui import analysing, api_get, axe_violations, click_cell, key_to_cell, state, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

GOMOKU = "15x15k5"
# X to move wins by threes on 9x9 (five in a row), with no win by fours: the tree's root is 66, and O's
# replies that do not lose at once are 30, 39 and 75 (openapi.yaml's WinTree example).
TREE_VARIANT = "9x9k5"
TREE_BOARD = ".XO..O.X..OO..X...XO...O.X.X........O....O.O....X...X....X...XO.XX.....OO.O....X."

# X to move wins on 9x9 by a quiet move (68 makes no four and no three) after which X would win by fours
# were it to move again; no win by fours or by ordinary threes (found by test_win_tree.py's search). Its
# certificate lists 48 replies: 6 other cells meet the line of fours.
QUIET_BOARD = "XOX...O.X......X.OO.X.........X..OO.X.X...X.O..X........O.....X...XO.OOO.XO......"


def link(variant: str, board: str, side: int) -> str:
    rows = "/".join(board[row : row + side] for row in range(0, side * side, side))
    return f"variant={variant}&first=X&start={rows}"


def fours_puzzle() -> tuple[str, str]:
    """The first position of tests/data/gomoku-puzzles/banbu-vcf-material.json, as the API writes boards,
    and its side to move (the attacker): a win by continuous fours of 7 plies on 15x15."""
    # the collection's shortest line with X to move: each step is an analysis of a second
    puzzle = next(found for found in puzzles() if found.name == "banbu-vcf-material#48")
    position = puzzle.position(GOMOKU)
    marks = ["X" if position.x >> cell & 1 else "O" if position.o >> cell & 1 else "." for cell in range(225)]
    return "".join(marks), position.to_move.value


def plan(page: Page) -> dict[int, str]:
    """The numbers written on the board's cells for the line or the move shown."""
    found: list[list[Any]] = page.eval_on_selector_all(
        "#board .cell[data-plan]", "cs => cs.map(c => [Number(c.dataset.cell), c.dataset.plan])"
    )
    return {cell: number for cell, number in found}


def offered(page: Page) -> int:
    """The tree's move offered to the attacker, once the page has read it."""
    page.wait_for_selector("#win-tree[data-turn='attacker']:not([hidden])")
    return int(page.get_attribute("#win-tree", "data-move") or "-1")


# The 9x9 tests come first: a win by fours stepped to the end has the page review the 15x15 game, whose
# searches may still hold the machine and leave the next 9x9 search no time for its tree.


def test_a_win_by_threes_is_stepped_whatever_the_defender_replies(page: Page, base_url: str) -> None:
    answer = api_get(base_url, "/analyze", board=TREE_BOARD, to_move="X", variant=TREE_VARIANT)
    assert answer.get("win_line") is None
    tree = answer["win_tree"]
    root = tree["root"]
    assert (root["move"], sorted(reply["cell"] for reply in root["replies"])) == (66, [30, 39, 75])
    analysing(page, link(TREE_VARIANT, TREE_BOARD, 9))
    assert offered(page) == root["move"]
    assert plan(page) == {root["move"]: "1"}
    label = page.get_attribute(f".cell[data-cell='{root['move']}']", "aria-label") or ""
    assert "1 (the proven winning move)" in label
    attacker_moves = (tree["plies"] + 1) // 2
    assert page.inner_text("#win-tree-words").startswith(
        f"A win by threes: X wins within {attacker_moves} moves of its own, whatever O replies"
    )
    assert axe_violations(page) == []
    page.focus("#win-tree-step")  # the winning move by keys
    page.keyboard.press("Enter")
    wait_idle(page)
    assert state(page, "moves") == "66"
    page.wait_for_selector("#win-tree[data-turn='defender']")
    assert page.is_hidden("#win-tree-step") and plan(page) == {}
    assert "O to reply" in page.inner_text("#win-tree-words")

    reply = next(reply for reply in root["replies"] if reply["cell"] == 30)
    key_to_cell(page, reply["cell"], 9)  # the defender's listed reply, by keys on the board
    then = reply["then"]
    assert offered(page) == then["move"] == 39
    page.click("#win-tree-step")
    wait_idle(page)
    assert state(page, "moves") == "66,30,39"

    # A reply the tree does not list: its `otherwise` completes the four.
    listed = {answer["cell"] for answer in then["replies"]}
    free = [cell for cell, mark in enumerate(state(page, "board")) if mark == "."]
    stray = next(cell for cell in free if cell not in listed and cell != then["otherwise"])
    click_cell(page, stray)
    assert offered(page) == then["otherwise"]
    page.click("#win-tree-step")
    wait_idle(page)
    assert state(page, "status") == "x_won"
    assert page.is_hidden("#win-tree")

    # A step back leaves the tree (the position shown offers no tree of its own: a win by fours).
    page.click("#nav-back")
    wait_idle(page)
    page.wait_for_selector("#mainline-button:not([disabled])")
    assert page.is_hidden("#win-tree")
    # Back at the start the position's own tree is offered again. Another move for X leaves it: X's tree
    # is dropped, and O, who now wins by threes, is offered O's own.
    page.click("#nav-start")
    wait_idle(page)
    assert offered(page) == root["move"]
    # The searches the steps above left the server (each up to its budget, a second) end before the next
    # one: under CI's load, sharing the processor with them, it once found O's win without its tree.
    time.sleep(1.2)
    elsewhere = next(cell for cell in free if cell != root["move"])
    after = TREE_BOARD[:elsewhere] + "X" + TREE_BOARD[elsewhere + 1 :]
    answer = api_get(base_url, "/analyze", board=after, to_move="O", variant=TREE_VARIANT)
    click_cell(page, elsewhere)
    assert offered(page) == answer["win_tree"]["root"]["move"] != root["move"]
    assert page.get_attribute("#win-tree", "data-attacker") == "O"
    assert plan(page) == {answer["win_tree"]["root"]["move"]: "1"}


def test_after_a_quiet_move_any_other_reply_meets_its_line_of_fours(page: Page) -> None:
    # The certificate read back here as the service does (an answer asked first would be kept in the
    # store of proven positions, whose answers carry no certificate: the page's must be the first).
    mine = sum(1 << cell for cell, mark in enumerate(QUIET_BOARD) if mark == "X")
    theirs = sum(1 << cell for cell, mark in enumerate(QUIET_BOARD) if mark == "O")
    rule = Rule(9, 9, 5, exact=False, renju=False)
    root = win_tree(Game.of(Board.of(get_variant(TREE_VARIANT))), rule, mine, theirs, False, MOST_THREES, 0.0)
    assert root is not None and root.threat == QUIET and root.follow is not None
    analysing(page, link(TREE_VARIANT, QUIET_BOARD, 9))
    assert offered(page) == root.move
    assert "a quiet move: a win by fours follows whatever the reply" in page.inner_text("#win-tree-words")
    page.click("#win-tree-step")
    wait_idle(page)
    listed = {cell for cell, _ in root.replies}
    free = [cell for cell, mark in enumerate(state(page, "board")) if mark == "."]
    stray = next(cell for cell in free if cell not in listed)
    click_cell(page, stray)
    assert root.follow.threat in (FOUR, TWO) and offered(page) == root.follow.move


def test_the_certificates_speak_japanese_and_pass_axe(new_page: PageFactory) -> None:
    page = new_page()
    analysing(page, link(TREE_VARIANT, TREE_BOARD, 9))
    offered(page)
    page.click("#language button[data-language='ja']")
    wait_idle(page)
    assert page.inner_text("#win-tree-words").startswith("三追いの勝ち")
    assert page.inner_text("#win-tree-step") == "勝ちの手を打つ"
    assert "(証明済みの勝ちの手)" in (page.get_attribute(".cell[data-cell='66']", "aria-label") or "")
    assert axe_violations(page) == []
    board, _ = fours_puzzle()
    analysing(page, link(GOMOKU, board, 15))
    page.wait_for_selector("#mainline-button:not([disabled])")
    assert page.inner_text("#mainline-button") == "四追いを表示"
    page.click("#mainline-button")
    page.wait_for_selector("#mainline[data-state='ready']")
    assert page.inner_text("#mainline").startswith("四追いの勝ち")
    assert axe_violations(page) == []


def test_a_win_by_fours_is_shown_and_stepped_to_the_five(page: Page, base_url: str) -> None:
    board, mover = fours_puzzle()
    assert mover == "X"
    answer = api_get(base_url, "/analyze", board=board, to_move=mover, variant=GOMOKU)
    assert answer.get("remoteness") is None and not answer["exact"]  # no main line of its own
    line = answer["win_line"]["cells"]
    assert len(line) == answer["win_line"]["plies"] == 7
    analysing(page, link(GOMOKU, board, 15))
    button = page.locator("#mainline-button")
    assert button.is_enabled() and button.inner_text() == "Show the win by fours"
    button.click()
    page.wait_for_selector("#mainline[data-state='ready']")
    assert page.get_attribute("#mainline", "data-cells") == ",".join(map(str, line))
    assert page.inner_text("#mainline").startswith("A win by fours, each reply forced")
    assert plan(page) == {cell: str(number) for number, cell in enumerate(line, start=1)}
    assert button.inner_text() == "Hide the win by fours"
    page.focus("#mainline-step")  # the first move by keys, as a keyboard user steps
    page.keyboard.press("Enter")
    wait_idle(page)
    for played in range(2, len(line) + 1):
        page.click("#mainline-step")
        wait_idle(page)
        assert state(page, "moves") == ",".join(map(str, line[:played]))
    assert state(page, "moves") == ",".join(map(str, line))
    assert state(page, "status") == "x_won"
    assert page.is_hidden("#mainline-step")
