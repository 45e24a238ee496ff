"""Sharing, offline 3x3 and puzzles: the PNG download is a PNG of the board's size, the Open Graph tags
and the manifest are there, the service worker answers 3x3 with the network to the API cut, a puzzle is
solved by the table's moves and a wrong move is said wrong; axe-core is clean on these views in both
languages."""

from __future__ import annotations

import json
import struct
import urllib.request
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .axe_core import axe_results
from .ui import Json, analysing, api_get, board_after, wait_idle

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from .conftest import PageFactory

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE, data[:8]
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_png_is_the_board_at_its_size(page: Page) -> None:
    analysing(page, "variant=4x4k3&moves=5,0,10")
    box = page.locator("#board").bounding_box()
    assert box is not None
    with page.expect_download() as download:
        page.click("#save-png")
    path = download.value.path()
    data = path.read_bytes()
    assert png_size(data) == (round(box["width"]), round(box["height"]))
    assert download.value.suggested_filename.endswith(".png")


def test_open_graph_tags_and_the_manifest(new_page: PageFactory, base_url: str) -> None:
    page = new_page(service_workers="allow")
    page.goto("/")
    wait_idle(page)
    for name in ("og:title", "og:description", "og:image"):
        content = page.get_attribute(f"meta[property='{name}']", "content")
        assert content, name
    image = page.get_attribute("meta[property='og:image']", "content") or ""
    with urllib.request.urlopen(f"{base_url}{image}", timeout=10) as answer:
        assert answer.read(8) == PNG_SIGNATURE
    manifest_href = page.get_attribute("link[rel='manifest']", "href")
    with urllib.request.urlopen(f"{base_url}{manifest_href}", timeout=10) as answer:
        manifest = json.load(answer)
    assert manifest["short_name"] == "Sanmoku" and manifest["start_url"].startswith("/")
    # The page's policy lets the manifest load: the browser fetched it without a CSP error (conftest).
    page.wait_for_function("() => document.documentElement.dataset.offline === 'ready'")


def bar_words(analysed: Json) -> str:
    if analysed["result"] == "draw":
        return "draw"
    mover = analysed["to_move"]
    winner = mover if analysed["result"] == "win" else ("O" if mover == "X" else "X")
    return f"{winner} wins in {analysed['remoteness']}"


def test_3x3_is_analysed_offline_from_the_kept_table(new_page: PageFactory, base_url: str) -> None:
    moves = [4, 1]
    expected = api_get(base_url, "/analyze", variant="normal", board=board_after(moves, 9), to_move="X")
    page = new_page(service_workers="allow")
    analysing(page, "variant=normal")
    page.wait_for_function("() => document.documentElement.dataset.offline === 'ready'")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # The worker has kept the page's files; the table is kept at its install.
    kept = """async () => {
        const cache = await caches.open("sanmoku-offline-1");
        return Boolean(await cache.match("/solve?variant=normal&first=X"))
            && Boolean(await cache.match("/static/app.js"));
    }"""
    for _ in range(100):  # page.evaluate awaits the promise; wait_for_function would take it as true
        if page.evaluate(kept):
            break
        page.wait_for_timeout(100)
    assert page.evaluate(kept)
    page.context.set_offline(True)
    page.goto("/?variant=normal&moves=4,1")
    wait_idle(page)
    assert page.text_content("#verdict-bar-words") == bar_words(expected)
    # The page is kept once, not once per link opened.
    pages = page.evaluate(
        """async () => (await (await caches.open("sanmoku-offline-1")).keys())
            .filter((request) => new URL(request.url).pathname === "/").length"""
    )
    assert pages == 1
    # The same answer as the service's, field by field, for the page's own request.
    offline: Json = page.evaluate(
        "fetch('/analyze?board=.O..X....&to_move=X&variant=normal').then(r => r.json())"
    )
    for field in ("status", "result", "score", "remoteness", "best_moves", "lines"):
        assert offline[field] == expected[field], field
    assert {(m["cell"], m["result"], m["remoteness"]) for m in offline["moves"]} == {
        (m["cell"], m["result"], m["remoteness"]) for m in expected["moves"]
    }
    # A move offline: the values of the next position come from the table too.
    page.click(".cell[data-cell='0']")
    wait_idle(page)
    after = api_get(base_url, "/analyze", variant="normal", board=board_after([4, 1, 0], 9), to_move="O")
    assert page.text_content("#verdict-bar-words") == bar_words(after)
    # Another board needs the service, and says it cannot reach it.
    page.context.set_offline(False)


