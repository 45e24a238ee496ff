"""Continuous fours (search/fours.py, fours_proofs.py) under each of gomoku's rules: every win and loss
they claim agrees with a plain negamax written here over the rules' own positions, on 6x6 boards of five
in a row near their end (five or more, exactly five, renju); and on public 15x15 puzzles every line found
replays to five under the puzzles' own checker."""

from __future__ import annotations

import random
from functools import cache

import pytest

from service.engine import Position, get_variant
from service.engine.search.fours import Rule, continuous_fours, five_cells, line_holds
from service.engine.search.fours_proofs import fours_claims
from service.engine.search.native import monotonic
from tests.engine.rules.renju_reference import reference_shape
from tests.engine.search.continuous_fours import replay
from tests.engine.search.gomoku_puzzles import puzzles, rules_of

RULES = ["6x6k5", "6x6k5-exact", "6x6k5-renju"]


@cache
def negamax(position: Position) -> int:
    """The result for the side to move with perfect play: 1, 0 or -1 (the rules' own moves and ends)."""
    if position.is_over:
        winner = position.line_holder
        return 0 if winner is None else (1 if winner == position.to_move else -1)
    moves = position.legal_moves()
    if not moves:  # black to move under renju with every empty cell forbidden: a draw here
        return 0
    return max(-negamax(position.play(cell)) for cell in moves)


def near_the_end(name: str, seed: int, empty: int = 9) -> Position | None:
    rng = random.Random(seed)
    position = Position.empty(get_variant(name))
    while position.variant.cells - position.marks > empty:
        if position.is_over or not position.legal_moves():
            return None
        position = position.play(rng.choice(position.legal_moves()))
    return None if position.is_over else position


@pytest.mark.parametrize("name", RULES)
def test_every_claim_agrees_with_a_negamax(name: str) -> None:
    checked = won = lost = 0
    for seed in range(400):
        position = near_the_end(name, seed)
        if position is None:
            continue
        claims = fours_claims(position, monotonic() + 10)
        if claims.line:
            assert negamax(position.play(claims.line[0])) == -1, (position.cells, claims.line)
            won += 1
        for cell in claims.losses:
            assert negamax(position.play(cell)) == 1, (position.cells, cell)
            lost += 1
        checked += 1
        if checked >= 30:
            break
    assert checked >= 30 and won >= 3 and lost >= 20, (checked, won, lost)


@pytest.mark.parametrize("name", RULES)
def test_a_line_is_a_game_the_rules_allow_ending_in_five(name: str) -> None:
    """Played out with the rules' own positions: every move legal (under renju, no forbidden point), the
    attacker's last move completes a line, and no defender's reply but the forced one stops it."""
    found = 0
    for seed in range(300):
        position = near_the_end(name, seed, empty=16)
        line = None if position is None else continuous_fours(position, monotonic() + 10)
        if position is None or line is None:
            continue
        mover = position.to_move
        for ply, cell in enumerate(line):
            assert cell in position.legal_moves(), (ply, cell)
            if ply % 2 == 1:  # the defender's reply: any other move lets the attacker's five come at once
                others = [c for c in position.legal_moves() if c != cell]
                attacker_next = position.play(others[0]) if others else None
                assert attacker_next is None or any(
                    attacker_next.play(c).line_holder == mover for c in attacker_next.legal_moves()
                )
            position = position.play(cell)
        assert position.line_holder == mover
        found += 1
    assert found >= 3


@pytest.mark.parametrize("variant", ["15x15k5", "15x15k5-exact"])
def test_public_puzzles_lines_replay_to_five(variant: str) -> None:
    rules = rules_of(variant)
    sample = puzzles()[:12]
    for puzzle in sample:
        line = continuous_fours(puzzle.position(variant), monotonic() + 10)
        assert line is not None, puzzle.name
        done = replay(rules, puzzle.attacker, puzzle.defender, line)
        assert done.five and done.forced, (puzzle.name, done.why)


