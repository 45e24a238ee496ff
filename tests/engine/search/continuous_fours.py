"""Victory by continuous fours (VCF) on a square board, checked in plain Python, apart from the engine:
a line's replay to five, and a brute-force search for a win in which every attacker move makes a four.

Five in a row is made of 5-cell windows. A side's completion cells are the empty cells that make five
with one more stone: a window holding four of its stones, none of the other side's, and that cell
(under the exact rule, the cells just past both ends of the window must not be its own, or the run
would be longer than five). A four is a move after which its side has a completion cell; the other
side must then play that cell, unless it can make five itself, or the attacker has two (and wins).

Sets of cells are Python ints (bit `row * size + col`). The attacker is the side to move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

FIVE = 5
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class Window:
    cells: int  # five cells in a row
    ends: int  # the cells just before and after it, on the board


@dataclass(frozen=True)
class Rules:
    size: int = 15
    exact: bool = False  # standard gomoku: exactly five wins, six or more does not

    @cached_property
    def windows(self) -> tuple[Window, ...]:
        out = []
        n = self.size
        for row in range(n):
            for col in range(n):
                for dr, dc in DIRECTIONS:
                    end_r, end_c = row + dr * (FIVE - 1), col + dc * (FIVE - 1)
                    if not (0 <= end_r < n and 0 <= end_c < n):
                        continue
                    cells = sum(1 << ((row + dr * i) * n + col + dc * i) for i in range(FIVE))
                    ends = 0
                    for r, c in ((row - dr, col - dc), (end_r + dr, end_c + dc)):
                        if 0 <= r < n and 0 <= c < n:
                            ends |= 1 << (r * n + c)
                    out.append(Window(cells, ends))
        return tuple(out)

    def completions(self, own: int, other: int) -> int:
        """The empty cells at which `own` makes five."""
        out = 0
        for window in self.windows:
            mine = own & window.cells
            if mine.bit_count() != FIVE - 1 or other & window.cells:
                continue
            if self.exact and own & window.ends:
                continue
            out |= window.cells & ~mine
        return out

    def has_five(self, stones: int) -> bool:
        """Whether `stones` hold a five (five or more in a row; exactly five under the exact rule)."""
        for window in self.windows:
            if stones & window.cells == window.cells and not (self.exact and stones & window.ends):
                return True
        return False

    def four_moves(self, own: int, other: int) -> int:
        """The empty cells at which `own` makes a four: windows of three of its stones and two empty."""
        out = 0
        for window in self.windows:
            if (own & window.cells).bit_count() == FIVE - 2 and not other & window.cells:
                out |= window.cells & ~own
        return out


def cells_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass
class Search:
    """A depth-first search for a VCF of the side to move, with the positions already refuted kept."""

    rules: Rules
    max_fours: int = 20
    nodes_left: int = 200_000
    refuted: dict[tuple[int, int], int] = field(default_factory=dict)  # position -> fours it lacked

    def win(self, attacker: int, defender: int, fours: int | None = None) -> list[int] | None:
        """A winning line from here (attacker's move, defender's reply, ..., the attacker's five), or
        None when no VCF of at most `fours` fours is found (none is proven absent past the limits)."""
        fours = self.max_fours if fours is None else fours
        rules = self.rules
        now = rules.completions(attacker, defender)
        if now:
            return [cells_of(now)[0]]
        threats = rules.completions(defender, attacker)
        if threats.bit_count() > 1 or fours == 0 or self.nodes_left <= 0:
            return None
        if self.refuted.get((attacker, defender), -1) >= fours:
            return None
        self.nodes_left -= 1
        candidates = rules.four_moves(attacker, defender)
        if threats:  # the defender's four must be blocked, by a four of one's own
            candidates &= threats
        for move in cells_of(candidates):
            line = self.after_four(attacker | 1 << move, defender, fours)
            if line is not None:
                return [move, *line]
        self.refuted[(attacker, defender)] = fours
        return None

    def after_four(self, attacker: int, defender: int, fours: int) -> list[int] | None:
        """The rest of a winning line after the attacker's four (the defender to move), or None."""
        rules = self.rules
        if rules.completions(defender, attacker):
            return None  # the defender makes five first
        open_cells = cells_of(rules.completions(attacker, defender))
        if not open_cells:
            return None  # not a four
        if len(open_cells) > 1:
            return [open_cells[0], open_cells[1]]  # the defender blocks one, five at the other
        reply = open_cells[0]
        rest = self.win(attacker, defender | 1 << reply, fours - 1)
        return None if rest is None else [reply, *rest]


@dataclass(frozen=True)
class Replay:
    """A line played out: whether it ended in the attacker's five, every defender's reply forced."""

    five: bool
    forced: bool
    why: str


def replay(rules: Rules, attacker: int, defender: int, line: list[int]) -> Replay:
    """Play `line` (attacker first, alternating) and judge it: every move on an empty cell, no five
    before the end, every defender's move the only cell that stops a five (or any, when there were
    two), and the attacker's five at the end."""
    occupied = attacker | defender
    for ply, cell in enumerate(line):
        bit = 1 << cell
        if occupied & bit or not 0 <= cell < rules.size**2:
            return Replay(False, False, f"ply {ply}: cell {cell} is not an empty cell")
        if ply % 2 == 0:
            attacker |= bit
            if rules.has_five(attacker):
                done = ply == len(line) - 1
                return Replay(done, True, "five" if done else f"ply {ply}: five before the line's end")
        else:
            threats = rules.completions(attacker, defender)
            if rules.completions(defender, attacker):
                return Replay(False, False, f"ply {ply}: the defender could make five")
            if threats.bit_count() == 1 and threats != bit:
                return Replay(False, False, f"ply {ply}: the defender's reply is not the forced one")
            if not threats:
                return Replay(False, False, f"ply {ply}: the attacker's move before it was not a four")
            defender |= bit
            if rules.has_five(defender):
                return Replay(False, False, f"ply {ply}: the defender made five")
        occupied |= bit
    return Replay(False, False, "the line ends without a five")


def to_five(rules: Rules, attacker: int, defender: int, line: list[int]) -> list[int]:
    """`line` played on to five where it stops at a double threat, as puzzle collections write their
    lines: after the attacker's last move, when the defender cannot make five and the attacker has two
    cells that do, the defender blocks the lowest and the attacker plays the other. Else unchanged."""
    for ply, cell in enumerate(line):
        if ply % 2 == 0:
            attacker |= 1 << cell
        else:
            defender |= 1 << cell
    if len(line) % 2 == 0 or rules.has_five(attacker) or rules.completions(defender, attacker):
        return line
    open_cells = cells_of(rules.completions(attacker, defender))
    return [*line, open_cells[0], open_cells[1]] if len(open_cells) > 1 else line


def confirm_move(search: Search, attacker: int, defender: int, move: int) -> list[int] | None:
    """A VCF line that starts with `move`, or None when none is found (the move may still win by threats
    of three, which this check does not follow)."""
    if search.rules.completions(attacker, defender) >> move & 1:
        return [move]  # a five at once
    rest = search.after_four(attacker | 1 << move, defender, search.max_fours)
    return None if rest is None else [move, *rest]


Leaf = tuple[int, int, list[int]]  # a position (the attacker to move) and its winning VCF line


def wins_to_move(search: Search, attacker: int, defender: int, counter_fours: int = 1) -> list[Leaf] | None:
    """The attacker, to move, wins: by a VCF here, or, when the defender holds one four that no four of
    the attacker's blocks, by the block, then a win after every reply of the defender (through at most
    `counter_fours` such blocks). The proof's leaves, each a VCF line; None when none is found."""
    line = search.win(attacker, defender)
    if line is not None:
        return [(attacker, defender, line)]
    rules = search.rules
    threats = rules.completions(defender, attacker)
    if counter_fours == 0 or threats.bit_count() != 1:
        return None
    blocked = attacker | threats
    leaves = []
    for reply in cells_of(((1 << rules.size**2) - 1) & ~(blocked | defender)):
        rest = wins_to_move(search, blocked, defender | 1 << reply, counter_fours - 1)
        if rest is None:
            return None
        leaves += rest
    return leaves


def proof_of(search: Search, attacker: int, defender: int, move: int) -> list[Leaf] | None:
    """A proof that `move` wins, as the VCF lines at its leaves: a five, a double four, or a win after
    each reply of the defender (the one block after a four; every empty cell after any other move)."""
    rules = search.rules
    after = attacker | 1 << move
    if rules.has_five(after):
        return [(attacker, defender, [move])]
    if rules.completions(defender, after):
        return None  # the defender makes five first
    open_cells = cells_of(rules.completions(after, defender))
    if len(open_cells) > 1:
        return [(attacker, defender, [move, open_cells[0], open_cells[1]])]
    replies = open_cells or cells_of(((1 << rules.size**2) - 1) & ~(after | defender))
    leaves = []
    for reply in replies:
        rest = wins_to_move(search, after, defender | 1 << reply)
        if rest is None:
            return None
        leaves += rest
    return leaves


def proves_win(rules: Rules, attacker: int, defender: int, move: int, nodes: int = 200_000) -> bool:
    """Whether this module proves that `move` wins (`proof_of`), every leaf's line replaying to five.
    False says only that no such proof was found: a longer win by threats is not followed."""
    leaves = proof_of(Search(rules, nodes_left=nodes), attacker, defender, move)
    return leaves is not None and all(replay(rules, a, d, line).five for a, d, line in leaves)
