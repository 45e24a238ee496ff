"""The search tree's replay teaches the walk: a node's value shows only once the walk returns it, a
fail-soft bound as a bound (≤ v, ≥ v), the window [alpha, beta] of the nodes the walk is inside, MAX and MIN
marked, the principal variation drawn only once the top has returned. Each step of the page's replay is
checked against an alpha-beta walk computed here, in Python, from the tree's leaves alone: on 3x3 near
the end, on Eight, and on Russell and Norvig's figure 5.5 with its leaves and with others. Eight's rules
and a game of Eight against the computer are checked against the API."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from .ui import api_get, open_link

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

ITEM = "#tree-view [role='treeitem']"
NEAR_END = "variant=normal&moves=0,4,8,2&ply=4"  # X: 0, 8; O: 4, 2; X to move
FIGURE_LEAVES = [3, 12, 8, 2, 4, 6, 14, 5, 2]  # Russell and Norvig, figures 5.2 and 5.5
MINUS = "\N{MINUS SIGN}"

# Every row's node, shown value, colour, principal-variation mark, walk state, role mark and name (its
# line's words: the item has no aria-label).
ROWS_JS = r"""() => [...document.querySelectorAll("#tree-view [role='treeitem']")].map((li) => ({
  node: Number(li.dataset.node),
  score: li.querySelector(":scope > .tree-line > .tree-score").textContent,
  words: li.querySelector(":scope > .tree-line > .tree-value").textContent,
  move: li.querySelector(":scope > .tree-line > .tree-move").textContent,
  role: li.querySelector(":scope > .tree-line > .tree-role").textContent,
  result: li.dataset.result || null,
  bound: li.dataset.bound || null,
  pv: li.dataset.pv === "true",
  walk: li.dataset.walk,
  label: li.querySelector(":scope > .tree-line").textContent.replace(/\s+/g, " ").trim(),
}))"""
# One step of the replay in one round trip (a click through Playwright and two reads took 160 ms a step,
# 151 steps on 3x3): the next button clicked if asked, while it is enabled, then the step's words, the rows
# and whether the button is disabled. The rows as ROWS_JS reads them.
STEP_JS = (
    "(click) => { const next = document.getElementById('tree-next');"
    " if (click) { if (next.disabled) return null; next.click(); }"
    " return { words: document.getElementById('tree-step').innerText, rows: ("
    + ROWS_JS
    + ")(), last: next.disabled }; }"
)


@dataclass
class Node:
    id: int
    role: str  # "max" or "min"
    score: int  # a leaf's value (an inner node's is for checking bounds only)
    children: list[Node]


@dataclass(frozen=True)
class Step:
    kind: str  # "enter", "leaf" or "return"
    node: int
    value: int | None = None
    bound: str | None = None  # "upper" (at most value), "lower" (at least value) or None (exact)


def minimax(node: Node) -> int:
    if not node.children:
        return node.score
    scores = [minimax(child) for child in node.children]
    return max(scores) if node.role == "max" else min(scores)


def alphabeta(node: Node, alpha: float, beta: float, steps: list[Step]) -> int:
    """Knuth and Moore's fail-soft alpha-beta, recorded a step at a time; a value returned outside
    (or on the edge of) the window it was entered with is a bound, and is checked to be a true one."""
    if not node.children:
        steps.append(Step("leaf", node.id, node.score))
        return node.score
    steps.append(Step("enter", node.id))
    window = (alpha, beta)
    best = -math.inf if node.role == "max" else math.inf
    for child in node.children:
        value = alphabeta(child, alpha, beta, steps)
        if node.role == "max":
            best = max(best, value)
            if best >= beta:
                break
            alpha = max(alpha, best)
        else:
            best = min(best, value)
            if best <= alpha:
                break
            beta = min(beta, best)
    returned = int(best)
    bound = "upper" if returned <= window[0] else "lower" if returned >= window[1] else None
    truth = minimax(node)
    assert {"upper": truth <= returned, "lower": truth >= returned, None: truth == returned}[bound]
    steps.append(Step("return", node.id, returned, bound))
    return returned


def minimax_walk(node: Node, steps: list[Step]) -> int:
    """Minimax recorded a step at a time: every value exact."""
    if not node.children:
        steps.append(Step("leaf", node.id, node.score))
        return node.score
    steps.append(Step("enter", node.id))
    scores = [minimax_walk(child, steps) for child in node.children]
    value = max(scores) if node.role == "max" else min(scores)
    steps.append(Step("return", node.id, value))
    return value


def walk(root: Node) -> list[Step]:
    steps: list[Step] = []
    alphabeta(root, -math.inf, math.inf, steps)
    return steps


def shown(value: int, bound: str | None) -> str:
    number = f"{MINUS}{-value}" if value < 0 else str(value)
    return {"upper": f"≤ {number}", "lower": f"≥ {number}", None: number}[bound]


def expected_after(steps: list[Step], upto: int) -> dict[int, str]:
    """What each returned node shows once the walk has made steps 0..upto."""
    values: dict[int, str] = {}
    for step in steps[: upto + 1]:
        if step.kind != "enter" and step.value is not None:
            values[step.node] = shown(step.value, step.bound)
    return values


def from_api(node: dict[str, Any]) -> Node:
    """The tree's shape and its leaves' values only: the walk is computed here."""
    return Node(node["id"], node["role"], node["score"], [from_api(c) for c in node["children"]])


def figure(leaves: list[int]) -> Node:
    """Figure 5.5's tree, its nodes numbered in the order of a walk taking the moves in order."""
    children = []
    for i in range(3):
        base = 1 + 4 * i
        leaf_nodes = [Node(base + 1 + j, "max", leaves[3 * i + j], []) for j in range(3)]
        children.append(Node(base, "min", 0, leaf_nodes))
    return Node(0, "max", 0, children)


