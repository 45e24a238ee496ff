"""Why a pairing search fails (pairing.c's pairing_failure), which the proof-number search keeps to skip
the searches of positions it shows have no pairing either (core/pairing.h, pairing_memo): the lines it
names have no pairing on their own, by a brute-force search written here from the reference's lines; and
positions with more marks, none of the defender's on those lines, have none either. On square,
rectangular and torus boards."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import Game
from tests.core_debug import find_pairing, why_unpaired
from tests.reference import Rules

BOARDS = [Rules(4, 4, 3), Rules(4, 4, 4), Rules(4, 5, 4), Rules(5, 5, 4), Rules(4, 4, 4, torus=True)]


def cells_of(mask: int) -> frozenset[int]:
    return frozenset(c for c in range(mask.bit_length()) if mask >> c & 1)


def pairable(lines: list[frozenset[int]], free: frozenset[int]) -> bool:
    """Whether disjoint pairs of `free` cells exist with every line holding one (brute force)."""

    def place(open_lines: list[frozenset[int]], unused: frozenset[int]) -> bool:
        if not open_lines:
            return True
        line, rest = open_lines[0], open_lines[1:]
        choices = sorted(line & unused)
        for i, a in enumerate(choices):
            for b in choices[i + 1 :]:
                pair = frozenset((a, b))
                if place([other for other in rest if not pair <= other], unused - pair):
                    return True
        return False

    return place(sorted(lines, key=lambda line: len(line & free)), free)


def live_lines(rules: Rules, defender: int, within: int | None = None) -> list[frozenset[int]]:
    """The reference's lines free of the defender's marks (those inside `within`, if given)."""
    lines = [frozenset(line) for line in rules.lines]
    return [
        line
        for line in lines
        if not any(defender >> c & 1 for c in line) and (within is None or all(within >> c & 1 for c in line))
    ]


def random_positions(rules: Rules, count: int, seed: int) -> Iterator[tuple[int, int]]:
    """Positions of random marks (the attacker's and the defender's), in equal numbers or the attacker
    one more, neither side's line complete."""
    rng = random.Random(seed)
    lines = [frozenset(line) for line in rules.lines]
    made = 0
    while made < count:
        marks = rng.randrange(2, rules.size - 2)
        cells = rng.sample(range(rules.size), marks)
        attacker = sum(1 << c for c in cells[: (marks + 1) // 2])
        defender = sum(1 << c for c in cells[(marks + 1) // 2 :])
        if any(all(side >> c & 1 for c in line) for line in lines for side in (attacker, defender)):
            continue
        made += 1
        yield attacker, defender


@pytest.mark.parametrize("rules", BOARDS, ids=lambda rules: rules.name)
def test_the_lines_a_failure_names_have_no_pairing_and_more_marks_none(rules: Rules) -> None:
    game = Game(Board.of(get_variant(rules.name)))
    rng = random.Random(7)
    failures = narrower = 0
    for attacker, defender in random_positions(rules, 150, seed=rules.size):
        why = why_unpaired(game, attacker, defender)
        empty = (1 << rules.size) - 1 & ~(attacker | defender)
        all_lines = live_lines(rules, defender)
        if why is None:
            assert pairable(all_lines, cells_of(empty)), "a pairing reported where brute force has none"
            continue
        assert not pairable(all_lines, cells_of(empty)), "no pairing reported where brute force has one"
        lines, gaps = why
        assert lines, "an unlimited search knows why it failed"
        assert gaps == lines & empty
        named = live_lines(rules, defender, within=lines)
        assert named and not pairable(named, cells_of(gaps))
        failures += 1
        narrower += len(named) < len(all_lines)
        # more marks: the attacker's anywhere, the defender's off the named lines
        for _ in range(3):
            free = [c for c in range(rules.size) if empty >> c & 1]
            extra = rng.sample(free, rng.randrange(0, min(4, len(free)) + 1))
            more_attacker, more_defender = attacker, defender
            for c in extra:
                if rng.random() < 0.5 or lines >> c & 1:
                    more_attacker |= 1 << c
                else:
                    more_defender |= 1 << c
            more_empty = (1 << rules.size) - 1 & ~(more_attacker | more_defender)
            assert find_pairing(game, more_attacker, more_defender, defender_to_move=False) is None
            assert not pairable(live_lines(rules, more_defender), cells_of(more_empty))
    assert failures >= 20 and narrower >= 5, (failures, narrower)


def test_a_line_with_one_empty_cell_is_the_whole_reason() -> None:
    """On 5x5 with four in a row, X holds three of the top row's first window: that line alone."""
    rules = Rules(5, 5, 4)
    game = Game(Board.of(get_variant(rules.name)))
    attacker = 0b0111  # cells 0, 1, 2
    defender = 1 << 24 | 1 << 12
    window = 0b1111
    assert why_unpaired(game, attacker, defender) == (window, 1 << 3)
