"""Wins by threes under renju from the core's trees (search/renju_certificate.py, renju_answers.renju_win):
the rules' check of a certificate against the tests' own replay of it (test_win_tree.replays, with the
tests' own reading of renju's fives and forbidden points, asked of every reply of the defender), on
random 9x9 positions and on the public puzzles; and a win white has only because black's block is a
forbidden point."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace

from service.engine import Analyst, Budget, Position, SearcherPool, get_variant
from service.engine.rules.renju import Stones
from service.engine.search import Board
from service.engine.search.fours import Rule
from service.engine.search.native import Game, monotonic
from service.engine.search.renju_answers import renju_win
from service.engine.search.renju_certificate import holds
from service.engine.search.threes import threes_win
from service.engine.search.win_tree import FOUR, WinTree, win_tree
from tests.engine.rules.renju_reference import reference_shape
from tests.engine.search.continuous_fours import Rules
from tests.engine.search.gomoku_puzzles import threat_puzzles
from tests.engine.search.test_threes import random_position
from tests.engine.search.test_win_tree import Sides, replays

SIZE = 9


def renju_sides(position: Position, size: int) -> Sides:
    """The tests' rules for the side to move (the attacker) and the other, under renju."""

    def allowed(black: int, white: int, cell: int) -> bool:
        return reference_shape(size, size, black, white, cell) is None

    black, white = Rules(size=size, exact=True), Rules(size=size, exact=False)
    if position.to_move is position.first:
        return Sides(black, white, allowed)
    return Sides(white, black, defender_allowed=allowed)


def replayed(position: Position, tree: WinTree, size: int) -> bool:
    mover = position.to_move
    try:
        replays(renju_sides(position, size), tree, position.mask(mover), position.mask(mover.other))
    except AssertionError:
        return False
    return True


def core_tree(position: Position) -> WinTree | None:
    """The certificate the core's trees give where renju is not known: black's lines exactly five,
    white's five or more, no forbidden point."""
    variant, mover = position.variant, position.to_move
    black = mover is position.first
    game = Game.of(Board.of(replace(variant, renju=False, exact=black)))
    rule = Rule(variant.rows, variant.cols, variant.k, exact=black, renju=False)
    return win_tree(game, rule, position.mask(mover), position.mask(mover.other), black, 3, 0.0)


def random_trees(
    seed: str, positions: int, find: Callable[[Position], WinTree | None]
) -> Iterator[tuple[Position, WinTree]]:
    """The trees `find` gives on random 9x9 renju positions of 20 to 32 marks."""
    rng = random.Random(seed)
    for _ in range(positions):
        position = random_position("9x9k5-renju", rng, rng.randrange(20, 33))
        tree = None if position is None else find(position)
        if position is not None and tree is not None:
            yield position, tree


def checked(position: Position, tree: WinTree) -> bool:
    mover = position.to_move
    mine, theirs = position.mask(mover), position.mask(mover.other)
    return holds(Rule.of(position), mine, theirs, mover is position.first, tree, 0.0)


# Measured (150 positions): 75 trees confirmed and replayed, 12 refuted that fail the replay too; of 300,
# 158 and 20.
def test_the_check_agrees_with_the_replay_on_the_core_s_trees() -> None:
    confirmed = refuted = 0
    for position, tree in random_trees("renju certificates", 150, core_tree):
        if checked(position, tree):
            assert replayed(position, tree, SIZE), f"{position.cells}: a tree confirmed fails its replay"
            confirmed += 1
        elif not replayed(position, tree, SIZE):
            refuted += 1
    print(f"confirmed {confirmed}, refuted (the replay fails too) {refuted}")
    assert confirmed >= 30 and refuted >= 4  # the check both confirms and refutes


# Measured (80 positions): 42 certificates within 0.3 s each, 26 of them black's, every one replayed.
def test_every_renju_win_replays() -> None:
    found = black = 0
    for position, tree in random_trees("renju wins", 80, lambda p: renju_win(p, monotonic() + 0.3)):
        assert replayed(position, tree, SIZE), f"{position.cells}: the certificate fails its replay"
        found += 1
        black += position.to_move is position.first
    print(f"{found} certificates, {black} with black attacking")
    assert found >= 15 and black >= 5


def test_puzzles_whose_freestyle_tree_fails_under_renju() -> None:
    """Public renju puzzles where the core's tree, renju unknown, needs a forbidden point of black's: the
    check refutes it, as the replay does, and the renju win found instead replays."""
    names = {"entry-5", "entry-6", "elementary-21"}
    for puzzle in threat_puzzles():
        if puzzle.name.split("#")[1] not in names:
            continue
        position = puzzle.position("15x15k5-renju")
        mover = position.to_move
        att, dfn = position.mask(mover), position.mask(mover.other)
        variant = replace(position.variant, renju=False)
        rule = Rule(15, 15, 5, exact=False, renju=False)
        tree = win_tree(Game.of(Board.of(variant)), rule, att, dfn, True, 4, 0.0)
        assert tree is not None and not replayed(position, tree, 15), puzzle.name
        assert not checked(position, tree)
        found = renju_win(position, monotonic() + 10.0)
        assert found is not None and replayed(position, found, 15), puzzle.name


# White to move: its four at i1 leaves black one block, e5, where black's two threes cross (d6 beyond e5
# is black's: white's own stone at e5 makes a four that black blocks at i1).
FORBIDDEN_BLOCK = {
    "black": ((4, 2), (4, 3), (2, 4), (3, 4), (3, 3)),
    "white": ((5, 5), (6, 6), (7, 7), (8, 1)),
}


def forbidden_block(name: str) -> Position:
    variant = get_variant(name)
    black = sum(1 << row * SIZE + col for row, col in FORBIDDEN_BLOCK["black"])
    white = sum(1 << row * SIZE + col for row, col in FORBIDDEN_BLOCK["white"])
    position = Position.empty(variant)
    return Position(variant, black, white, position.to_move.other)


def test_white_wins_where_black_may_not_block() -> None:
    position = forbidden_block("9x9k5-renju")
    four, block = 8 * SIZE + 8, 4 * SIZE + 4
    assert block in position.forbidden
    tree = threes_win(position, 0.0)
    assert tree is not None and tree.move == four and tree.threat == FOUR and not tree.replies
    assert checked(position, tree) and replayed(position, tree, SIZE)
    # The analyst proves it; under freestyle black blocks there, and the four alone wins nothing.
    analyst = Analyst(lambda variant: None, None, SearcherPool(1))
    moves = {move.cell: move for move in analyst.analyze(position, Budget(seconds=2.0)).moves}
    assert moves[four].result is not None and moves[four].lower == 1
    free = threes_win(forbidden_block("9x9k5"), 0.0)
    assert free is None or free.move != four or bool(free.replies)


def test_far_cells() -> None:
    """A far cell has at most one black stone within reach (five cells) along each line."""
    assert Stones(SIZE, SIZE, 0, 0).far_cells(SIZE * SIZE)
    assert Stones(SIZE, SIZE, 1 << 4 * SIZE + 4, 0).far_cells(SIZE * SIZE - 1)
    # Black on c5 and g5: b5, d5, e5, f5 and h5 have both within reach along the row.
    two = 1 << 4 * SIZE + 2 | 1 << 4 * SIZE + 6
    assert Stones(SIZE, SIZE, two, 0).far_cells(SIZE * SIZE - 7)
    assert not Stones(SIZE, SIZE, two, 0).far_cells(SIZE * SIZE - 6)
