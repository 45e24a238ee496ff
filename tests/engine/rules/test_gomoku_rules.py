"""Gomoku's three rules on constructed boards: freestyle (five or more wins), standard (exactly five) and
renju (black, the first player, wins with exactly five and may not play a forbidden point; white wins
with five or more); their names; and that no renju answer claims what a source blind to forbidden
points found."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from service.engine import IllegalMoveError, Position, Status, UnknownVariantError, Value, get_variant
from service.engine.analyst import Analyst, SearcherPool
from service.engine.answer import Source
from service.engine.rules.variants import NAME_FORM, aliases
from service.engine.search import Budget
from service.engine.search.board import Board
from service.engine.search.proof_number import unsound_because
from service.engine.search.proven import ProvenCache
from service.engine.search.renju_answers import freestyle, renju_moves

SIZE = 15
EMPTY_ROW = "." * SIZE


def drawn(row: str, other: str, to_move: str, variant: str, *, at: int = 7) -> Position:
    """A 15x15 position with `row` on row `at` and `other` on the row below (the rest empty)."""
    rows = [EMPTY_ROW] * SIZE
    rows[at], rows[at + 1] = row.ljust(SIZE, "."), other.ljust(SIZE, ".")
    return Position.parse("/".join(rows), to_move, get_variant(variant))


def test_the_names_players_use_name_the_long_ones() -> None:
    assert get_variant("gomoku") == get_variant("15x15k5")
    assert get_variant("gomoku-standard") == get_variant("15x15k5-exact")
    renju = get_variant("renju")
    assert renju == get_variant("15x15k5-renju") and renju.renju and renju.name == "15x15k5-renju"
    assert aliases(renju) == ["renju"] and "forbidden" not in renju.rules and "double-three" in renju.rules
    assert get_variant("19x19k5-renju").cells == 361 and not get_variant("9x9k5-renju").has_table
    assert "renju" in NAME_FORM["options"]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("15x15k4-renju", "needs k=5"),
        ("15x15k5-exact-renju", "-renju takes no"),
        ("15x15k5-misere-renju", "-renju takes no"),
        ("9x9k5-torus-renju", "-renju takes no"),
        ("5x5x5k5-renju", "box"),
        ("15x15k5-renju-exact", "name a variant"),
    ],
)
def test_renju_takes_five_on_a_flat_board_and_no_other_option(name: str, why: str) -> None:
    with pytest.raises(UnknownVariantError, match=why):
        get_variant(name)


def test_an_overline_wins_in_freestyle_only() -> None:
    """Six X in a row: X won under freestyle; under the standard rule no line, and the game goes on."""
    six, beside = "XXXXXX", "O.O.O.O.O"
    freestyle_board = drawn(six, beside, "O", "gomoku")
    assert freestyle_board.status is Status.X_WON and freestyle_board.completed_lines
    standard = drawn(six, beside, "O", "gomoku-standard")
    assert standard.status is Status.IN_PROGRESS and not standard.completed_lines
    five = drawn("XXXXX", "O.O.O.O", "O", "gomoku-standard")
    assert five.status is Status.X_WON


def test_under_renju_white_wins_with_an_overline_and_black_may_not_make_one() -> None:
    white = drawn("OOO.OO", "X.X.X.X.X.X", "O", "renju")
    assert white.play(7 * SIZE + 3).status is Status.O_WON
    black = drawn("XXX.XX", "O.O.O.O.O", "X", "renju")
    assert 7 * SIZE + 3 in black.forbidden and 7 * SIZE + 3 not in black.legal_moves()
    with pytest.raises(IllegalMoveError, match="overline") as refused:
        black.play(7 * SIZE + 3)
    assert refused.value.code == "forbidden"
    assert drawn("XXXX", "O.O.O.O", "X", "renju").play(7 * SIZE + 4).status is Status.X_WON  # exactly five
    assert freestyle(black).play(7 * SIZE + 3).status is Status.X_WON  # where the search would look


def test_white_plays_anywhere_even_on_black_s_forbidden_points() -> None:
    white = drawn("XXX.XX", "O.O.O.O", "O", "renju", at=3)
    point = 3 * SIZE + 3
    assert point in white.forbidden and point in white.legal_moves()
    assert white.play(point).status is Status.IN_PROGRESS and white.play(0).forbidden == {point}


def test_a_five_with_a_double_four_wins_for_black() -> None:
    rows = [EMPTY_ROW] * SIZE
    rows[2], rows[3], rows[4], rows[5] = (
        ".......X..X....",
        ".......X.X.....",
        ".......XX......",
        "...XXXX........",
    )
    rows[13], rows[12] = "O.O.O.O.O.O.O.O", "O.O............"  # ten white stones: black is to move
    position = Position.parse("/".join(rows), "X", get_variant("renju"))
    move = 5 * SIZE + 7
    assert move in position.legal_moves() and move not in position.forbidden
    assert position.play(move).status is Status.X_WON


def test_the_search_never_sees_a_renju_board() -> None:
    """The compiled core knows nothing of forbidden points: a renju board given to it is refused, and
    `sanmoku prove` says why (the analyst gives it the same stones under freestyle rules)."""
    with pytest.raises(ValueError, match="forbidden points"):
        Board.of(get_variant("renju"))
    assert "forbidden points" in (unsound_because(get_variant("renju")) or "")


def test_a_renju_answer_proves_only_what_the_rules_prove() -> None:
    """Black's four X X X . X X can be completed only by an overline: freestyle, a win in 1; under
    renju that cell is forbidden, not a move, and no move is proven won."""
    position = drawn("XXX.XX", "O.O.O.O.O", "X", "renju")
    moves = renju_moves(position)
    assert 7 * SIZE + 3 not in {m.cell for m in moves} and not any(m.lower == 1 for m in moves)
    assert all(m.lower == -1 and m.upper == 1 and m.remoteness is None for m in moves)


def test_an_open_four_of_white_makes_every_black_move_lose_in_two() -> None:
    position = drawn("....OOOO", "X..X..X.X", "X", "renju")
    moves = renju_moves(position)
    assert moves and all((m.lower, m.upper, m.remoteness) == (-1, -1, 2) for m in moves)


def test_black_s_five_and_a_blocked_four_are_proven() -> None:
    """Black to move with X X X X . : the five wins in 1; white then holds four with one end open, so
    every black move that does not block it loses in 2."""
    position = drawn("XXXX", "OOOO", "X", "renju")
    moves = {m.cell: m for m in renju_moves(position)}
    five, block = 7 * SIZE + 4, 8 * SIZE + 4
    assert (moves[five].lower, moves[five].remoteness) == (1, 1)
    assert (moves[block].lower, moves[block].upper) == (-1, 1)  # not proven either way
    assert all(m.lower == m.upper == -1 for cell, m in moves.items() if cell not in (five, block))


def test_the_analyst_answers_renju_without_the_search_s_proofs(tmp_path: Path) -> None:
    """Replays the failure guarded: the same stones under freestyle are a win in 1 for black (the gap
    of X X X . X X), which the search proves at once; the renju answer holds no such proof, is not
    exact, lists no forbidden point, and leaves nothing in the store of proofs."""
    position = drawn("XXX.XX", "O.O.O.O.O", "X", "renju")
    store = ProvenCache(tmp_path)
    analyst = Analyst(lambda v: None, store, SearcherPool(1, table_bits=16))
    searched = analyst.analyze(freestyle(position), Budget(0.3))
    assert searched.move(7 * SIZE + 3).value == Value(1, 1)
    answer = analyst.analyze(position, Budget(0.3))
    assert not answer.exact and answer.result is None and answer.source is Source.SEARCH
    assert {m.cell for m in answer.moves} == set(position.legal_moves())
    assert 7 * SIZE + 3 not in {m.cell for m in answer.moves}
    assert all(m.lower == -1 for m in answer.moves)  # no win: the freestyle one is forbidden
    # The losses proven are white's: with O . O . O . O . O, its move in a gap makes two fours (cols 2
    # to 6 and 0 to 4 after col 3), a loss in 4 for black wherever it plays off that row's reach.
    lost = [m for m in answer.moves if m.upper == -1]
    assert lost and all(m.within == 4 and m.remoteness is None for m in lost)
    assert 8 * SIZE + 3 not in {m.cell for m in lost}  # the gap white's double four needs: not claimed
    assert store.get(position) is None
    lost = drawn("....OOOO", "X..X..X.X", "X", "renju")  # white's open four: every move loses in 2
    assert analyst.analyze(lost, Budget(0.3)).value == Value(-1, 2)


@pytest.mark.parametrize("seed", range(2))
def test_every_renju_proof_holds_when_played_out(seed: int) -> None:
    """Random renju games played near the centre: a move a renju answer calls won makes five at once, and
    one it calls lost lets the opponent make five at once, both replayed with the rules' own positions
    (forbidden points included); every other move is left unknown. Three proven moves per position are
    replayed (all of them made the test take minutes): over both seeds, 43 wins and 270 losses."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(4):
        position = Position.empty(get_variant("renju"))
        while not position.is_over and position.marks < 50:
            moves = renju_moves(position)
            proven = [m for m in moves if m.lower == m.upper]
            for move in rng.sample(proven, min(3, len(proven))):
                after = position.play(move.cell)
                if move.lower == 1:
                    assert move.remoteness == 1 and after.line_holder is position.to_move
                else:
                    assert (move.lower, move.remoteness) == (-1, 2)
                    assert any(
                        after.play(reply).line_holder is after.to_move for reply in after.legal_moves()
                    )
                checked += 1
            assert all((m.lower, m.upper, m.remoteness) == (-1, 1, None) for m in moves if m not in proven)
            near = [m.cell for m in moves if abs(m.cell // SIZE - 7) <= 3 and abs(m.cell % SIZE - 7) <= 3]
            position = position.play(rng.choice(near or [m.cell for m in moves]))
    assert checked > 0


def test_black_with_only_forbidden_points_left_draws() -> None:
    """The one empty cell would give black six in a row: black has no move, and the game is a draw
    (freestyle: black plays it and wins)."""
    board = "XXX.XXO/OOOXOXO/OOOOXXX/XOXXOOX/OXOOXOX"
    stuck = Position.parse(board, "X", get_variant("5x7k5-renju"))
    assert stuck.forbidden == {3} and stuck.legal_moves() == [] and stuck.status is Status.DRAW
    assert renju_moves(stuck) == []
    assert Position.parse(board, "X", get_variant("5x7k5")).play(3).status is Status.X_WON
