"""The search says what it spent: nodes, cut-offs and transposition-table hits, from the core to the
answer's `search` object."""

from __future__ import annotations

from flask.testing import FlaskClient

from service.engine import Position, get_variant
from service.engine.search import Budget, Searcher
from tests.http.contract import analyze

VARIANT = get_variant("4x4k4")
OPENING = Position.parse("X.../.O../..../....", variant=VARIANT)


def test_a_search_reports_its_cutoffs_and_table_hits() -> None:
    searcher = Searcher(VARIANT, table_bits=16)
    first = searcher.analyze(OPENING, Budget(nodes=200_000))
    assert first.nodes > 0
    # alpha-beta's null windows cut at almost every inner node; a cut-off and a hit are node events
    assert 0 < first.cutoffs < first.nodes
    assert 0 < first.tt_hits < first.nodes
    # the same position again, on the same table: what was proven is found, so fewer nodes
    again = searcher.analyze(OPENING, Budget(nodes=200_000))
    assert again.tt_hits > 0 and again.nodes < first.nodes


def test_a_position_whose_moves_all_end_the_game_costs_no_node() -> None:
    last = Position.parse("XOX/XOO/OX.", variant=get_variant("normal"))  # one cell left: it fills the board
    report = Searcher(last.variant, table_bits=14).analyze(last, Budget(nodes=1000))
    assert (report.nodes, report.cutoffs, report.tt_hits) == (0, 0, 0)


def test_the_answer_carries_the_search_statistics(client: FlaskClient) -> None:
    body = analyze(client, board="X...O....", variant="normal", source="search")
    stats = body["search"]
    assert isinstance(stats, dict)
    assert 0 < stats["cutoffs"] < stats["nodes"] and 0 <= stats["tt_hits"] < stats["nodes"]
    table = analyze(client, board="X...O....", variant="normal")
    assert table["search"] is None  # a lookup searched nothing