def rows(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(ROWS_JS)
    return found


def check_every_step(page: Page, root: Node, steps: list[Step]) -> None:
    """Steps through the page's replay and checks, at each step, every row's shown value against the
    walk computed here: nothing before a node returns, a bound as a bound, an exact value coloured."""
    pv_root = root.id
    page.click("#tree-start")
    shown: dict[str, Any] | None = page.evaluate(STEP_JS, False)
    for at, step in enumerate(steps):
        assert shown is not None, (at, "the next button was disabled before the walk's end")
        words = shown["words"]
        assert words.startswith(f"Step {at + 1} of {len(steps)}:"), words
        assert "undefined" not in words and "NaN" not in words, words
        verb = {"enter": "enters", "leaf": "reaches", "return": "returns"}[step.kind]
        assert verb in words, (at, words)
        if step.kind == "enter":
            assert "returns" not in words.split(".")[0], words  # entering a node says no value
        want = expected_after(steps, at)
        for row in shown["rows"]:
            assert "undefined" not in row["label"] and "NaN" not in row["label"], row
            assert row["score"] == want.get(row["node"], ""), (at, row, want.get(row["node"]))
            if row["node"] not in want:
                assert row["result"] is None and row["bound"] is None, (at, row)
            if row["bound"]:
                assert row["result"] is None and "a bound" in row["label"], row
            if pv_root not in want:  # no principal variation drawn before the top returns
                assert not row["pv"], (at, row)
            elif row["node"] == pv_root:
                assert row["pv"], (at, row)
        if at + 1 < len(steps):
            shown = page.evaluate(STEP_JS, True)
    assert shown is not None and shown["last"]
    assert page.locator("#tree-next").is_disabled()


def open_panel(page: Page, source: str = "board") -> None:
    page.click("#search-tree summary")
    if source != "board":
        page.check(f"input[name='tree-source'][value='{source}']")
    page.wait_for_selector(f"{ITEM}[data-node='0']")


def test_3x3_near_the_end_replayed_against_a_walk_computed_here(page: Page, base_url: str) -> None:
    truth = api_get(base_url, "/tree", board="X.O.O...X", to_move="X", variant="normal")
    root = from_api(truth["root"])
    steps = walk(root)
    assert [s.node for s in steps if s.kind != "return"] == [v["node"] for v in truth["visits"]]
    open_link(page, NEAR_END)
    open_panel(page)
    check_every_step(page, root, steps)
    # MAX and MIN are marked, in the rows and in their names; moves are named as on the board.
    roles = {n["id"]: n["role"] for n in flatten(truth["root"])}
    for row in rows(page):
        assert row["role"] == roles[row["node"]].upper(), row
        assert f"{roles[row['node']].upper()} node" in row["label"], row
        assert "undefined" not in row["label"] and "NaN" not in row["label"], row
    assert rows(page)[1]["move"] == "X 8", rows(page)[1]  # cell 1, the top row's middle: key 8
    assert any(r["bound"] == "lower" for r in rows(page))  # this walk returns a lower bound


def flatten(node: dict[str, Any]) -> list[dict[str, Any]]:
    return [node, *(n for c in node["children"] for n in flatten(c))]


def test_eight_shows_its_bounds_as_bounds(page: Page, base_url: str) -> None:
    truth = api_get(base_url, "/tree", board="0:0", variant="eight")
    root = from_api(truth["root"])
    steps = walk(root)
    bounds = {s.node: shown(s.value, s.bound) for s in steps if s.bound and s.value is not None}
    assert len(bounds) == 14  # of 44 visits; 4 of them differ from the node's value
    open_link(page, "variant=normal")
    open_panel(page, "eight")
    page.wait_for_function("() => document.getElementById('tree-status').textContent.startsWith('62 nodes')")
    # The whole walk: every bound shows as one, and the row is not coloured as a value.
    for row in rows(page):
        if row["node"] in bounds:
            assert row["score"] == bounds[row["node"]] and row["bound"], row
    twelve = next(r for r in rows(page) if r["node"] == 12)
    assert twelve["score"] == f"≤ {MINUS}995" and twelve["result"] is None  # its value is -996
    rules = api_get(base_url, "/variants")["games"]
    assert page.inner_text("#eight-rules") == next(g["rules"] for g in rules if g["name"] == "eight")
    check_every_step(page, root, steps)


@pytest.mark.parametrize(
    "leaves",
    [
        FIGURE_LEAVES,
        [5, 1, 9, -7, 8, 2, 4, 6, 0],
        [2, 2, 2, 9, 1, 3, -4, 10, 6],
        [-5, -2, -8, -9, -1, -6, -3, -7, -4],
    ],
    ids=["figure", "changed", "ties", "negative"],
)
def test_figure_5_5_replayed_with_its_leaves_and_others(page: Page, leaves: list[int]) -> None:
    open_link(page, "variant=normal")
    open_panel(page, "textbook")
    for i, value in enumerate(leaves):
        move = f"{'bcd'[i // 3]}{i % 3 + 1}"
        page.fill(f"#textbook-leaf-{move}", str(value))
    root = figure(leaves)
    steps = walk(root)
    value = minimax(root)
    visited = len([s for s in steps if s.kind != "return"])
    status = page.inner_text("#tree-status")
    assert f"Minimax gives A the value {shown(value, None)} after visiting all 13" in status, status
    assert f"alpha-beta gives {shown(value, None)}, visiting {visited}," in status, status
    counts = page.inner_text("#tree-counts")
    assert "Minimax\t13 (100%)" in counts and f"Alpha-beta\t{visited} (" in counts, counts
    check_every_step(page, root, steps)
    if leaves == FIGURE_LEAVES:
        # the cut-off after leaf c1 (2 <= alpha 3): c2 and c3 never read, and shown with no value
        assert visited == 11
        pruned = {r["node"]: r for r in rows(page) if r["walk"] == "pruned"}
        assert sorted(pruned) == [7, 8] and all(r["score"] == "" for r in pruned.values())
        top = next(r for r in rows(page) if r["node"] == 0)
        assert top["score"] == "3" and top["pv"] and top["role"] == "MAX"


def test_a_bad_leaf_is_named_and_the_tree_kept(page: Page) -> None:
    open_link(page, "variant=normal")
    open_panel(page, "textbook")
    page.fill("#textbook-leaf-c2", "2.5")
    assert "Leaf c2 must be a whole number" in page.inner_text("#textbook-note")
    assert page.locator(ITEM).count() == 13


def test_eight_against_the_computer(page: Page, base_url: str) -> None:
    open_link(page, "variant=normal")
    open_panel(page, "eight")
    page.select_option("#eight-opponent", "O")  # X against the computer
    page.locator(".eight-pick", has_text="1").click()
    best = api_get(base_url, "/analyze", board="1:1", to_move="O", variant="eight")["best_move"]
    said = "(pick) => document.querySelector('.eight-state').textContent.includes(`(O) picked ${pick}`)"
    page.wait_for_function(said, arg=best)
    assert "X to pick" in page.inner_text(".eight-state")
    page.wait_for_function(
        "(words) => document.querySelector(\"#tree-view [data-node='0'] .tree-move\")"
        "?.textContent.startsWith(words)",
        arg=f"total {1 + best} after a {best}",
    )
    page.click(".eight button:has-text('Back')")  # back past the computer's pick, to X's first
    page.wait_for_function("() => document.querySelector('.eight-state').textContent.includes('Total 0')")


def test_figure_5_5_under_minimax_and_axe(page: Page) -> None:
    from .axe_core import axe_results  # axe-core 4.14.1, label in name on

    leaves = [4, -3, 7, 0, 9, 1, 6, 6, 2]
    open_link(page, "variant=normal")
    open_panel(page, "textbook")
    for i, value in enumerate(leaves):
        page.fill(f"#textbook-leaf-{'bcd'[i // 3]}{i % 3 + 1}", str(value))
    page.select_option("#tree-algorithm", "minimax")
    page.wait_for_selector("#tree-view[aria-label$='Minimax']")
    root = figure(leaves)
    steps: list[Step] = []
    minimax_walk(root, steps)
    check_every_step(page, root, steps)
    assert not [r for r in rows(page) if r["bound"] or r["walk"] == "pruned"]  # minimax reads every leaf
    found = axe_results(page, context="#search-tree")
    bad = [(v["id"], v["impact"]) for v in found["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, bad
