"""The 5x5k4 table (format 3, 20 GB: built by `sanmoku tables build 5x5k4`, not in CI) against the
search: 10,000 entries drawn uniformly from the file, each position's value and remoteness proven by
the compiled search, and looked up again from a random symmetric image of it; the empty board a draw
(Lee, Winning Ways) and every opening move with it. Runs only where $SANMOKU_BUILT_TABLES_DIR holds the
table; skipped elsewhere."""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from service.engine import Mark, Position, Table, TableStore, Value, get_variant
from service.engine.books.build import book_positions
from service.engine.books.source import PACKAGED, Books
from service.engine.rules.geometry import geometry_of
from service.engine.rules.values import DECODED
from service.engine.tables.classes import ClassLayout
from tests.engine.search.exact_scores import Prover, score_of

VARIANT = get_variant("5x5k4")
SAMPLE = 10_000
DIRECTORY = os.environ.get("SANMOKU_BUILT_TABLES_DIR")

pytestmark = pytest.mark.skipif(
    DIRECTORY is None or not (Path(DIRECTORY) / f"{VARIANT.long_name}.table").exists(),
    reason="no built 5x5k4 table in $SANMOKU_BUILT_TABLES_DIR",
)


@pytest.fixture(scope="module")
def table() -> Table:
    return TableStore(DIRECTORY).get(VARIANT)


def masks_at(layout: ClassLayout, rank: int) -> tuple[int, int]:
    """The first and the second player's cells of the entry at `rank` (the layout read backwards)."""
    tier = int(np.searchsorted(layout.tier_offset, rank, side="right")) - 1
    panel = max((p for p in layout.tiers[tier] if p.offset <= rank), key=lambda p: p.offset)
    row, col = divmod(rank - panel.offset, len(panel.cols))
    lead, trail = int(panel.rows[row]), int(panel.cols[col])
    first = int(layout.lead.first[lead]) | int(layout.trail.first[trail])
    second = int(layout.lead.second[lead]) | int(layout.trail.second[trail])
    return first, second


def image(mask: int, symmetry: tuple[int, ...]) -> int:
    return sum(1 << symmetry[cell] for cell in range(VARIANT.cells) if mask >> cell & 1)


def test_the_empty_board_and_every_opening_move_are_draws(table: Table) -> None:
    found = table.lookup(Position.empty(VARIANT))
    assert found.value == Value(0, 25)
    assert len(found.moves) == 25 and {m.value for m in found.moves} == {Value(0, 25)}


def test_the_shipped_book_agrees_with_the_table(table: Table) -> None:
    """Every move of every position of the installed book (plies 0 to 3, proven by the search)."""
    book = Books([], packaged=PACKAGED).book(VARIANT)
    assert book is not None
    layers = book_positions(VARIANT, 3)
    for position in (p for layer in layers for p in layer):
        moves = book.moves(position)
        assert moves is not None
        want = {m.cell: m.value for m in table.lookup(position).moves}
        assert {m.cell: m.value for m in moves} == want, position.cells
    assert sum(map(len, layers)) == 1 + 6 + 85 + 904  # the table's classes of tiers 0 to 3, all in play


def test_sampled_entries_agree_with_the_search(table: Table) -> None:
    layout = table.layout
    assert isinstance(layout, ClassLayout)
    rng = random.Random(25)
    prover = Prover(VARIANT)
    symmetries = geometry_of(VARIANT).point_symmetries
    checked, problems = 0, []
    while checked < SAMPLE:
        rank = rng.randrange(layout.size)
        value = DECODED[int(table.values[rank])]
        if value is None:  # no position of this class arises by play
            continue
        first, second = masks_at(layout, rank)
        marks = (first | second).bit_count()
        mine, theirs = (first, second) if marks % 2 == 0 else (second, first)
        if prover.board.is_over(mine, theirs):
            continue
        checked += 1
        lower, upper = prover.bounds(mine, theirs)
        want = score_of(value, marks, VARIANT.cells)
        symmetry = rng.choice(symmetries)
        x, o = image(first, symmetry), image(second, symmetry)
        seen = table.value(Position(VARIANT, x, o, Mark.X if marks % 2 == 0 else Mark.O))
        if not lower == upper == want or seen != value:
            problems.append(f"rank {rank}: search [{lower}, {upper}], table {want}, image {seen}")
    assert problems[:10] == []
