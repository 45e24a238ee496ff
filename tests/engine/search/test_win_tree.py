"""The certificates of wins by threes (search/win_tree.py), replayed against every reply of the defender
by a checker that knows nothing of the engine (continuous_fours.Rules: its own windows and fives): on
random positions of 8x8 and 9x9 boards, five or more in a row and exactly five, where the core finds a
tree."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.fours import Rule
from service.engine.search.native import Game, threes_tree
from service.engine.search.win_tree import FOUR, LINE, QUIET, THREE, TWO, WinTree, win_tree
from tests.engine.search.continuous_fours import Rules, cells_of
from tests.engine.search.positions import random_position


def anywhere(att: int, dfn: int, cell: int) -> bool:
    return True


@dataclass(frozen=True)
class Sides:
    """What each side's five is, and where each may play (renju's black: not on a forbidden point)."""

    attacker: Rules
    defender: Rules
    allowed: Callable[[int, int, int], bool] = anywhere  # (attacker, defender, cell): the attacker's moves
    defender_allowed: Callable[[int, int, int], bool] = anywhere  # (defender, attacker, cell): its replies

    @classmethod
    def alike(cls, rules: Rules) -> Sides:
        return cls(rules, rules)


def replays(sides: Sides, node: WinTree, att: int, dfn: int) -> int:
    """The plies the attacker (to move, holding `att`) takes at most to a five by `node`, against every
    reply of the defender; AssertionError where the certificate fails."""
    mine, theirs = sides.attacker, sides.defender
    board = (1 << mine.size**2) - 1
    assert not (att | dfn) >> node.move & 1, "the move is on a stone"
    assert node.threat == LINE or sides.allowed(att, dfn, node.move), f"{node.move} is not allowed"
    att |= 1 << node.move
    if node.threat == LINE:
        assert mine.has_five(att)
        return 1
    assert not mine.has_five(att)
    assert not theirs.completions(dfn, att), "the defender completes a five first"
    threats = mine.completions(att, dfn)
    if node.threat == TWO:
        assert threats.bit_count() >= 2
        return 3
    if node.threat == QUIET:
        return replays_quiet(sides, node, att, dfn)
    assert node.threat in (FOUR, THREE) and node.otherwise is not None
    assert (threats.bit_count() == 1) == (node.threat == FOUR)
    listed = dict(node.replies)
    longest = 0
    for reply in cells_of(board & ~(att | dfn)):
        if not sides.defender_allowed(dfn, att, reply):
            continue
        after = dfn | 1 << reply
        if reply in listed:
            longest = max(longest, 2 + replays(sides, listed[reply], att, after))
            continue
        assert not theirs.has_five(after), f"{reply} completes a five"
        assert not (att | after) >> node.otherwise & 1
        then = att | 1 << node.otherwise
        if node.threat == FOUR:
            assert mine.has_five(then)
            longest = max(longest, 3)
        else:  # a four of the defender's would come first: each must be listed
            assert sides.allowed(att, after, node.otherwise), (
                f"after {reply}, {node.otherwise} is not allowed"
            )
            assert not theirs.completions(after, then), f"{reply} makes a four not answered"
            assert mine.completions(then, after).bit_count() >= 2
            longest = max(longest, 5)
    return longest


def replays_quiet(sides: Sides, node: WinTree, att: int, dfn: int) -> int:
    """`replays` after a quiet move (`att` holds it): the listed replies' nodes, and `follow` after
    every other reply."""
    mine, theirs = sides.attacker, sides.defender
    board = (1 << mine.size**2) - 1
    assert not mine.completions(att, dfn), "a quiet move threatens no five"
    assert node.follow is not None and node.otherwise is None
    listed = dict(node.replies)
    longest = 0
    for reply in cells_of(board & ~(att | dfn)):
        if not sides.defender_allowed(dfn, att, reply):
            continue
        after = dfn | 1 << reply
        assert not theirs.has_five(after), f"{reply} completes a five"
        longest = max(longest, 2 + replays(sides, listed.get(reply, node.follow), att, after))
    return longest


# Measured: 118, 95 and 104 certificates, 15, 2 and 18 of them with a three (the others won by fours).
@pytest.mark.parametrize(
    ("name", "size", "empty", "positions", "least_threes"),
    [("8x8k5", 8, 40, 200, 5), ("9x9k5", 9, 40, 200, 1), ("8x8k5-exact", 8, 40, 200, 5)],
)
def test_certificates_replay_against_every_reply(
    name: str, size: int, empty: int, positions: int, least_threes: int
) -> None:
    variant, rng = get_variant(name), random.Random(name)
    board = Board.of(variant)
    game = Game(board)
    rule = Rule(size, size, 5, exact=variant.exact, renju=False)
    rules = Rules(size=size, exact=variant.exact)
    checked = threes = 0
    for _ in range(positions):
        mine, theirs = random_position(board, empty, rng)
        if not any(
            threes_tree(game, mine, theirs, depth, 0, 0.0).first is not None for depth in (1, 2, 3, 4)
        ):
            continue
        tree = win_tree(game, rule, mine, theirs, True, 4, 0.0)
        assert tree is not None  # the core found a tree: its certificate is read back
        assert replays(Sides.alike(rules), tree, mine, theirs) <= tree.plies
        checked += 1
        threes += has_three(tree)
    print(f"{name}: {checked} certificates replayed, {threes} with a three")
    assert checked >= 20 and threes >= least_threes  # not a check of nothing


def tree_of(node: dict[str, Any]) -> WinTree:
    """A certificate's node as the API writes it (`win_tree.root`), read back."""
    replies = tuple((reply["cell"], tree_of(reply["then"])) for reply in node["replies"])
    follow = tree_of(node["follow"]) if "follow" in node else None
    return WinTree(node["move"], node["threat"], replies, node.get("otherwise"), follow)


def has_three(node: WinTree, kind: str = THREE) -> bool:
    return node.threat == kind or any(has_three(child, kind) for _, child in node.replies)


# Measured: 2, 11 and 6 certificates with a quiet move.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "size", "positions", "least"),
    [("7x7k5", 7, 1500, 2), ("8x8k5", 8, 1500, 6), ("8x8k5-exact", 8, 1500, 4)],
)
def test_quiet_certificates_replay_against_every_reply(
    name: str, size: int, positions: int, least: int
) -> None:
    """Where only a tree with quiet threes wins (test_quiet_threes.py), its certificate."""
    variant, rng = get_variant(name), random.Random(f"quiet {name}")
    board = Board.of(variant)
    game = Game(board)
    rule = Rule(size, size, 5, exact=variant.exact, renju=False)
    checked = 0
    for _ in range(positions):
        mine, theirs = random_position(board, 30 if size == 7 else 40, rng)
        if any(threes_tree(game, mine, theirs, depth, 0, 0.0).first is not None for depth in (1, 2, 3, 4)):
            continue
        if threes_tree(game, mine, theirs, 2, 0, 0.0, quiet=True).first is None:
            continue
        tree = win_tree(game, rule, mine, theirs, True, 4, 0.0)
        if tree is None:
            continue  # larger than a certificate is given
        assert replays(Sides.alike(Rules(size=size, exact=variant.exact)), tree, mine, theirs) <= tree.plies
        checked += has_three(tree, QUIET)  # others win by fours alone, which the trees do not ask
    print(f"{name}: {checked} certificates with a quiet move replayed")
    assert checked >= least  # not a check of nothing
