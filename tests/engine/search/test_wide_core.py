"""The wider builds of the core (`_core_128` and `_core_wide`: two and eight words to a set of cells,
core/mask.h) are the same search as the 64-cell build: on boards all play, the same moves, the same exact
scores (on their own scale, SS_BIG 1000 for 100) and the same node counts; the same provers' answers and
zones. On boards past 64 cells, made here as data, they agree with a plain minimax near the end of the
game, and find what is known of the empty boards: 3x3 is a draw, and three in a row on a board of 4x5
cells or more is won with the first player's third mark (4x5 k=3 is won in 5 plies; a mark more of the
second player's, or a board larger, never helps it)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import (
    BIG,
    GOAL_SCORE,
    NARROW,
    WIDE,
    WIDTH_128,
    Game,
    Limits,
    ProofTable,
    TranspositionTable,
    Width,
    ask,
    prove,
    score_all,
    threats,
    width_for,
)
from tests.engine.search.positions import random_play


@dataclass(frozen=True)
class Grid:
    """A board as data, as native.Game takes it: rows x cols, its lines the rows, columns and diagonals of
    k cells (cell r * cols + c), no gravity."""

    rows: int
    cols: int
    k: int
    misere: bool = False
    flanks: tuple[int, ...] | None = None  # k or more

    @property
    def name(self) -> str:
        return f"{self.cols}x{self.rows}k{self.k}{'-misere' if self.misere else ''} as data"

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def lines(self) -> tuple[int, ...]:
        found = []
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + (self.k - 1) * dr, c + (self.k - 1) * dc
                    if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                        found.append(sum(1 << (r + i * dr) * self.cols + c + i * dc for i in range(self.k)))
        return tuple(found)

    @property
    def waits(self) -> tuple[int | None, ...]:
        return (None,) * self.cells


def wide_score(score: int) -> int:
    """A score of the 64-cell build on the wide build's scale: the same end of the game, T marks."""
    return score + (WIDE.big - BIG) * ((score > 0) - (score < 0))


BOTH = ["4x4k3", "5x5k4", "4x4k4-torus", "5x5k4-torus", "4x4k3-misere", "4x5k4-gravity-misere", "connect4"]


WIDER = [pytest.param(WIDTH_128, id="128"), pytest.param(WIDE, id="512")]


