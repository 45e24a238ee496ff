"""The search tree panel: the tree of the position on the board near the end of a 3x3 game
and on 4x4 to depth 3, read and walked with the keyboard, alpha-beta replayed a visit at a time with its
cut-offs, the nodes each walk visits beside each other, the tree cut for size, the game Eight, and
axe-core on the panel in both colour schemes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from .ui import KEY_OF_CELL, api_get, open_link

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

NEAR_END = "variant=normal&moves=0,4,8,2&ply=4"  # X: 0, 8; O: 4, 2; X to move
ITEM = "#tree-view [role='treeitem']"


def open_panel(page: Page) -> None:
    page.click("#search-tree summary")
    page.wait_for_selector(f"{ITEM}[data-node='0']")


def inner_nodes(tree: dict[str, Any]) -> list[dict[str, Any]]:
    found = [tree] if tree["children"] else []
    return found + [n for child in tree["children"] for n in inner_nodes(child)]


def node(page: Page, node_id: int) -> Any:
    return page.locator(f"{ITEM}[data-node='{node_id}']")


def name(item: Any) -> str:
    """An item's accessible name: its line's words, the shown ones first (no aria-label names it)."""
    return " ".join((item.locator(":scope > .tree-line").text_content() or "").split())


def root_move_starts(page: Page, words: str) -> None:
    """Waits for the top's words (its position, in Eight its total) to start with `words`."""
    page.wait_for_function(
        "(words) => document.querySelector(\"#tree-view [data-node='0'] .tree-move\")"
        "?.textContent.startsWith(words)",
        arg=words,
    )


def test_the_tree_near_the_end_of_3x3_is_read_and_replayed(page: Page, base_url: str) -> None:
    open_link(page, NEAR_END)
    open_panel(page)
    truth = api_get(base_url, "/tree", board="X.O.O...X", to_move="X", variant="normal")
    assert f"{truth['nodes']} nodes, to the end of every game" in page.inner_text("#tree-status")
    counts = page.inner_text("#tree-counts")
    for walk in ("minimax", "alphabeta", "alphabeta-ordered"):
        assert f"{truth['counts'][walk]['nodes']} (" in counts
    root = node(page, 0)
    assert root.get_attribute("data-result") == truth["root"]["result"] == "win"
    assert "X wins in 3" in name(root)
    # the keyboard: down to the first move, open it, into its first child, back up to it
    root.focus()
    page.keyboard.press("ArrowDown")
    first = truth["root"]["children"][0]
    assert page.evaluate("document.activeElement.dataset.node") == str(first["id"])
    # A move is named as on the board (its keypad key on 3x3), from the board's shape.
    label = name(node(page, first["id"]))
    assert label.startswith(f"MIN X {KEY_OF_CELL[first['move']]} ") and "MIN node" in label, label
    if node(page, first["id"]).get_attribute("aria-expanded") == "true":  # opened toward a cut-off
        page.keyboard.press("ArrowLeft")
    assert node(page, first["id"]).get_attribute("aria-expanded") == "false"
    page.keyboard.press("ArrowRight")
    assert node(page, first["id"]).get_attribute("aria-expanded") == "true"
    page.keyboard.press("ArrowRight")
    child = first["children"][0]["id"]
    assert page.evaluate("document.activeElement.dataset.node") == str(child)
    if node(page, child).get_attribute("aria-expanded") == "true":
        page.keyboard.press("ArrowLeft")  # closes it first
        assert node(page, child).get_attribute("aria-expanded") == "false"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.node") == str(first["id"])
    page.keyboard.press("7")  # a number key inside the tree plays no cell
    assert page.locator("#board .cell[data-mark='X']").count() == 2
    # the replay: a step at a time, in the walk's order; a cut-off greys its branch
    page.click("#tree-start")
    inner = {v["node"] for v in truth["visits"]} & {n["id"] for n in inner_nodes(truth["root"])}
    steps = len(truth["visits"]) + len(inner)  # each node entered; a node with children returns later
    assert page.inner_text("#tree-step").startswith(f"Step 1 of {steps}: enters the top")
    cut = truth["cutoffs"][0]
    for _ in range(steps):
        if "Cut-off" in page.inner_text("#tree-step"):
            break
        page.click("#tree-next")
    current = page.locator(f"{ITEM}[data-current='true']")
    assert current.get_attribute("data-node") == str(cut["node"])  # the node that stopped returns
    pruned = node(page, cut["pruned"][0])
    assert pruned.get_attribute("data-walk") == "pruned" and "pruned: " in pruned.inner_text()
    page.click("#tree-whole")
    assert "cut-offs" in page.inner_text("#tree-step")


def test_4x4_to_depth_3_and_the_tree_cut_for_size(page: Page) -> None:
    open_link(page, "variant=4x4k4")
    open_panel(page)
    status = page.inner_text("#tree-status")
    assert "3,617 nodes" in status and "cut at 3 plies for size" in status
    page.select_option("#tree-depth", "2")
    page.wait_for_function("() => document.getElementById('tree-status').textContent.startsWith('257 nodes')")
    assert "for size" not in page.inner_text("#tree-status")
    page.select_option("#tree-depth", "3")
    page.wait_for_function(
        "() => document.getElementById('tree-status').textContent.startsWith('3,617 nodes')"
    )
    assert page.locator(f"{ITEM}[data-walk='pruned']").count() > 0  # a pruned branch is in sight
    assert page.locator(ITEM).count() < 200  # only the opened nodes are drawn
    page.select_option("#tree-depth", "4")
    page.wait_for_function(
        "() => document.getElementById('tree-status').textContent.includes('depth 3 fits')"
    )


def test_the_whole_tree_of_eight(page: Page, base_url: str) -> None:
    open_link(page, "variant=normal")
    page.click("#search-tree summary")
    page.check("input[name='tree-source'][value='eight']")
    page.wait_for_function("() => document.getElementById('tree-status').textContent.startsWith('62 nodes')")
    assert page.locator(ITEM).count() == 62  # small: opened whole
    assert "O wins in 5" in name(node(page, 0))
    answer = api_get(base_url, "/analyze", board="0:0", variant="eight")
    for move in answer["moves"]:  # the picks coloured by their value for the picker
        button = page.locator(".eight-pick", has_text=str(move["move"]))
        assert button.get_attribute("data-result") == move["result"] == "loss"
    page.locator(".eight-pick", has_text="2").click()
    page.wait_for_function("() => document.querySelector('.eight-state').textContent.includes('O to pick')")
    page.wait_for_function("() => document.getElementById('tree-status').textContent.includes('nodes')")
    root_move_starts(page, "total 2 after a 2")
    assert page.locator(".eight-pick", has_text="2").is_disabled()  # the number just picked


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_in_the_panel(new_page: PageFactory, scheme: str) -> None:
    from .axe_core import axe_results  # axe-core 4.14.1, label in name on

    page = new_page(color_scheme=scheme)
    open_link(page, NEAR_END)
    open_panel(page)
    page.click("#tree-start")
    for _ in range(6):
        page.click("#tree-next")
    found = axe_results(page, context="#search-tree")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found["violations"]]
    assert not [v for v in bad if v[1] in ("serious", "critical")], bad
    page.check("input[name='tree-source'][value='eight']")
    page.wait_for_function("() => document.getElementById('tree-status').textContent.startsWith('62 nodes')")
    found = axe_results(page, context="#search-tree")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found["violations"]]
    assert not [v for v in bad if v[1] in ("serious", "critical")], bad
