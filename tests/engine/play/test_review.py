"""Game review: each ply against the brute-force reference, the verdicts, and the errors by ply."""

from __future__ import annotations

from dataclasses import astuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import (
    MISERE,
    NORMAL,
    VARIANTS,
    EngineError,
    IllegalMoveError,
    IllegalSequenceError,
    InvalidPositionError,
    Position,
    Status,
    Value,
    Verdict,
    main_line,
    moves_from_boards,
    review_boards,
    review_game,
)
from service.engine.play.review import judge
from service.engine.rules.values import Known
from tests.engine.tables.boards import TABLES
from tests.reference import minimax, move_values, opponent

SOLVERS = TABLES
X_WINS_AT_PLY_7 = ["X........", "XO.......", "XOX......", "XOXO.....", "XOXOX....", "XOXOXO...", "XOXOXOX.."]


@st.composite
def games(draw: st.DrawFn) -> tuple[str, str, list[int]]:
    """A random legal game, maybe unfinished: variant, first player and the cells played."""
    variant = draw(st.sampled_from(["normal", "misere"]))
    first = draw(st.sampled_from("XO"))
    position, cells = Position.empty(VARIANTS[variant], first), []
    for _ in range(draw(st.integers(0, 9))):
        if position.is_over:
            break
        cells.append(draw(st.sampled_from(position.legal_moves())))
        position = position.play(cells[-1])
    return variant, first, cells


def boards_of(variant: str, first: str, cells: list[int]) -> list[str]:
    position, boards = Position.empty(VARIANTS[variant], first), []
    for cell in cells:
        position = position.play(cell)
        boards.append(position.cells)
    return boards


@pytest.mark.parametrize(
    ("before", "played", "verdict"),
    [
        ((1, 3), (1, 3), Verdict.BEST),
        ((1, 3), (1, 5), Verdict.SLOWER),
        ((-1, 2), (-1, 1), Verdict.SLOWER),
        ((0, 5), (0, 5), Verdict.BEST),
        ((1, 3), (0, 6), Verdict.MISTAKE),
        ((0, 9), (-1, 8), Verdict.MISTAKE),
        ((1, 3), (-1, 2), Verdict.BLUNDER),
    ],
)
def test_verdicts(before: tuple[int, int], played: tuple[int, int], verdict: Verdict) -> None:
    assert judge(Known.exactly(Value(*before)), Known.exactly(Value(*played))) is verdict


@pytest.mark.parametrize(
    ("before", "played", "verdict"),
    [
        (Known(1, 1, None), Known(1, 1, 5), Verdict.UNKNOWN),  # the same result: best or slower?
        (Known(0, 1), Known(-1, -1, 4), Verdict.MISTAKE),  # at least a draw given away for a loss
        (Known(1, 1, 3), Known(-1, -1, 2), Verdict.BLUNDER),
        (Known(1, 1, 3), Known(-1, 0), Verdict.MISTAKE),  # at least a mistake; maybe a blunder
        (Known(0, 0, 8), Known(-1, 1), Verdict.UNKNOWN),
        (Known(-1, 1), Known(0, 0, 7), Verdict.UNKNOWN),
    ],
)
def test_verdicts_from_what_a_search_proved(before: Known, played: Known, verdict: Verdict) -> None:
    assert judge(before, played) is verdict


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(games())
def test_every_ply_agrees_with_the_reference(game: tuple[str, str, list[int]]) -> None:
    variant, first, cells = game
    misere = variant == "misere"
    review = review_game(SOLVERS[variant], cells, first)
    board, mover = "." * 9, first
    for ply, (entry, cell) in enumerate(zip(review.plies, cells, strict=True), 1):
        before, played = minimax(board, mover, misere), move_values(board, mover, misere)[cell]
        assert (entry.ply, entry.player, entry.cell) == (ply, mover, cell)
        assert (entry.before, entry.played) == (Known.exactly(Value(*before)), Known.exactly(Value(*played)))
        best = tuple(sorted(c for c, v in move_values(board, mover, misere).items() if v == before))
        assert entry.best_moves == best
        drop = before[0] - played[0]
        expected = {2: "blunder", 1: "mistake"}.get(drop, "best" if played == before else "slower")
        assert entry.verdict.value == expected
        board, mover = board[:cell] + mover + board[cell + 1 :], opponent(mover)
    assert len(review.plies) == len(cells)
    assert review.final.cells == board and review.final.to_move == mover
    assert review.status is review.final.status
    for side in "XO":
        summary = review.summary(side)
        assert summary.player == side
        assert summary.moves == sum(p.player == side for p in review.plies)
        for verdict in Verdict:
            assert getattr(summary, verdict.value) == sum(
                p.player == side and p.verdict is verdict for p in review.plies
            )


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(games())
def test_boards_give_back_the_moves(game: tuple[str, str, list[int]]) -> None:
    variant, first, cells = game
    boards = boards_of(variant, first, cells)
    assert moves_from_boards(boards, first, VARIANTS[variant]) == cells
    assert review_boards(SOLVERS[variant], boards, first) == review_game(SOLVERS[variant], cells, first)