@pytest.mark.parametrize("width", WIDER)
@pytest.mark.parametrize("name", BOTH)
def test_the_builds_agree_on_every_move_of_boards_both_play(name: str, width: Width) -> None:
    board = Board.of(get_variant(name))
    narrow, wide = Game(board), Game(board, width)
    assert (narrow.width, wide.width, wide.big) == (NARROW, width, 1000)
    rng = random.Random(7)
    for plies in (board.cells // 2, 2 * board.cells // 3, 3 * board.cells // 4):
        mine, theirs = random_play(board, plies, rng)
        cells, scores, spent = score_all(narrow, TranspositionTable(18), mine, theirs)
        wide_cells, wide_scores, wide_spent = score_all(wide, TranspositionTable(18), mine, theirs)
        assert wide_cells == cells
        assert wide_scores == [wide_score(score) for score in scores]
        assert wide_spent.nodes == spent.nodes
        assert threats(wide, mine, theirs) == threats(narrow, mine, theirs)


@pytest.mark.parametrize("width", WIDER)
def test_the_builds_agree_on_proofs_within_a_node_cap(width: Width) -> None:
    board = Board.of(get_variant("6x6k4-misere"))
    narrow, wide = Game(board), Game(board, width)
    rng = random.Random(3)
    for _ in range(3):
        mine, theirs = random_play(board, 12, rng)
        cap = Limits(0.0, 20_000)
        o = prove(narrow, TranspositionTable(16), mine, theirs, GOAL_SCORE, cap, -BIG, BIG)
        w = prove(wide, TranspositionTable(16), mine, theirs, GOAL_SCORE, cap, -WIDE.big, WIDE.big)
        assert (w.lower, w.upper) == (wide_score(o.lower), wide_score(o.upper))
        assert (w.nodes, w.best_move, w.stopped) == (o.nodes, o.best_move, o.stopped)


@pytest.mark.parametrize("width", WIDER)
@pytest.mark.parametrize("name", ["6x6k5", "7x7k5"])
def test_the_builds_agree_on_the_provers_answers_and_zones(name: str, width: Width) -> None:
    board = Board.of(get_variant(name))
    narrow, wide = Game(board), Game(board, width)
    rng, compared = random.Random(5), 0
    for plies in (4, 8, 8, 12):
        mine, theirs = random_play(board, plies, rng)
        cap = Limits(0.0, 3_000)
        for attacker, defender, to_move in ((mine, theirs, True), (theirs, mine, False)):
            o = ask(narrow, ProofTable(16), attacker, defender, to_move, cap)
            w = ask(wide, ProofTable(16), attacker, defender, to_move, cap)
            if o.outcome and w.outcome:  # within the cap, each settles what it settles
                assert (w.outcome, w.zone, w.prover) == (o.outcome, o.zone, o.prover)
                compared += 1
    assert compared >= 4  # measured: 8 of 8 on both boards


def end_scores(grid: Grid, mine: int, theirs: int) -> dict[int, int]:
    """Each move's score for the side that plays it, on the wide build's scale, by a plain minimax."""
    lines, full = grid.lines, (1 << grid.cells) - 1

    @cache
    def value(mine: int, theirs: int) -> int:
        return max(moves(mine, theirs).values())

    def moves(mine: int, theirs: int) -> dict[int, int]:
        occupied, marks = mine | theirs, (mine | theirs).bit_count() + 1
        scores = {}
        for cell in (c for c in range(grid.cells) if not occupied >> c & 1):
            placed = mine | 1 << cell
            if any(placed & line == line for line in lines):
                scores[cell] = -(WIDE.big - marks) if grid.misere else WIDE.big - marks
            elif placed | theirs == full:
                scores[cell] = 0
            else:
                scores[cell] = -value(theirs, placed)
        return scores

    return moves(mine, theirs)


def near_the_end(grid: Grid, empty: int, rng: random.Random) -> tuple[int, int]:
    """(mine, theirs) with `empty` cells left and no line completed: marks placed in turn on random cells,
    each on one that completes no line of its player's."""
    through = [[line for line in grid.lines if line >> cell & 1] for cell in range(grid.cells)]
    while True:
        mine = theirs = 0
        left = rng.sample(range(grid.cells), grid.cells)
        while grid.cells - (mine | theirs).bit_count() > empty:
            fits = [c for c in left if not any(line & ~mine == 1 << c for line in through[c])]
            if not fits:
                break
            left.remove(fits[0])
            mine, theirs = theirs, mine | 1 << fits[0]
        else:
            return mine, theirs


@pytest.mark.parametrize(
    ("grid", "empty", "width"),
    [
        (Grid(10, 10, 5), 7, WIDTH_128),
        (Grid(10, 10, 5), 7, WIDE),
        (Grid(9, 9, 4), 7, WIDTH_128),
        (Grid(9, 9, 4, misere=True), 6, WIDTH_128),
        (Grid(20, 20, 5), 6, WIDE),
    ],
)
def test_the_wider_builds_agree_with_a_minimax_near_the_end_past_64_cells(
    grid: Grid, empty: int, width: Width
) -> None:
    game = Game(grid, width)
    assert width_for(grid.cells) is (WIDTH_128 if grid.cells <= 128 else WIDE)
    rng = random.Random(grid.cells + empty)
    table = TranspositionTable(16)
    for _ in range(3):
        mine, theirs = near_the_end(grid, empty, rng)
        cells, scores, _ = score_all(game, table, mine, theirs)
        assert dict(zip(cells, scores, strict=True)) == end_scores(grid, mine, theirs)


@pytest.mark.parametrize("width", WIDER)
def test_the_empty_3x3_is_a_draw_on_the_wider_builds(width: Width) -> None:
    game = Game(Board.of(get_variant("3x3k3")), width)
    cells, scores, _ = score_all(game, TranspositionTable(16), 0, 0)
    assert len(cells) == 9 and max(scores) == 0


@pytest.mark.parametrize("grid", [Grid(9, 9, 3), Grid(11, 11, 3), Grid(20, 20, 3)])
def test_three_in_a_row_past_64_cells_is_won_with_the_first_players_third_mark(grid: Grid) -> None:
    game = Game(grid)
    outcome = prove(game, TranspositionTable(18), 0, 0, GOAL_SCORE, Limits(0.0, 2_000_000), -1000, 1000)
    assert (outcome.lower, outcome.upper, outcome.stopped) == (WIDE.big - 5, WIDE.big - 5, False)


def test_a_search_hundreds_of_plies_deep_has_the_stack_it_needs() -> None:
    """The widest build's alpha-beta keeps about 35 KB of stack a ply: its searches run on a thread with
    256 MB of stack (core/entry.c). On the caller's 8 MB this proof crashed the process."""
    game = Game(Grid(20, 20, 5))
    limits = Limits(0.0, 300_000)
    outcome = prove(game, TranspositionTable(16), 0, 0, GOAL_SCORE, limits, -game.big, game.big)
    assert outcome.stopped and outcome.depth > 300  # measured 348


def test_a_board_past_the_widest_build_is_refused() -> None:
    with pytest.raises(ValueError, match="at most 512"):
        Game(Grid(23, 23, 5))
