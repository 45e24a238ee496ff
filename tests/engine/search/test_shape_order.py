"""The guesses among unproven moves on five in a row, by threat shapes (search/shapes.py): each line's
shape against a count made here from the rules' own wins (play a stone, ask whether it made five), and
the order answers give: proven moves first and untouched, then the guesses by shape."""

from __future__ import annotations

from functools import cache

import pytest

from service.engine import Budget, Position, Status, get_variant
from service.engine.answer import Answer, Source
from service.engine.rules.known_move import Estimate, KnownMove
from service.engine.rules.position import Mark
from service.engine.search.renju_answers import PROVEN_GUESS
from service.engine.search.searcher import Searcher
from service.engine.search.shapes import Board, Shape, ranks_by_shape

SIDE = 15
ROW = 7  # the constructed lines lie on this row, the move on column 7
# The opponent's spare stones, as many as the mover's, far from row 7 and from each other's lines.
SPARE = [(0, 0), (0, 3), (0, 6), (0, 9), (0, 12), (14, 1), (14, 4), (14, 7), (14, 10), (14, 13)]


def cell(row: int, col: int) -> int:
    return row * SIDE + col


def position_of(line: str, variant: str, extra: dict[tuple[int, int], Mark] | None = None) -> Position:
    """`line` on row 7 from column 2 ('X' the mover's, 'O' the opponent's, '.' empty), X to move, the
    opponent's spare stones far away to keep the counts level."""
    x = o = 0
    for offset, mark in enumerate(line):
        if mark == "X":
            x |= 1 << cell(ROW, 2 + offset)
        elif mark == "O":
            o |= 1 << cell(ROW, 2 + offset)
    for (row, col), mark in (extra or {}).items():
        if mark is Mark.X:
            x |= 1 << cell(row, col)
        else:
            o |= 1 << cell(row, col)
    spare = iter(SPARE)
    while o.bit_count() < x.bit_count():
        o |= 1 << cell(*next(spare))
    return Position(get_variant(variant), x, o, Mark.X)


NEAR = range(3, 12)  # the columns within four of the move's: a five through it lies there


def wins(position: Position, move: int) -> bool:
    return position.play(move).status is Status.X_WON


def empty(position: Position, move: int) -> bool:
    return not (position.x | position.o) >> move & 1


def fives(position: Position) -> int:
    """How many empty cells of row 7 near the move make five for X, by the rules."""
    return sum(empty(position, cell(ROW, col)) and wins(position, cell(ROW, col)) for col in NEAR)


@cache
def counted(position: Position, move: int) -> Shape:
    """The shape X's stone on `move` makes along row 7, counted from the rules' wins: five, then how many
    cells make five after it (two or more: an open four), then whether a stone more makes an open four
    (a three: open when X's stones around the move are one run), a four (a closed three), or a three
    (a two)."""
    if wins(position, move):
        return Shape.FIVE
    after = Position(position.variant, position.x | 1 << move, position.o, Mark.X)
    completing = fives(after)
    if completing >= 2:
        return Shape.OPEN_FOUR
    if completing == 1:
        return Shape.FOUR
    best = Shape.NONE
    for col in NEAR:
        more = cell(ROW, col)
        if not empty(after, more):
            continue
        then = counted(after, more)
        if then is Shape.OPEN_FOUR:
            run = 1
            for step in (-1, 1):
                at = move + step
                while after.x >> at & 1:
                    run, at = run + 1, at + step
            return Shape.OPEN_THREE if run == 3 else Shape.BROKEN_THREE
        if then is Shape.FOUR:
            best = min(best, Shape.CLOSED_THREE)
        elif then in (Shape.OPEN_THREE, Shape.BROKEN_THREE):
            best = min(best, Shape.TWO)
    return best


