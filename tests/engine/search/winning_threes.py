"""Victory by threes and fours (VCT) checked in plain Python, apart from the engine: whether a claimed
winning move wins under freestyle (five or more) or the exact rule (exactly five), not renju.

A move is confirmed when, after it, every reply of the defender that matters loses: the attacker then
wins by continuous fours (`continuous_fours.Search`, its line replayed to five) or, depth allowing, by
another move confirmed so. The replies left out are only those that lose at once:

- after a four (one cell that makes five), every reply but the block lets the attacker make five;
- else, when the attacker has a double-threat move (a move that makes two or more cells that make
  five: an open four or a double four), a reply that leaves him one and makes no four of the
  defender's loses to it: the defender, with no five to make, can block only one of the two. The
  replies that matter are therefore those after which no double-threat move is left (recomputed after
  each candidate: the double-threat cells and every cell of the windows through them; a stone
  elsewhere changes none of them), and every move that makes a four of the defender's.

A move that makes neither a four nor a double-threat move threatens nothing and is not confirmed.
The depth counts the attacker's moves that are neither fours nor the block of a defender's four (a
block forced by a counter-four keeps what the attacker threatened, so it spends none).

Sets of cells are Python ints (bit `row * size + col`); the attacker is the side to move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .continuous_fours import Rules, Search, cells_of, replay

VCF_NODES = 20_000  # the VCF search after each reply: a bound on time, never on soundness


@dataclass
class Limit:
    """How many more VCF searches a check may start: past it, what is left unproven is not confirmed."""

    searches: int = 2_000


@dataclass(frozen=True)
class Threat:
    """What a move threatens: `fives`, the cells where the attacker would make five next; `doubles`, when
    there are none, the attacker's moves that would make two or more such cells at once."""

    fives: int
    doubles: int


def double_threat_moves(rules: Rules, attacker: int, defender: int) -> int:
    """The empty cells where the attacker's stone makes two or more cells that make five."""
    out = 0
    for move in cells_of(rules.four_moves(attacker, defender)):
        if rules.completions(attacker | 1 << move, defender).bit_count() >= 2:
            out |= 1 << move
    return out


def threat_of(rules: Rules, attacker: int, defender: int) -> Threat:
    fives = rules.completions(attacker, defender)
    return Threat(fives, 0 if fives else double_threat_moves(rules, attacker, defender))


def replies_that_matter(rules: Rules, attacker: int, defender: int, doubles: int) -> int:
    """The defender's replies (the defender to move, no five on either side's next move, the attacker
    holding the double-threat moves `doubles`) that do not lose at once: those after which no
    double-threat move is left, and those that make a four of the defender's."""
    near = doubles
    for window in rules.windows:
        if window.cells & doubles:
            near |= window.cells
    near &= ~(attacker | defender)
    out = rules.four_moves(defender, attacker)
    for reply in cells_of(near & ~out):
        if not double_threat_moves(rules, attacker, defender | 1 << reply):
            out |= 1 << reply
    return out


@lru_cache(maxsize=1 << 16)
def wins_by_fours(rules: Rules, attacker: int, defender: int) -> bool:
    """Whether the attacker, to move, wins by continuous fours, the line found replayed to five."""
    line = Search(rules, nodes_left=VCF_NODES).win(attacker, defender)
    return line is not None and replay(rules, attacker, defender, line).five


def threat_moves(rules: Rules, attacker: int, defender: int) -> int:
    """The attacker's moves worth trying as a threat (the defender to make no five next): the block of
    a defender's four when there is one, else every move in a window of two or more of the attacker's
    stones and none of the defender's (every four and every move that makes a double-threat move)."""
    block = rules.completions(defender, attacker)
    if block:
        return block
    out = 0
    for window in rules.windows:
        if (attacker & window.cells).bit_count() >= 2 and not defender & window.cells:
            out |= window.cells
    return out & ~attacker


def proves_win_by_threes(
    rules: Rules, attacker: int, defender: int, move: int, depth: int, limit: Limit | None = None
) -> bool:
    """Whether this module proves that the attacker's `move` wins, with at most `depth` of the
    attacker's moves from here that are not fours (`move` among them when it is one; the block of a
    defender's four is free), within `limit`. False says only that no proof was found, unless
    `refutes` says more."""
    limit = Limit() if limit is None else limit
    if (attacker | defender) >> move & 1:
        return False
    forced = rules.completions(defender, attacker)  # the block of a four: it spends no depth
    after = attacker | 1 << move
    if rules.has_five(after):
        return True
    if rules.completions(defender, after):
        return False  # the defender makes five first
    threat = threat_of(rules, after, defender)
    if threat.fives.bit_count() >= 2:
        return True  # the defender blocks one, the attacker makes five at the other
    if threat.fives:
        replies = threat.fives
    elif threat.doubles and (depth > 0 or forced):
        replies = replies_that_matter(rules, after, defender, threat.doubles)
        depth -= 0 if forced else 1
    else:
        return False  # no threat, or none left to spend
    return all(wins_to_move(rules, after, defender | 1 << reply, depth, limit) for reply in cells_of(replies))


def wins_to_move(rules: Rules, attacker: int, defender: int, depth: int, limit: Limit) -> bool:
    """Whether the attacker, to move, wins by continuous fours or by a move `proves_win_by_threes`
    confirms within `depth` moves that are not fours."""
    if rules.completions(attacker, defender):
        return True
    if limit.searches <= 0:
        return False
    limit.searches -= 1
    if wins_by_fours(rules, attacker, defender):
        return True
    if depth == 0 and not rules.completions(defender, attacker):
        return False
    return any(
        proves_win_by_threes(rules, attacker, defender, move, depth, limit)
        for move in cells_of(threat_moves(rules, attacker, defender))
    )


def winning_moves(rules: Rules, attacker: int, defender: int, depth: int) -> list[int]:
    """Every move among `threat_moves` that `proves_win_by_threes` confirms, each within a `Limit()`."""
    return [
        move
        for move in cells_of(threat_moves(rules, attacker, defender))
        if proves_win_by_threes(rules, attacker, defender, move, depth)
    ]


def refutes(rules: Rules, attacker: int, defender: int, move: int) -> str | None:
    """Why `move` provably does not win, or None when this module cannot say: it is not an empty cell,
    or after it the defender makes five at once or wins by continuous fours."""
    if (attacker | defender) >> move & 1 or not 0 <= move < rules.size**2:
        return "not an empty cell"
    after = attacker | 1 << move
    if rules.has_five(after):
        return None
    if rules.completions(defender, after):
        return "the defender makes five at once"
    if wins_by_fours(rules, defender, after):
        return "the defender wins by continuous fours"
    return None