def black_moves_allowed(attacker: int, defender: int, line: list[int]) -> bool:
    """Each of the attacker's (black's) moves of `line` is allowed when played, by the tests' own
    reading of renju's forbidden points."""
    for ply in range(0, len(line) - 1, 2):
        if reference_shape(15, 15, attacker, defender, line[ply]) is not None:
            return False
        attacker, defender = attacker | 1 << line[ply], defender | 1 << line[ply + 1]
    return True


@pytest.mark.parametrize("variant", ["15x15k5", "15x15k5-exact", "15x15k5-renju"])
def test_a_line_holds_after_a_defenders_stone_where_it_replays_to_five(variant: str) -> None:
    """line_holds, which the certificates of quiet threes ask after each reply instead of searching
    again, against the tests' replay: after a defender's stone on every empty cell, on four public
    puzzles, it holds only where the line replays to five (black's moves allowed, under renju), and
    everywhere it does but under renju (whose lines it may refuse where a search would find another)."""
    rules = rules_of(variant)
    held = 0
    for puzzle in puzzles()[:4]:
        position = puzzle.position(variant)
        line = continuous_fours(position, monotonic() + 10)
        assert line is not None, puzzle.name
        rule, black = Rule.of(position), position.to_move is position.first
        att, dfn = puzzle.attacker, puzzle.defender
        assert line_holds(rule, att, dfn, black, line), puzzle.name
        for cell in range(225):
            if (att | dfn) >> cell & 1:
                continue
            after = dfn | 1 << cell
            done = replay(rules, att, after, line)
            replays = done.five and done.forced and (not rule.renju or black_moves_allowed(att, after, line))
            holds = line_holds(rule, att, after, black, line)
            assert replays or not holds, (puzzle.name, cell, done.why)
            assert holds or not replays or rule.renju, (puzzle.name, cell)
            held += holds
    assert held > 4 * 150  # most stones of the defender's are off the line


@pytest.mark.parametrize("name", ["9x9k5", "9x9k5-exact", "9x9k5-renju"])
def test_a_stone_of_the_other_side_makes_no_five_cell(name: str) -> None:
    """What the fours search leaves unread rests on this: a side's five cells after a stone of the other
    side's are those it had, but the cell that stone took. fours.five_cells, each side under its rule on
    random 9x9 boards, against a plain reading of lines here, before and after each such stone."""
    variant = get_variant(name)
    rule = Rule(9, 9, 5, variant.exact, variant.renju)
    rng = random.Random(name)
    checked = 0
    for _ in range(40):
        cells = list(range(81))
        rng.shuffle(cells)
        stones = cells[: rng.randrange(12, 40)]
        mine, theirs = set(stones[::2]), set(stones[1::2])
        for black in (True, False):
            exactly = variant.exact or (variant.renju and black)
            before = five_cells_by_lines(mine, theirs, exactly)
            assert set(five_cells(mask(mine), mask(theirs), rule, black)) == before
            for cell in cells[len(stones) :]:
                after = set(five_cells(mask(mine), mask(theirs | {cell}), rule, black))
                assert after == before - {cell} == five_cells_by_lines(mine, theirs | {cell}, exactly)
                checked += bool(before)
    assert checked > 0  # some boards had a five cell to lose


def mask(cells: set[int]) -> int:
    return sum(1 << cell for cell in cells)


def five_cells_by_lines(mine: set[int], theirs: set[int], exactly: bool) -> set[int]:
    """The empty cells of a 9x9 board where a stone of `mine` makes five in a row (exactly five if
    `exactly`), read along each line from the cell."""
    found = set()
    for cell in set(range(81)) - mine - theirs:
        row, col = divmod(cell, 9)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < 9 and 0 <= c < 9 and r * 9 + c in mine:
                    run, r, c = run + 1, r + sign * dr, c + sign * dc
            if run == 5 or (run > 5 and not exactly):
                found.add(cell)
    return found
