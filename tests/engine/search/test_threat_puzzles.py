"""The public gomoku puzzles won by threes and fours (tests/data/gomoku-puzzles/, `"kind": "threes"`):
their positions load as the README says, and for a few of them the test's own checker of wins by threes
(`winning_threes`, which knows nothing of the engine) confirms a winning move that no VCF gives, under
freestyle and the exact rule. The moves were found by the checker's own search over the attacker's
moves (`winning_threes.winning_moves`) and agree with the engine's answers
(tests/bench/gomoku_puzzles.py). Under the exact rule the engine proves each of them, and its certificate
replays.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from service.engine import Analyst, Budget, Mark, Result, SearcherPool, get_variant, ready_shapes
from service.engine.rules.notation import cell_of
from service.engine.search.proof_number import Prover

from .gomoku_puzzles import DATA, LEVELS, ThreatPuzzle, rules_of, stone_cell, threat_puzzles
from .test_win_tree import Sides, replays
from .winning_threes import proves_win_by_threes, refutes, wins_by_fours

VARIANTS = ("15x15k5", "15x15k5-exact", "15x15k5-renju")
# Black has one stone more, so white is to move, in the last five of these two sets.
WHITE_TO_MOVE = {
    f"banbu-three-move-wins#{level}-{i}" for level in ("elementary", "advanced") for i in range(25, 30)
}
# (puzzle, winning move, the attacker's moves that are not fours the checker needs): none has a VCF.
CONFIRMED = [
    ("entry-0", "h10", 1),
    ("entry-3", "i8", 2),
    ("entry-8", "i7", 1),
    ("elementary-0", "g7", 1),
    ("advanced-1", "g9", 1),
    ("advanced-21", "i10", 1),
]


def by_name(name: str) -> ThreatPuzzle:
    return next(p for p in threat_puzzles() if p.name == f"banbu-three-move-wins#{name}")


def test_every_set_loads_whole() -> None:
    assert Counter(p.level for p in threat_puzzles()) == {level: 30 for level in LEVELS.values()}
    assert len({p.name for p in threat_puzzles()}) == 90


def test_stones_are_named_as_the_project_names_cells() -> None:
    variant = get_variant("15x15k5")
    data = json.loads((DATA / "banbu-three-move-wins.json").read_text(encoding="utf-8"))
    for item in data["items"]:
        for stone in item["stones"]:
            name, _ = stone.split(",")
            assert stone_cell(stone)[0] == cell_of(variant, name), stone
    assert stone_cell("H8,1") == (112, 1)  # the centre


@pytest.mark.parametrize("variant", VARIANTS)
def test_positions_load_with_the_side_to_move_from_the_counts(variant: str) -> None:
    for puzzle in threat_puzzles():
        position = puzzle.position(variant)
        black_to_move = puzzle.name not in WHITE_TO_MOVE
        assert puzzle.black_to_move is black_to_move, puzzle.name
        assert position.to_move is (Mark.X if black_to_move else Mark.O), puzzle.name
        assert position.x.bit_count() == puzzle.black.bit_count()  # black is X, as renju needs


@pytest.mark.parametrize("variant", ["15x15k5", "15x15k5-exact"])
@pytest.mark.parametrize(("name", "move", "depth"), CONFIRMED)
def test_the_checker_confirms_a_win_by_threes(variant: str, name: str, move: str, depth: int) -> None:
    puzzle = by_name(name)
    rules = rules_of(variant)
    cell = cell_of(get_variant(variant), move)
    assert not wins_by_fours(rules, puzzle.attacker, puzzle.defender)
    assert proves_win_by_threes(rules, puzzle.attacker, puzzle.defender, cell, depth)
    assert not proves_win_by_threes(rules, puzzle.attacker, puzzle.defender, cell, depth - 1)
    assert refutes(rules, puzzle.attacker, puzzle.defender, cell) is None


def test_the_checker_confirms_no_idle_move() -> None:
    """A move far from every stone threatens nothing: not confirmed, whatever the depth."""
    puzzle = by_name("entry-0")
    rules = rules_of("15x15k5")
    assert not proves_win_by_threes(
        rules, puzzle.attacker, puzzle.defender, cell_of(get_variant("15x15k5"), "a1"), 3
    )


@pytest.fixture(scope="module")
def standard_analyst() -> Analyst:
    """As a worker has it: its tables made and the board's shapes ready before its first request."""
    pool = SearcherPool(1)
    pool.warm()
    ready_shapes([get_variant("15x15k5-exact")])
    return Analyst(lambda v: None, None, pool)


@pytest.mark.parametrize(("name", "move", "depth"), CONFIRMED)
def test_the_engine_proves_a_standard_win_by_threes_with_a_tree_that_replays(
    standard_analyst: Analyst, name: str, move: str, depth: int
) -> None:
    """Under exactly five the root's trees of threes (core/threats.c, reading each window's flanks)
    prove the win, and its certificate replays to exactly five against every reply."""
    puzzle = by_name(name)
    answer = standard_analyst.analyze(puzzle.position("15x15k5-exact"), Budget(5.0))
    assert answer.result is Result.WIN and answer.tree is not None
    assert answer.closed_by.get(Prover.THREAT_SPACE.value, 0) >= 1
    assert answer.move(answer.tree.move).lower == 1
    sides = Sides.alike(rules_of("15x15k5-exact"))
    assert replays(sides, answer.tree, puzzle.attacker, puzzle.defender) <= answer.tree.plies
