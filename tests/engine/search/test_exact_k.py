"""The rule "exactly k" (a run of more than k marks is no line: gomoku's standard rule) beside "k or
more": the rules on constructed positions, the compiled search against a plain negamax written here and
against the solved tables (two implementations apart: the core's flanks, the tables' line states), and
the provers kept out (a mark of one's own can spoil a line)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from service.cli import main as cli
from service.engine import Position, get_variant
from service.engine.errors import UnknownVariantError
from service.engine.rules.geometry import geometry_of
from service.engine.search import Board, Budget, Searcher
from service.engine.search.narrowing import search_provers
from service.engine.search.native import Game, threats
from service.engine.search.proof_number import Prover, applies
from service.engine.search.proven_record import PROVE, SEARCH, Origin
from tests.engine.search.test_every_table_variant import disagreements


def test_names_and_what_they_take() -> None:
    exact = get_variant("15x15k5-exact")
    assert exact.exact and exact.long_name == exact.name == "15x15k5-exact" and "Exactly five" in exact.rules
    assert get_variant("4x4k3-misere-exact").misere and get_variant("3x3x3k3-exact").exact
    for name in ("4x4k3-torus-exact", "6x7k4-gravity-exact", "4x4k3-exact-misere"):
        with pytest.raises(UnknownVariantError):
            get_variant(name)


def cells_of(text: str) -> int:
    """The mask of the X of a board written row by row, / between rows."""
    return sum(1 << cell for cell, mark in enumerate(text.replace("/", "")) if mark == "X")


@pytest.mark.parametrize(
    ("rows", "k_or_more", "exactly"),
    [
        ("XXX..../.......", True, True),  # three in a row, the next cell empty
        ("XXXX.../.......", True, False),  # four: no line of exactly three
        ("XXX.XXX/.......", True, True),  # two runs of three, apart
        ("XXXXXXX/.......", True, False),  # seven: none
        ("XXXX.../X......", True, False),  # four along the row; the column is two
        ("XXXX.../XXX....", True, True),  # the second row's three counts
        (".X...../.X.....", False, False),  # two rows: no column of three
    ],
)
def test_a_longer_run_is_no_line(rows: str, k_or_more: bool, exactly: bool) -> None:
    mask = cells_of(rows)
    assert geometry_of(get_variant("2x7k3")).holds_line(mask) is k_or_more
    assert geometry_of(get_variant("2x7k3-exact")).holds_line(mask) is exactly
    # on a board past the lookup of every mask (16 cells), the same by the lines themselves
    wide = rows.replace("/", ".../") + "..."
    assert geometry_of(get_variant("2x10k3")).holds_line(cells_of(wide)) is k_or_more
    assert geometry_of(get_variant("2x10k3-exact")).holds_line(cells_of(wide)) is exactly


def test_a_move_that_makes_a_run_of_k_plus_one_does_not_win() -> None:
    """2x8, k = 3, X to move with X on 0, 1 and 3 of the top row: 2 makes four in a row, a win only
    under k or more; the search says so on both rules."""
    for name, wins_at_2 in (("2x8k3", True), ("2x8k3-exact", False)):
        variant = get_variant(name)
        position = Position.parse("XX.X..../OO.O....", "X", variant)
        assert position.play(2).is_over is wins_at_2
        report = Searcher(variant, table_bits=14).analyze(position, Budget())
        two = next(m for m in report.moves if m.cell == 2)
        assert (two.lower == 1 and two.remoteness == 1) is wins_at_2


@cache
def _value(
    lines: tuple[int, ...], flanks: tuple[int, ...], cells: int, misere: bool, mine: int, theirs: int
) -> tuple[int, int]:
    """(result, plies to the end) for the side to move, by negamax: a line counts only with no mark of
    its owner beside its ends; the winner hurries, the loser delays."""
    best: tuple[int, int] | None = None
    for cell in range(cells):
        if (mine | theirs) >> cell & 1:
            continue
        found = _after(lines, flanks, cells, misere, mine | 1 << cell, theirs)
        if best is None or _better(found, best):
            best = found
    return best if best is not None else (0, 0)


def _after(
    lines: tuple[int, ...], flanks: tuple[int, ...], cells: int, misere: bool, played: int, theirs: int
) -> tuple[int, int]:
    """The value of a move for its player, `played` its marks after it."""
    if any(played & line == line and not played & flank for line, flank in zip(lines, flanks, strict=True)):
        return (-1 if misere else 1), 1
    if played | theirs == (1 << cells) - 1:
        return 0, 1
    result, plies = _value(lines, flanks, cells, misere, theirs, played)
    return -result, plies + 1


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1]


@pytest.mark.parametrize(
    "name", ["4x4k3-exact", "3x5k3-exact", "4x4k3-misere-exact", "5x5k4-exact", "2x7k3-exact"]
)
def test_the_search_agrees_with_a_negamax_and_differs_from_k_or_more(name: str) -> None:
    variant = get_variant(name)
    geometry = geometry_of(variant)
    assert geometry.flanks is not None
    lines, flanks = geometry.lines, geometry.flanks
    k_or_more = Searcher(get_variant(name.removesuffix("-exact")), table_bits=14)
    searcher, rng, differ, checked = Searcher(variant, table_bits=14), random.Random(name), 0, 0
    while checked < 150:
        position = Position.empty(variant)
        for _ in range(rng.randint(max(0, variant.cells - 12), variant.cells - 2)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if position.is_over:
            continue
        report = searcher.analyze(position, Budget())
        for move in report.moves:
            want = _after(
                lines, flanks, variant.cells, variant.misere, position.mine | 1 << move.cell, position.theirs
            )
            assert (move.lower, move.remoteness) == want, (position.cells, move)
            checked += 1
        other = Position(k_or_more.variant, position.mine, position.theirs, position.to_move)
        if not other.is_over:
            theirs = k_or_more.analyze(other, Budget())
            differ += [(m.lower, m.remoteness) for m in theirs.moves] != [
                (m.lower, m.remoteness) for m in report.moves
            ]
    assert differ > 0  # the rule changes values on these boards: a search that ignored it would fail


@pytest.mark.slow
@pytest.mark.parametrize("name", ["3x4k3-exact", "2x8k3-exact", "4x4k3-misere-exact"])
def test_the_search_agrees_with_the_solved_table(name: str) -> None:
    summary, *problems = disagreements(name)
    assert problems == [] and summary.startswith(f"{name}: ")


# Each build (64, 128 and 512 cells), and 8x8k8, whose windows are whole rows, columns and diagonals
# (no flank on the board: `least` 0) and whose diagonal's k steps pass the 64-cell build's reach.
@pytest.mark.parametrize(
    ("name", "least"), [("8x8k5-exact", 10), ("8x8k8-exact", 0), ("10x10k5-exact", 10), ("15x15k5-exact", 10)]
)
def test_the_cores_threats_read_the_flanks(name: str, least: int) -> None:
    """The core's threats (each window a step at a time, core/board.c) against the lines and flanks read
    one by one here: a cell completes a window of one side's k marks with none of its marks beside it."""
    variant = get_variant(name)
    geometry = geometry_of(variant)
    assert geometry.flanks is not None
    game, rng, both = Game(Board.of(variant)), random.Random(name), 0
    for _ in range(300):
        marks = rng.sample(range(variant.cells), rng.randint(variant.cells // 4, variant.cells * 3 // 4))
        mine = sum(1 << c for c in marks[::2])
        theirs = sum(1 << c for c in marks[1::2])
        want = 0
        for line, flank in zip(geometry.lines, geometry.flanks, strict=True):
            missing = line & ~mine
            if not line & theirs and missing.bit_count() == 1 and not flank & mine:
                want |= missing
        assert threats(game, mine, theirs) == want, (mine, theirs)
        both += any(  # a window that would count under "k or more" alone
            not line & theirs and (line & ~mine).bit_count() == 1 and flank & mine
            for line, flank in zip(geometry.lines, geometry.flanks, strict=True)
        )
    assert both >= least  # the flanks made a difference


def test_the_provers_are_kept_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """All but the trees of threat sequences, which read the flanks (test_root_trees.py checks them)."""
    variant = get_variant("8x8k5-exact")
    assert not applies(variant)
    assert not Origin.of(PROVE, [Prover.PROOF_NUMBER]).sound_for(variant)
    assert not Origin.of(SEARCH, [Prover.ALPHA_BETA, Prover.PAIRING]).sound_for(variant)
    assert not Origin(SEARCH, None, 0).sound_for(variant)  # a record of before origins: any prover
    assert Origin.of(SEARCH, [Prover.ALPHA_BETA]).sound_for(variant)
    assert Origin.of(SEARCH, [Prover.ALPHA_BETA, Prover.THREAT_SPACE]).sound_for(variant)
    assert search_provers(get_variant("15x15k5-exact")) == {Prover.ALPHA_BETA, Prover.THREAT_SPACE}
    assert search_provers(variant) == {Prover.ALPHA_BETA}  # 64 cells: alpha-beta alone
    assert cli.main(["prove", "8x8k5-exact", "--dir", str(tmp_path)]) == 2
    assert "exactly k" in capsys.readouterr().err
