"""The checker of wins by threes (`winning_threes`) against a brute-force negamax on 8x8 boards, five in
a row, freestyle and exact: every move it confirms wins, it confirms wins that no VCF finds, and a
checker that skips the defender's counter-fours is caught by the same positions.

The positions are built so that the negamax finishes quickly: a neutral filling (every window of five
holds both colours, so nothing threatens), then two lines through one empty cell, each of six cells
holding two of the attacker's stones and three empty cells (a three, often, once the cell is played),
and empty cells around it up to eleven.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from . import winning_threes
from .continuous_fours import DIRECTIONS, Rules, cells_of
from .winning_threes import proves_win_by_threes, refutes, wins_by_fours

SIZE = 8
EMPTY_CELLS = 11
DEPTH = 2
POSITIONS = 300  # per rule: 3 s of processor each here
FULL = (1 << SIZE * SIZE) - 1


def neutral_filling() -> tuple[int, int]:
    """Two colours over the whole board, every window of five holding both (checked by the test)."""
    first = sum(
        1 << (row * SIZE + col) for row in range(SIZE) for col in range(SIZE) if (col + 2 * row) // 2 % 2 == 0
    )
    return first, FULL & ~first


def planted(rng: random.Random) -> tuple[int, int] | None:
    """A position, the attacker to move (first), or None when the lines drawn leave the board."""
    attacker, defender = neutral_filling()
    if rng.random() < 0.5:
        attacker, defender = defender, attacker
    row0, col0 = rng.randrange(SIZE), rng.randrange(SIZE)
    empty = 1 << (row0 * SIZE + col0)
    for dr, dc in rng.sample(DIRECTIONS, 2):
        start = rng.randrange(6)
        line = [(row0 + dr * (i - start), col0 + dc * (i - start)) for i in range(6)]
        if not all(0 <= r < SIZE and 0 <= c < SIZE for r, c in line):
            return None
        others = [r * SIZE + c for r, c in line if (r, c) != (row0, col0)]
        mine = set(rng.sample(others, 2))
        for cell in others:
            attacker &= ~(1 << cell)
            defender &= ~(1 << cell)
            if cell in mine:
                attacker |= 1 << cell
            else:
                empty |= 1 << cell
    while empty.bit_count() < EMPTY_CELLS:
        row, col = row0 + rng.randint(-3, 3), col0 + rng.randint(-3, 3)
        if 0 <= row < SIZE and 0 <= col < SIZE:
            empty |= 1 << (row * SIZE + col)
    if empty.bit_count() > EMPTY_CELLS:
        return None
    return attacker & ~empty, defender & ~empty


def negamax(rules: Rules) -> Callable[[int, int], int]:
    """The game's value for the side to move (1 a win, 0 a draw, -1 a loss), searched to the end. Two
    shortcuts, both the game's rule: who can make five wins; against two five cells, nothing helps and
    against one, every move but its block loses."""
    memo: dict[tuple[int, int], int] = {}

    def value(me: int, other: int) -> int:
        key = (me, other)
        if key in memo:
            return memo[key]
        empty = FULL & ~(me | other)
        threats = rules.completions(other, me)
        if rules.completions(me, other):
            best = 1
        elif not empty:
            best = 0
        elif threats.bit_count() > 1:
            best = -1
        else:
            best = -1
            for move in cells_of(threats or empty):
                best = max(best, -value(other, me | 1 << move))
                if best == 1:
                    break
        memo[key] = best
        return best

    return value


@dataclass
class Tally:
    confirmed: int = 0
    wrong: int = 0
    without_fours: int = 0  # confirmed where the position holds no VCF


def live(rng: random.Random, rules: Rules) -> tuple[int, int] | None:
    """A planted position where neither side holds a five, or None."""
    position = planted(rng)
    if position is None or rules.has_five(position[0]) or rules.has_five(position[1]):
        return None
    return position


def check(rules: Rules, seed: int, positions: int = POSITIONS) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    made = 0
    while made < positions:
        position = live(rng, rules)
        if position is None:
            continue
        attacker, defender = position
        fours = wins_by_fours(rules, attacker, defender)
        if fours and made % 8 != 0:
            continue  # most such positions, whose wins the VCF checker already finds
        made += 1
        confirmed = [
            m
            for m in cells_of(FULL & ~(attacker | defender))
            if proves_win_by_threes(rules, attacker, defender, m, DEPTH)
        ]
        if not confirmed:
            continue
        value = negamax(rules)
        for move in confirmed:
            tally.confirmed += 1
            after = attacker | 1 << move
            if not rules.has_five(after) and value(defender, after) != -1:
                tally.wrong += 1
            tally.without_fours += not fours
    return tally


def test_the_filling_is_neutral() -> None:
    first, second = neutral_filling()
    for rules in (Rules(SIZE), Rules(SIZE, exact=True)):
        assert all(w.cells & first and w.cells & second for w in rules.windows)


@pytest.mark.parametrize("exact, seed", [(False, 1), (True, 2)])
def test_every_confirmed_move_wins_and_some_need_threes(exact: bool, seed: int) -> None:
    tally = check(Rules(SIZE, exact=exact), seed)
    assert tally.wrong == 0
    assert tally.confirmed >= 60, tally  # 138 free, 72 exact (300 positions each)
    assert tally.without_fours >= 5, tally  # 8 and 6


def test_a_checker_blind_to_counter_fours_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay of the fault the rule guards against: leave out the defender's fours from the replies
    that matter, and some move confirmed so loses."""
    honest = winning_threes.replies_that_matter

    def blind(rules: Rules, attacker: int, defender: int, doubles: int) -> int:
        return honest(rules, attacker, defender, doubles) & ~rules.four_moves(defender, attacker)

    monkeypatch.setattr(winning_threes, "replies_that_matter", blind)
    assert check(Rules(SIZE), 1, 200).wrong > 0  # 7 of 101


def test_refutes_only_what_loses() -> None:
    """A move after which the defender makes five, or wins by fours, is refuted, and loses by the
    negamax; a move confirmed is never refuted."""
    rules = Rules(SIZE)
    rng = random.Random(3)
    refuted = 0
    for _ in range(300):
        position = live(rng, rules)
        if position is None:
            continue
        attacker, defender = position
        value = negamax(rules)
        for move in cells_of(FULL & ~(attacker | defender)):
            if refutes(rules, attacker, defender, move) is not None:
                refuted += 1
                assert value(defender, attacker | 1 << move) == 1
                assert not proves_win_by_threes(rules, attacker, defender, move, DEPTH)
    assert refuted > 0