def test_a_game_with_every_verdict() -> None:
    # O answers the corner with an edge (only the centre holds the draw); lost, O then ignores X's
    # threat on 2 (X could win at once); X ignores that win and O's threat on 5; O wins.
    review = review_game(SOLVERS["normal"], [0, 3, 1, 4, 6, 5])
    assert [p.verdict.value for p in review.plies] == ["best", "mistake", "best", "slower", "blunder", "best"]
    blunder = review.plies[4]
    assert (blunder.player, blunder.best_moves, blunder.before.value, blunder.played.value) == (
        "X",
        (2,),
        Value(1, 1),
        Value(-1, 2),
    )
    assert review.status is Status.O_WON
    assert astuple(review.summary("X")) == ("X", 2, 0, 0, 1, 0)
    assert astuple(review.summary("O")) == ("O", 1, 1, 1, 0, 0)


@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_the_main_line_is_all_best_moves(variant: str) -> None:
    solver = SOLVERS[variant]
    line = main_line(solver, Position.empty(VARIANTS[variant]))
    review = review_game(solver, line.cells)
    assert {p.verdict for p in review.plies} == {Verdict.BEST}
    assert review.final == line.final and review.variant == variant and review.first == "X"


def test_an_empty_game_is_reviewed_as_the_start() -> None:
    review = review_game(SOLVERS["misere"], [], "o")
    assert review.plies == () and review.first == "O"
    assert review.final == Position.empty(MISERE, "O") and review.status is Status.IN_PROGRESS


@pytest.mark.parametrize(
    ("moves", "code", "ply"),
    [
        ([0, 0], "cell_taken", 2),
        ([4, 1, 4], "cell_taken", 3),
        ([0, 9], "cell_out_of_range", 2),
        ([-1], "cell_out_of_range", 1),
        ([0, 3, 1, 4, 2, 5], "game_over", 6),
    ],
)
def test_illegal_moves_name_their_ply(moves: list[int], code: str, ply: int) -> None:
    with pytest.raises(IllegalSequenceError) as caught:
        review_game(SOLVERS["normal"], moves)
    error = caught.value
    assert isinstance(error, IllegalMoveError) and isinstance(error, EngineError)
    assert (error.code, error.ply, error.field) == (code, ply, "moves")
    assert error.message.startswith(f"ply {ply}: ")


@pytest.mark.parametrize(
    ("boards", "first", "code", "ply"),
    [
        (["XO......."], "X", "bad_step", 1),
        (["O........"], "X", "bad_step", 1),
        (["X........", "X........"], "X", "bad_step", 2),
        (["X........", ".O......."], "X", "bad_step", 2),
        (["X........", "XO.......", "XOX......", "XO.......X"], "X", "wrong_length", 4),
        (["X........", "XZ......."], "X", "bad_character", 2),
        (["X........", "XX......."], "X", "bad_step", 2),
        (["XXX.OO..."], "X", "bad_step", 1),
        (["xxx.oo..."], "O", "bad_step", 1),
        (["X", "XO"], "X", "wrong_length", 1),
        ([*X_WINS_AT_PLY_7, "XOXOXOXO."], "X", "game_over", 8),
    ],
)  # fmt: skip
def test_bad_board_sequences_name_their_ply(boards: list[str], first: str, code: str, ply: int) -> None:
    with pytest.raises(IllegalSequenceError) as caught:
        review_boards(SOLVERS["normal"], boards, first)
    assert (caught.value.code, caught.value.ply, caught.value.field) == (code, ply, "boards")
    assert caught.value.message.startswith(f"ply {ply}: ")


def test_a_bad_step_says_what_changed() -> None:
    with pytest.raises(IllegalSequenceError, match=r"ply 2: the board must add one O .*cells 0, 1"):
        moves_from_boards(["X........", ".O......."], "X", NORMAL)
    with pytest.raises(IllegalSequenceError, match="it is the same board"):
        moves_from_boards(["....X....", "....X...."], "X", NORMAL)


def test_boards_accept_the_input_spellings_and_o_first() -> None:
    assert moves_from_boards(["----o----", "x---o----", "x---o---O"], "O", NORMAL) == [4, 0, 8]


def test_the_first_player_must_be_x_or_o() -> None:
    with pytest.raises(InvalidPositionError) as caught:
        review_game(SOLVERS["normal"], [0], "Z")
    assert (caught.value.code, caught.value.field) == ("bad_side_to_move", "first")
