"""Policy strength: what each policy gives away, and how it fares against perfect play."""

from __future__ import annotations

import pytest

from service.engine import (
    MISERE,
    NORMAL,
    Contender,
    Position,
    Status,
    Strength,
    Table,
    choose_move,
    main_line,
    measure_strength,
    player,
    strength_table,
)
from service.engine.play.strength import DEFAULT_CONTENDERS, accuracy, against_perfect, play_game
from tests.reference import all_reachable, minimax, move_values

DEPTHS = (1, 2, 3, 4, 6, 8)


CLASSIC_NAMES = ("normal", "misere")


@pytest.fixture(scope="module")
def strengths(tables: dict[str, Table]) -> dict[tuple[str, str], Strength]:
    return {
        (s.contender.label, s.variant): s
        for s in measure_strength({name: tables[name] for name in CLASSIC_NAMES})
    }


@pytest.mark.slow
def test_every_contender_is_measured_in_both_variants(strengths: dict[tuple[str, str], Strength]) -> None:
    labels = [c.label for c in DEFAULT_CONTENDERS]
    depths = [f"depth {d}" for d in DEPTHS]
    assert labels == ["perfect", "random-best", "human", "strategy", *depths, "random"]
    assert set(strengths) == {(label, v) for label in labels for v in ("normal", "misere")}
    for strength in strengths.values():
        assert strength.accuracy.positions == 4520  # in-progress positions, X first, either variant
        games = 200 if strength.contender.seeded else 1
        assert strength.as_first.games == strength.as_second.games == games


@pytest.mark.parametrize("label", ["perfect", "random-best", "human"])
@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_solver_backed_policies_never_give_away_a_result(
    strengths: dict[tuple[str, str], Strength], label: str, variant: str
) -> None:
    strength = strengths[label, variant]
    assert strength.accuracy.mistakes == 0
    if label != "human":  # human may trade speed for traps when lost, so only results are promised
        assert strength.accuracy.slower == 0
    for record in (strength.as_first, strength.as_second):
        assert record.draws == record.games


def test_no_policy_ever_beats_perfect(strengths: dict[tuple[str, str], Strength]) -> None:
    assert all(s.as_first.wins == s.as_second.wins == 0 for s in strengths.values())


def test_random_gives_away_results_and_loses_games(strengths: dict[tuple[str, str], Strength]) -> None:
    for variant in ("normal", "misere"):
        strength = strengths["random", variant]
        assert strength.accuracy.mistake_rate > 0.25
        assert strength.as_first.losses > 0 and strength.as_second.losses > 0


def test_strategy_draws_against_itself_and_against_perfect(
    tables: dict[str, Table], strengths: dict[tuple[str, str], Strength]
) -> None:
    for variant, start in (("normal", Position.empty(NORMAL)), ("misere", Position.empty(MISERE))):
        rules = player("strategy")
        assert play_game(tables[variant], rules, rules, start).status is Status.DRAW
        strength = strengths["strategy", variant]
        assert strength.as_first.draws == strength.as_second.draws == 1
        assert 0 < strength.accuracy.mistakes < strengths["random", variant].accuracy.mistakes


def test_deeper_search_errs_less(strengths: dict[tuple[str, str], Strength]) -> None:
    normal = [strengths[f"depth {d}", "normal"].accuracy.mistakes for d in DEPTHS]
    assert normal == sorted(normal, reverse=True) and normal[0] > 0 and normal[-1] == 0
    misere = [strengths[f"depth {d}", "misere"].accuracy.mistakes for d in DEPTHS]
    assert misere[0] > misere[-1]


def test_depth_one_cannot_block_but_depth_eight_holds_the_normal_draw(
    strengths: dict[tuple[str, str], Strength],
) -> None:
    shallow, deep = strengths["depth 1", "normal"], strengths["depth 8", "normal"]
    assert shallow.as_first.losses == shallow.as_second.losses == 1
    assert deep.as_first.draws == deep.as_second.draws == 1


def test_misere_depth_eight_errs_once_on_the_empty_board(
    tables: dict[str, Table], strengths: dict[tuple[str, str], Strength]
) -> None:
    # Every opening but the centre loses, but only at ply 9: beyond an 8-ply horizon.
    deep = strengths["depth 8", "misere"]
    assert deep.accuracy.mistakes == 1
    assert choose_move(tables["misere"], Position.empty(MISERE), "depth", 8) != 4
    assert deep.as_first.losses == 1 and deep.as_second.draws == 1


@pytest.mark.parametrize("contender", [Contender("strategy"), Contender("depth", 2)])
def test_accuracy_counts_agree_with_the_reference(tables: dict[str, Table], contender: Contender) -> None:
    measured = accuracy(tables["misere"], contender)
    choose, mistakes, slower = contender.player(0), 0, 0
    for board, to_move in all_reachable("X").items():
        position = Position.parse(board, to_move, MISERE)
        if position.is_over:
            continue
        best, played = minimax(board, to_move, True), move_values(board, to_move, True)
        value = played[choose(tables["misere"], position)]
        mistakes += value[0] < best[0]
        slower += value[0] == best[0] and value != best
    assert (measured.mistakes, measured.slower) == (mistakes, slower)


def test_seeded_games_repeat_and_perfect_play_follows_the_main_line(tables: dict[str, Table]) -> None:
    contender = Contender("random")
    first = against_perfect(tables["normal"], contender, first=True, games=30)
    assert first == against_perfect(tables["normal"], contender, first=True, games=30)
    assert first.games == 30
    perfect = player("perfect")
    final = play_game(tables["misere"], perfect, perfect)
    assert final == main_line(tables["misere"], Position.empty(MISERE)).final


def test_the_table_has_a_row_per_contender_and_variant(strengths: dict[tuple[str, str], Strength]) -> None:
    table = strength_table(list(strengths.values())).splitlines()
    assert table[0].startswith("| policy | variant | value lost |") and len(table) == 2 + len(strengths)
    assert "| perfect | normal | 0/4520 (0.0%) | 0 | 0/1/0 | 0/1/0 |" in table
    assert "| random-best | misere | 0/4520 (0.0%) | 0 | 0/200/0 | 0/200/0 |" in table
