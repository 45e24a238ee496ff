"""Eight, the articles' first game tree: its rules, its table against a brute-force solver written here
(over the sequence of picks, not the engine's total and last pick), and its answers through /analyze."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from service.engine import (
    EIGHT,
    EightPosition,
    InvalidPositionError,
    Mark,
    Status,
    Value,
    game_of,
    get_game,
    read_position,
)
from tests.http.contract import analyze, check_response


def picks_allowed(picks: tuple[int, ...]) -> list[int]:
    if sum(picks) >= 8:
        return []
    return [n for n in (1, 2, 3) if not picks or n != picks[-1]]


def brute_force(picks: tuple[int, ...]) -> tuple[int, int]:
    """(score, plies to the end) for the side to pick after `picks`: +1 it wins, -1 it loses; the winner
    hurries, the loser delays."""
    total = sum(picks)
    if total == 8:
        return -1, 0  # the side that picked last reached 8
    if total > 8:
        return 1, 0  # the side that picked last passed 8
    outcomes = []
    for n in picks_allowed(picks):
        score, plies = brute_force((*picks, n))
        outcomes.append((-score, plies + 1))
    wins = [plies for score, plies in outcomes if score > 0]
    return (1, min(wins)) if wins else (-1, max(plies for _, plies in outcomes))


def games(picks: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every sequence of picks legal play reaches, the empty one included."""
    return [picks] + [g for n in picks_allowed(picks) for g in games((*picks, n))]


def test_the_first_players_value_from_every_opening_pick() -> None:
    whole = game_of(EightPosition.start()).whole_table
    assert whole is not None
    table = whole()
    for pick in (1, 2, 3):
        score, plies = brute_force((pick,))  # for the second player, to pick next
        after = read_position("eight", f"{pick}:{pick}", "O")
        assert table.value(after).after_move() == Value(-score, plies + 1), pick
    start = table.lookup(EightPosition.start())
    assert {m.cell: m.value for m in start.moves} == {
        p: Value(-brute_force((p,))[0], brute_force((p,))[1] + 1) for p in (1, 2, 3)
    }
    assert start.value == Value(*brute_force(()))


def test_every_position_against_the_brute_force() -> None:
    whole = game_of(EightPosition.start()).whole_table
    assert whole is not None
    table = whole()
    played = games()
    for picks in played:
        position = EightPosition.start()
        for n in picks:
            position = position.play(n)
        assert table.value(position) == Value(*brute_force(picks)), picks
    reached = {(sum(p), p[-1] if p else 0) for p in played}
    assert reached == EIGHT.reachable


def test_the_tree_is_at_most_six_levels_high() -> None:
    """The article: "the tree's height is at most 6 levels" (picks can never alternate 1, 2 past 8)."""
    assert max(len(p) for p in games()) == 6


def test_the_end_of_the_game() -> None:
    exactly = read_position("eight", "8:3", "O")  # X picked 3 to reach 8
    assert exactly.is_over and exactly.status is Status.X_WON and exactly.legal_moves() == []
    passed = read_position("eight", "9:2", "X")  # O picked 2 from 7
    assert passed.status is Status.X_WON
    assert EightPosition(7, 1, Mark.X).legal_moves() == [2, 3]  # both pass 8: a forced loss


@pytest.mark.parametrize(
    ("text", "code"),
    [("2:1", "unreachable"), ("11:3", "unreachable"), ("5", "wrong_shape"), ("...", "wrong_shape")],
)
def test_positions_no_game_reaches_are_refused(text: str, code: str) -> None:
    with pytest.raises(InvalidPositionError) as refused:
        read_position("eight", text)
    assert refused.value.code == code and refused.value.field == "board"


def test_the_registry_names_eight_beside_the_boards() -> None:
    assert get_game("eight").rules is EIGHT and get_game("normal").name == "normal"
    assert read_position("eight", "0:0").cells == "0:0"


def test_analyze_answers_eight_from_its_table(client: FlaskClient) -> None:
    body = analyze(client, board="0:0", variant="eight", mainline=True)
    score, plies = brute_force(())
    assert (body["score"], body["remoteness"], body["source"], body["exact"]) == (score, plies, "table", True)
    assert body["winner"] == ("X" if score > 0 else "O")
    moves = {m["move"]: (m["score"], m["remoteness"]) for m in body["moves"]}  # type: ignore[attr-defined]
    assert moves == {p: (-brute_force((p,))[0], brute_force((p,))[1] + 1) for p in (1, 2, 3)}
    line = body["mainline"]["cells"]  # type: ignore[index]
    assert len(line) == plies and sum(line) >= 8
    refused = client.get("/analyze", query_string={"board": "2:1", "variant": "eight"})
    assert check_response(refused, "/analyze", "get")["code"] == "unreachable"


def test_variants_lists_eight(client: FlaskClient) -> None:
    body = check_response(client.get("/variants"), "/variants", "get")
    assert body["games"] == [{"name": "eight", "rules": EIGHT.rules}]
