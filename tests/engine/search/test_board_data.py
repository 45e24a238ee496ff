"""The core takes a board as data (core/sanmoku_search.h, ss_board): its cells, its lines, the cell each
cell waits for under gravity, misère; nothing about rows and columns. Gravity boards whose waits make
columns are searched on column bitboards, found from the data alone: the same board numbered upside
down or column by column is searched node for node as the usual one. Waits that make no grid are
searched by cells, and agree with a plain minimax; a description the core cannot play is refused."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import (
    BIG,
    GOAL_SCORE,
    SCORE_MAX,
    SCORE_MIN,
    Game,
    Limits,
    TranspositionTable,
    prove,
    score_all,
)
from tests.engine.search.positions import random_play


@dataclass(frozen=True)
class Data:
    """A board as data, as native.Game takes it."""

    name: str
    cells: int
    lines: tuple[int, ...]
    waits: tuple[int | None, ...]
    misere: bool = False
    flanks: tuple[int, ...] | None = None


def renumbered(board: Board, cell_of: Callable[[int], int]) -> Data:
    """The board with cell c numbered cell_of(c): its lines and waits carried over."""
    lines = tuple(sum(1 << cell_of(c) for c in range(board.cells) if line >> c & 1) for line in board.lines)
    waits: list[int | None] = [None] * board.cells
    for cell, wait in enumerate(board.waits):
        waits[cell_of(cell)] = None if wait is None else cell_of(wait)
    return Data(f"{board.name} renumbered", board.cells, lines, tuple(waits), board.misere)


def moved(mask: int, cell_of: Callable[[int], int]) -> int:
    return sum(1 << cell_of(c) for c in range(64) if mask >> c & 1)


@pytest.mark.parametrize("name", ["connect4", "6x6k5-gravity"])
@pytest.mark.parametrize("numbering", ["upside down", "column by column"])
def test_columns_are_found_from_the_data_whatever_the_numbering(name: str, numbering: str) -> None:
    variant = get_variant(name)
    board, rows, cols = Board.of(variant), variant.rows, variant.cols

    def cell_of(cell: int) -> int:
        row, col = divmod(cell, cols)
        return (rows - 1 - row) * cols + col if numbering == "upside down" else col * rows + row

    usual, other = Game(board), Game(renumbered(board, cell_of))
    rng, limits, searched = random.Random(name), Limits(0.0, 200_000), 0
    for _ in range(6):
        mine, theirs = random_play(board, 12, rng)
        want = prove(usual, TranspositionTable(16), mine, theirs, GOAL_SCORE, limits, SCORE_MIN, SCORE_MAX)
        got = prove(
            other,
            TranspositionTable(16),
            moved(mine, cell_of),
            moved(theirs, cell_of),
            GOAL_SCORE,
            limits,
            SCORE_MIN,
            SCORE_MAX,
        )
        assert (got.lower, got.upper, got.nodes, got.tt_hits) == (
            want.lower,
            want.upper,
            want.nodes,
            want.tt_hits,
        )
        assert got.best_move == (None if want.best_move is None else cell_of(want.best_move))
        searched += want.nodes
    assert searched > 1000  # measured: searches, not positions settled at their root


# Ten cells that make no grid: 0-3 wait for none, the others by six steps (4 and 5 both wait for 1: two
# cells on one), so gravity's playable cells and the cells under a threat come from several shifts.
IRREGULAR_WAITS = (None, None, None, None, 1, 1, 4, 2, 7, 3)
IRREGULAR_LINES = ((0, 1, 2), (1, 2, 3), (4, 5, 7), (0, 4, 6), (2, 7, 8), (3, 9, 8), (6, 5, 2), (1, 5, 9))


def irregular(misere: bool) -> Data:
    lines = tuple(sum(1 << c for c in line) for line in IRREGULAR_LINES)
    return Data("irregular", 10, lines, IRREGULAR_WAITS, misere)


def playable(data: Data, occupied: int) -> list[int]:
    return [
        c
        for c in range(data.cells)
        if not occupied >> c & 1 and (data.waits[c] is None or occupied >> data.waits[c] & 1)
    ]


def minimax(data: Data) -> Callable[[int, int], int]:
    """The score for the side to move of every position (the core's scores: a win with the T-th mark
    scores BIG - T), by plain negamax over the data."""
    full = (1 << data.cells) - 1

    def completes(marks: int) -> bool:
        return any(marks & line == line for line in data.lines)

    @cache
    def value(mine: int, theirs: int) -> int:
        return max(move_value(mine, theirs, cell) for cell in playable(data, mine | theirs))

    def move_value(mine: int, theirs: int, cell: int) -> int:
        marks = (mine | theirs).bit_count() + 1
        if completes(mine | 1 << cell):
            return -(BIG - marks) if data.misere else BIG - marks
        if (mine | theirs | 1 << cell) == full:
            return 0
        return -value(theirs, mine | 1 << cell)

    return move_value


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_waits_that_make_no_grid_are_searched_by_cells_as_minimax_has_them(misere: bool) -> None:
    data = irregular(misere)
    game, table, move_value = Game(data), TranspositionTable(12), minimax(data)
    rng, checked = random.Random(misere), 0
    for _ in range(60):
        mine = theirs = 0
        for _ in range(rng.randrange(0, 6)):
            mine, theirs = theirs, mine | 1 << rng.choice(playable(data, mine | theirs))
            if any(theirs & line == line for line in data.lines):
                break
        if any(theirs & line == line for line in data.lines):
            continue  # the game is over
        cells, scores, _ = score_all(game, table, mine, theirs)
        assert cells == playable(data, mine | theirs)
        assert scores == [move_value(mine, theirs, cell) for cell in cells], f"{mine:#x}/{theirs:#x}"
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize(
    "data",
    [
        Data("no cells", 0, (), ()),
        Data("too many cells", 513, (), (None,) * 513),  # past the wide build's 512
        Data("a wait off the board", 4, (0b11,), (None, 7, None, None)),
        Data("a cell waiting for itself", 4, (0b11,), (None, 1, None, None)),
        Data("waits in a ring", 4, (0b11,), (1, 2, 0, None)),
        Data("an empty line", 4, (0,), (None,) * 4),
        Data("a line off the board", 4, (1 << 5,), (None,) * 4),
    ],
    ids=lambda data: data.name,
)
def test_a_description_the_core_cannot_play_is_refused(data: Data) -> None:
    with pytest.raises(ValueError, match="refused"):
        Game(data)