@pytest.mark.parametrize(
    ("line", "variant", "expected"),
    [
        ("...XX.X...", "15x15k5", Shape.OPEN_FOUR),  # the move fills the gap: .XXXX.
        ("..XXX.....", "15x15k5-exact", Shape.OPEN_FOUR),  # .XXXX.
        ("...XX.....", "15x15k5", Shape.OPEN_THREE),  # .XXX.
        ("..X.X.....", "15x15k5", Shape.BROKEN_THREE),  # .X.XX.
        ("...X..X...", "15x15k5", Shape.BROKEN_THREE),  # .X.XX. the other way
        ("OXXX......", "15x15k5", Shape.FOUR),  # OXXX.X: the gap makes five
        ("..OXX.....", "15x15k5", Shape.CLOSED_THREE),  # OXXX..: a four, never an open one
        ("....X.....", "15x15k5", Shape.TWO),
        (".XXXX.....", "15x15k5", Shape.FIVE),
        (".XXXX.X...", "15x15k5", Shape.FIVE),  # six in a row: five or more
        (".XXXX.X...", "15x15k5-exact", Shape.NONE),  # six in a row is no five under exactly five
        ("XX.XX.....", "15x15k5", Shape.FOUR),  # XX.XXX: the gap makes six, a five here
        ("XX.XX.....", "15x15k5-exact", Shape.CLOSED_THREE),  # there six is none: only the right side
        ("X.XXX.....", "15x15k5-exact", Shape.FOUR),  # X.XXXX: the right end makes five, the gap six
        ("X.XXX.....", "15x15k5", Shape.OPEN_FOUR),  # both make five or more
    ],
)
def test_a_lines_shape_is_what_the_rules_count(line: str, variant: str, expected: Shape) -> None:
    position = position_of(line, variant)
    move = cell(ROW, 7)
    assert move in position.legal_moves()
    shapes = Board(position).shapes(move)
    assert shapes.attack[0] == counted(position, move) == expected, line
    assert set(shapes.attack[1:]) == {Shape.NONE}  # nothing on the move's column or diagonals


def test_the_opponents_shapes_are_what_a_move_blocks() -> None:
    # O's open three on row 7 (columns 4..6): O's stone on 7 would make an open four, so X's move there
    # blocks one; X's own shape there is nothing (O holds both sides).
    position = position_of("..OOO.....", "15x15k5", {(10, 10): Mark.X, (10, 12): Mark.X, (12, 11): Mark.X})
    shapes = Board(position).shapes(cell(ROW, 7))
    assert shapes.defence[0] is Shape.OPEN_FOUR and shapes.attack[0] is Shape.NONE


def unproven(position: Position) -> Answer:
    """An answer where nothing is proven: every move between a loss and a win."""
    return Answer.of_proofs(
        position, [KnownMove(c, -1, 1, None) for c in position.legal_moves()], Source.SEARCH
    )


@pytest.mark.parametrize("variant", ["15x15k5", "15x15k5-exact", "15x15k5-renju", "9x9k5", "19x19k5"])
def test_the_block_of_an_open_four_is_the_first_guess(variant: str) -> None:
    # O's open four on row 3 (columns 3..6), X's open three elsewhere: only a block of the four counts.
    rows = get_variant(variant).rows
    o = sum(1 << cell_of(3, col, rows) for col in range(3, 7)) | 1 << cell_of(rows - 1, 0, rows)
    x = sum(1 << cell_of(rows - 3, col, rows) for col in range(3, 6)) | 1 << cell_of(0, rows - 1, rows)
    x |= 1 << cell_of(rows - 1, rows - 1, rows)
    position = Position(get_variant(variant), x, o, Mark.X)
    answer = unproven(position)
    assert answer.best_move in {cell_of(3, 2, rows), cell_of(3, 7, rows)}
    assert not answer.best_move_proven


def test_the_block_of_a_four_goes_before_ones_own_open_three() -> None:
    position = position_of("OXXXX.....", "15x15k5", {(10, 5): Mark.O, (10, 6): Mark.O})
    position = Position(position.variant, position.o, position.x, Mark.X)  # swap: O's four to block
    assert unproven(position).best_move == cell(ROW, 7)


def cell_of(row: int, col: int, side: int) -> int:
    return row * side + col


