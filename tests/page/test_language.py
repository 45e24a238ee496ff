"""The page in English and in Japanese: the switch (English / 日本語) changes every string of the main
views, sets <html lang>, is reachable by keys and is remembered on reload; a first visit follows the
browser's languages; counts are said right in both (English "1 move" and "2 moves", Japanese "1手",
no plural); the service's own English keeps lang="en" inside a Japanese page."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from .ui import open_link, show_overlay, wait_idle

pytestmark = pytest.mark.slow  # each drives Chromium

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

# A finished 4×4 game with its review, shown at its third move: the status line, the analysis, the moves
# ranked, the move list with verdicts, the review and the chart all have words.
ANALYSIS = "variant=4x4k3&first=X&moves=2,4,15,12,5,1,3,13,8&ply=3&overlay=values"
# Words of the English page, none of them a name the page shows as it is (variant codes such as
# 3x3k3-torus, policy names such as perfect or random-best, cell names, the keys' names).
ENGLISH = re.compile(
    r"\b(the|and|with|to move|wins|loses|draws?|moves?|game|board|analysis|settings|opponent|new|"
    r"undo|redo|values|hint|off|copy|link|variant|first|review|mistakes?|blunders?|slower|exact|"
    r"computer|players|search|tree|keys|delete|export|import|start|after|layers?|rows?|columns?|"
    r"loading|proven|guesses|main line|legend|cell|empty|in a row|solved|documentation)\b",
    re.IGNORECASE,
)

# The visible text of the page, with the language each piece is in (the nearest lang attribute), and
# the accessible labels the page writes (aria-label, title).
VISIBLE_TEXT = """() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent.trim();
        const parent = node.parentElement;
        if (!text || !parent || parent.closest("script, style, dialog:not([open])")) continue;
        if (!parent.checkVisibility({ visibilityProperty: true })) continue;
        found.push([parent.closest("[lang]").lang, text]);
    }
    for (const element of document.querySelectorAll("[aria-label], [title]")) {
        if (!element.checkVisibility()) continue;
        for (const name of ["aria-label", "title"]) {
            const text = element.getAttribute(name);
            if (text) found.push([element.closest("[lang]").lang, text]);
        }
    }
    return found;
}"""


def english_left(page: Page) -> list[str]:
    """What the page shows in Japanese that still reads as English (the service's own sentences, in
    lang="en", are left out: they are English on purpose)."""
    texts = page.evaluate(VISIBLE_TEXT)
    return [text for lang, text in texts if lang == "ja" and ENGLISH.search(text)]


def switch_to(page: Page, lang: str) -> None:
    page.click(f"#language button[data-language='{lang}']")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    wait_idle(page)


def open_analysis(page: Page) -> None:
    page.goto("/")
    wait_idle(page)
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page)
    open_link(page, ANALYSIS)
    page.wait_for_selector("#review[data-state='ready']")


def test_the_switch_puts_every_string_of_the_main_views_in_japanese(new_page: PageFactory) -> None:
    page = new_page(locale="en-GB")
    open_analysis(page)
    assert page.evaluate("document.documentElement.lang") == "en"
    before = english_left(page)
    assert before == [], "an English page has no Japanese context"
    english = [text for lang, text in page.evaluate(VISIBLE_TEXT) if ENGLISH.search(text)]
    assert len(english) > 50, "the scan finds the English words it looks for"
    status, verdict = page.inner_text("#status"), page.inner_text("#verdict")
    switch_to(page, "ja")
    assert english_left(page) == []
    assert page.inner_text("#status") != status and "の手番" in page.inner_text("#verdict") != verdict
    assert page.inner_text("#new-game") == "新しい対局" and page.title().startswith("三目")
    assert page.get_attribute("#nav-back", "aria-label") == "1手戻る"
    assert (page.get_attribute(".cell[data-cell='0']", "aria-label") or "").startswith("マス a1")
    # The review's verdicts, the chart's axis and the settings: Japanese too.
    assert "悪手" in page.inner_text("#verdict-legend") and "Xの勝ち" in page.inner_text("#chart")
    assert page.inner_text("#settings-heading") == "設定"
    # The service's own sentences (the variant's rules, the policy's summary) stay English, marked so.
    rules = page.locator("#variant-rules [lang='en']")
    assert rules.count() == 1 and rules.inner_text() == page.inner_text("#variant-rules")
    # The editor and a game in progress against the computer say it in Japanese as well.
    page.click("#edit")
    assert english_left(page) == [] and "局面を作成中" in page.inner_text("#play-heading")
    page.click("#editor-cancel")
    open_link(page, "variant=connect4&moves=38,31")
    assert english_left(page) == []
    switch_to(page, "en")
    assert "to move" in page.inner_text("#status") or "turn" in page.inner_text("#status")
    assert page.inner_text("#new-game") == "New game"


def test_the_choice_is_remembered_and_a_first_visit_follows_the_browser(new_page: PageFactory) -> None:
    page = new_page(locale="en-US")
    page.goto("/?variant=normal")
    wait_idle(page)
    assert page.evaluate("document.documentElement.lang") == "en"
    switch_to(page, "ja")
    assert page.evaluate("localStorage.getItem('sanmoku.language')") == "ja"
    page.reload()
    wait_idle(page)
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.get_attribute("#language button[data-language='ja']", "aria-pressed") == "true"
    assert page.inner_text("#undo") == "待った"
    # A browser whose first language is Japanese gets Japanese on a first visit; an English one English.
    japanese = new_page(locale="ja-JP")
    japanese.goto("/?variant=normal")
    wait_idle(japanese)
    assert japanese.evaluate("[document.documentElement.lang, navigator.languages[0]]") == ["ja", "ja-JP"]
    # Each button says its language in that language, and is marked so.
    names = japanese.eval_on_selector_all(
        "#language button", "bs => bs.map((b) => [b.lang, b.textContent, b.getAttribute('aria-pressed')])"
    )
    assert names == [["en", "English", "false"], ["ja", "日本語", "true"]]


def test_the_switch_is_reached_and_pressed_by_keys(new_page: PageFactory) -> None:
    page = new_page(locale="en-GB")
    page.goto("/?variant=normal")
    wait_idle(page)
    page.focus("body")
    for _ in range(10):  # from the top of the page, as a keyboard user would
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.language === 'ja'"):
            break
    assert page.evaluate("document.activeElement.dataset.language") == "ja"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert page.evaluate("document.activeElement.dataset.language") == "ja"  # the focus stays
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.documentElement.lang === 'en'")


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "Start, 1 move ahead", "Start, 2 moves ahead"),
        ("ja", "開始局面、この先1手", "開始局面、この先2手"),
    ],
)
def test_counts_are_said_right_in_both_languages(
    new_page: PageFactory, lang: str, one: str, two: str
) -> None:
    page = new_page(locale="en-GB" if lang == "en" else "ja-JP")
    open_link(page, "variant=normal&moves=4&ply=0")
    assert page.inner_text("#nav-where") == one
    open_link(page, "variant=normal&moves=4,0&ply=0")
    assert page.inner_text("#nav-where") == two
    # The review's counts: "1 mistake, 0 blunders" in English; no plural in Japanese.
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    show_overlay(page)
    open_link(page, "variant=normal&moves=4,1,0,8,6,2,3&overlay=values")
    page.wait_for_selector("#review[data-state='ready']")
    summary = page.inner_text("#review-summary")
    if lang == "en":
        assert re.search(r"\b1 mistake\b", summary) and re.search(r"\b0 blunders\b", summary), summary
    else:
        assert "疑問手1" in summary and "悪手0" in summary, summary


def test_the_news_follows_a_switch(new_page: PageFactory) -> None:
    """What just happened is said again in the new language, not left in the old one."""
    page = new_page(locale="en-GB")
    open_link(page, "variant=normal")
    page.check("input[name='mode'][value='humans']")
    wait_idle(page)
    page.click(".cell[data-cell='4']")
    wait_idle(page)
    assert page.inner_text("#status-event") == "X played 5."
    switch_to(page, "ja")
    assert page.inner_text("#status-event") == "Xが5に打ちました。"
    assert page.get_attribute("#status-event", "title") == "Xが5に打ちました。"


TREE_ITEM = "#tree-view [role='treeitem']"
# English words of the search tree panel, none of them a name it shows as it is (MAX, MIN, alpha, beta).
TREE_ENGLISH = re.compile(
    r"\b(the|tree|walk|nodes?|plies|ply|depth|step|whole|pick|total|leaf|leaves|minimax|alpha-beta|"
    r"figure|wins|draw|value|bound|visited|pruned|against|again|back)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_search_tree_panel_in_japanese_with_axe(new_page: PageFactory, scheme: str) -> None:
    """The panel, made once, is made again in the new language on a switch, open as it was; its three
    trees (the board's, Eight's, the textbook's) are said in Japanese, and axe-core with the
    label-in-name rule finds nothing serious in it."""
    from .axe_core import axe_results

    page = new_page(color_scheme=scheme, locale="en-GB")
    open_link(page, "variant=normal&moves=0,4,8,2&ply=4")
    page.click("#search-tree summary")
    page.wait_for_selector(f"{TREE_ITEM}[data-node='0']")
    switch_to(page, "ja")
    page.wait_for_selector(f"{TREE_ITEM}[data-node='0']")
    assert page.evaluate("document.getElementById('search-tree-details').open")
    for source in ("board", "eight", "textbook"):
        page.check(f"input[name='tree-source'][value='{source}']")
        page.wait_for_selector(f"{TREE_ITEM}[data-node='0']")
        page.click("#tree-start")
        page.click("#tree-next")
        texts = page.evaluate(VISIBLE_TEXT)
        panel = page.inner_text("#search-tree")
        left = [text for lang, text in texts if lang == "ja" and TREE_ENGLISH.search(text) and text in panel]
        assert left == [], (source, left)
        assert "ステップ 2/" in page.inner_text("#tree-step"), source
        found = axe_results(page, context="#search-tree")
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in found["violations"]
            if v["impact"] in ("serious", "critical") or v["id"] == "label-content-name-mismatch"
        ]
        assert not bad, (source, bad)