def puzzle_position(page: Page) -> tuple[str, str, str]:
    board = page.get_attribute("#puzzle-board", "data-board") or ""
    side = page.get_attribute("#puzzle-board", "data-to-move") or ""
    name = page.get_attribute("#puzzle-board", "data-variant") or ""
    return board, side, name


def new_puzzle(page: Page, base_url: str) -> Json:
    page.click("#puzzle-new")
    page.wait_for_selector("#puzzle-board:not([hidden])")
    board, side, name = puzzle_position(page)
    answer = api_get(base_url, "/analyze", variant=name, board=board, to_move=side)
    task = page.text_content("#puzzle-task") or ""
    assert answer["result"] == "win" and len(answer["best_moves"]) == 1
    assert task.startswith(f"{side} to move and win in {answer['remoteness']}")
    return answer


def test_a_puzzle_is_solved_and_a_wrong_move_is_said_wrong(page: Page, base_url: str) -> None:
    analysing(page, "variant=normal")
    answer = new_puzzle(page, base_url)
    wrong = next(move for move in answer["moves"] if move["cell"] not in answer["best_moves"])
    page.click(f"#puzzle-board .puzzle-cell[data-cell='{wrong['cell']}']")
    assert (page.text_content("#puzzle-result") or "").startswith("Wrong")
    assert page.get_attribute("#puzzles", "data-outcome") == "wrong"
    page.click("#puzzle-again")
    for _ in range(5):  # a win in at most 9 plies: at most 5 of the solver's moves
        board, side, name = puzzle_position(page)
        now = api_get(base_url, "/analyze", variant=name, board=board, to_move=side)
        best = now["best_moves"][0]
        page.click(f"#puzzle-board .puzzle-cell[data-cell='{best}']")
        page.wait_for_function("b => document.querySelector('#puzzle-board').dataset.board !== b", arg=board)
        if page.get_attribute("#puzzles", "data-outcome") == "solved":
            break
        assert page.get_attribute("#puzzles", "data-outcome") == "right"
    assert page.get_attribute("#puzzles", "data-outcome") == "solved"
    assert page.text_content("#puzzle-result") == f"Solved: {answer['to_move']} wins."


@pytest.mark.parametrize("locale", ["en-GB", "ja-JP"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_is_clean_on_the_new_views(
    new_page: PageFactory, base_url: str, locale: str, scheme: str
) -> None:
    page = new_page(locale=locale, color_scheme=scheme)
    analysing(page, "variant=normal&moves=4,1,0")
    page.click("#move-list .ply-button >> nth=1")
    wait_idle(page)
    page.click("#why-button")
    page.click("#exchange summary")
    page.click("#puzzle-new")
    # a new puzzle asks the service about several positions: on a loaded host (the whole suite beside
    # it) 10 s ran out once; say what the page said if it does again
    try:
        page.wait_for_selector("#puzzle-board:not([hidden])", timeout=30_000)
    except PlaywrightTimeoutError:
        raise AssertionError(page.text_content("#puzzle-result")) from None
    results = axe_results(page)
    bad = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results["violations"]
        if v["impact"] in ("serious", "critical") or v["id"] == "label-content-name-mismatch"
    ]
    assert not bad, bad
    assert page.text_content("#verdict-bar-words")