def test_an_open_three_ranks_above_an_isolated_move() -> None:
    position = position_of("...XX.....", "15x15k5")  # X on columns 5 and 6
    ranked = [move.cell for move in unproven(position).moves]
    three, isolated = cell(ROW, 7), cell(3, 11)  # .XXX. on row 7; a cell far from every stone
    assert Board(position).shapes(three).attack[0] is Shape.OPEN_THREE
    assert ranked.index(three) < ranked.index(isolated)
    assert ranked[0] in {cell(ROW, 4), cell(ROW, 7)}  # either end makes the open three


def test_the_empty_board_guesses_the_centre() -> None:
    for variant in ("15x15k5", "9x9k5", "19x19k5"):
        side = get_variant(variant).rows
        assert unproven(Position.empty(get_variant(variant))).best_move == cell_of(side // 2, side // 2, side)


def test_guesses_never_pass_proven_moves_and_keep_their_bounds() -> None:
    # X's stone on column 7 would make an open three; it is given here as a proven loss, and another as
    # a proven draw: both stay where their proofs put them, and every bound is the one given.
    position = position_of("...XX.....", "15x15k5")
    three, far = cell(ROW, 7), cell(12, 12)
    given = [
        KnownMove(c, -1, -1, 6)
        if c == three
        else KnownMove(c, 0, 0, 40)
        if c == far
        else KnownMove(c, -1, 1, None)
        for c in position.legal_moves()
    ]
    answer = Answer.of_proofs(position, given, Source.SEARCH)
    assert sorted(answer.moves) == sorted(given)
    assert answer.moves[0].cell == far and answer.moves[-1].cell == three
    assert all(move.lower < move.upper for move in answer.moves[1:-1])
    assert answer.best_move == far and answer.best_move_proven is False  # at least a draw, not the value


def test_a_searchs_answer_keeps_every_bound_it_proved() -> None:
    # A short search of an early position proves little; its moves' bounds are the search's, only ranked.
    position = position_of("...XX.....", "15x15k5", {(8, 8): Mark.O, (6, 8): Mark.O})
    found = Searcher(position.variant).analyze(position, Budget(0.3), estimates=True)
    answer = Answer.of_proofs(position, found.moves, Source.SEARCH)
    assert sorted(answer.moves) == sorted(found.moves)
    first_guess = next(move for move in answer.moves if move.lower != move.upper)
    # X's three on row 7 (open at 4 or 7, broken at 8, which also splits O's stones on column 8)
    made = Board(position).shapes(first_guess.cell).attack
    assert {Shape.OPEN_THREE, Shape.BROKEN_THREE} & set(made), "a three of X's is the first guess"
    if not any(move.lower == move.upper for move in answer.moves):
        assert answer.best_move_proven is False


def test_renju_puts_a_guess_the_freestyle_search_proved_first() -> None:
    position = position_of("...XX.....", "15x15k5-renju")
    far = cell(12, 12)
    given = [
        KnownMove(c, -1, 1, None, Estimate(PROVEN_GUESS - 9, 9) if c == far else None)
        for c in position.legal_moves()
    ]
    answer = Answer.of_proofs(position, given, Source.SEARCH)
    assert answer.best_move == far and not answer.best_move_proven
    assert answer.moves[1].cell in {cell(ROW, 4), cell(ROW, 7)}  # then the shapes


@pytest.mark.parametrize(
    ("variant", "ranked"),
    [
        ("15x15k5", True),
        ("9x9k5", True),
        ("20x20k5", True),
        ("15x15k5-exact", True),
        ("15x15k5-renju", True),
        ("8x8k5", False),  # estimates rank there: the search reads deep enough
        ("15x15k4", False),
        ("15x15k5-misere", False),
        ("9x9k5-gravity", False),
        ("9x9k5-torus", False),
    ],
)
def test_which_boards_rank_guesses_by_shape(variant: str, ranked: bool) -> None:
    assert ranks_by_shape(get_variant(variant)) is ranked
