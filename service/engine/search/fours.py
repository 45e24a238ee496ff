"""Wins by continuous fours under each of gomoku's rules, found by a plain search, each with its line: a
certificate a client can replay to five.

The rules differ on what a five is and where black may play: five or more in a row (freestyle), exactly
five (standard: six in a row is no five), and renju (black wins with exactly five and never plays a
forbidden point; white wins with five or more). The compiled provers hold under "five or more" only,
where a mark of one's own never hurts; this search asks the rule itself of every stone, so it holds
under all three.

A four is a move after which one empty cell would complete a five. The defender must take that cell,
unless it completes a five of its own first (then the sequence fails). (Where black may not take it, a
forbidden point, black loses too; but its move in between could be any, so no line of cells shows it,
and this search does not claim it.) A move that makes two fives possible at once
wins: the defender takes one cell only. Facing the defender's four, the attacker must block it, and goes
on only if its block is a four too. Every defender's reply on the way is forced (any other loses at
once), so a line found is a proof, and its length bounds the win's distance.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from ..rules.position import Position
from ..rules.renju import Stones
from .native import monotonic

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
MAX_FOURS = 40  # a longer sequence of fours than this is not looked for


@dataclass(frozen=True)
class Rule:
    """What makes a five for each side, and where black may play: one board's."""

    rows: int
    cols: int
    k: int
    exact: bool  # every side's five is exactly k (the standard rule)
    renju: bool  # black's five exactly k and its forbidden points; white's k or more
    black_is_first: bool = True

    @classmethod
    def of(cls, position: Position) -> Rule:
        variant = position.variant
        return cls(variant.rows, variant.cols, variant.k, variant.exact, variant.renju)

    def exactly(self, black: bool) -> bool:
        return self.exact or (self.renju and black)


@dataclass
class Search:
    """One search: the board's rule, its windows, and what it may spend."""

    rule: Rule
    deadline: float  # on monotonic(); 0: none
    nodes_left: int
    nodes: int = 0
    failed: set[tuple[int, int, bool]] = field(default_factory=set)  # (attacker, defender, black) seen

    def spent(self) -> bool:
        self.nodes += 1
        self.nodes_left -= 1
        return self.nodes_left < 0 or (self.deadline > 0 and monotonic() > self.deadline)


@cache
def windows(rows: int, cols: int, k: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """The board's windows of k cells as masks, and per cell the indices of the windows through it."""
    masks: list[int] = []
    through: list[list[int]] = [[] for _ in range(rows * cols)]
    for row in range(rows):
        for col in range(cols):
            for d_row, d_col in DIRECTIONS:
                end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                if not (0 <= end_row < rows and 0 <= end_col < cols):
                    continue
                cells = [(row + d_row * i) * cols + col + d_col * i for i in range(k)]
                for cell in cells:
                    through[cell].append(len(masks))
                masks.append(sum(1 << cell for cell in cells))
    return tuple(masks), tuple(tuple(indices) for indices in through)


def run_length(stones: int, rule: Rule, cell: int, d_row: int, d_col: int) -> int:
    """The unbroken run of `stones` through `cell` (one of them) along a direction."""
    row, col = divmod(cell, rule.cols)
    length = 1
    for sign in (1, -1):
        r, c = row + sign * d_row, col + sign * d_col
        while 0 <= r < rule.rows and 0 <= c < rule.cols and stones >> (r * rule.cols + c) & 1:
            length += 1
            r, c = r + sign * d_row, c + sign * d_col
    return length


def makes_five(stones: int, cell: int, rule: Rule, black: bool) -> bool:
    """Whether a stone on `cell` completes a five for the side with `stones` (the cell among them)."""
    exactly = rule.exactly(black)
    for d_row, d_col in DIRECTIONS:
        length = run_length(stones, rule, cell, d_row, d_col)
        if length == rule.k or (length > rule.k and not exactly):
            return True
    return False


@cache
def lines(rows: int, cols: int, k: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The board's cells as one mask, and per direction its step (a shift: +1 to the next column, +cols
    to the next row) and the mask of cells where a window of k cells that way starts on the board. A
    window's cells are its start shifted by 0 to k - 1 steps (every step is positive): all the windows
    one way are read at once, a shift and an AND of whole boards for each of a window's cells."""
    ways = []
    for d_row, d_col in DIRECTIONS:
        starts = 0
        for row in range(rows):
            for col in range(cols):
                end_row, end_col = row + d_row * (k - 1), col + d_col * (k - 1)
                if 0 <= end_row < rows and 0 <= end_col < cols:
                    starts |= 1 << row * cols + col
        if starts:
            ways.append((d_row * cols + d_col, starts))
    return (1 << rows * cols) - 1, tuple(ways)


def five_cells(mine: int, theirs: int, rule: Rule, black: bool, near: int | None = None) -> list[int]:
    """The empty cells where the side with `mine` completes a five at once, in ascending order (`near`:
    only through that cell's windows, in the order of its windows)."""
    if near is not None:
        return _five_cells_near(mine, theirs, rule, black, near)
    board, ways = lines(rule.rows, rule.cols, rule.k)
    k = rule.k
    empty = board & ~(mine | theirs)
    gaps = 0  # the empty cell of every window of k - 1 of `mine` and one empty cell
    for step, starts in ways:
        window = starts  # the starts of windows of `mine` and empty cells only
        one = two = 0  # the starts of windows with at least one, two empty cells
        for i in range(k):
            shift = i * step
            gap = empty >> shift
            window &= mine >> shift | gap
            two |= one & gap
            one |= gap
        window &= one & ~two  # one empty cell: the other k - 1 are `mine`
        if window:
            for i in range(k):
                gaps |= (window & empty >> i * step) << i * step
    found: list[int] = []
    while gaps:
        low = gaps & -gaps
        cell = low.bit_length() - 1
        if makes_five(mine | low, cell, rule, black):  # the exact rule and overlines
            found.append(cell)
        gaps ^= low
    return found


def _five_cells_near(mine: int, theirs: int, rule: Rule, black: bool, near: int) -> list[int]:
    masks, through = windows(rule.rows, rule.cols, rule.k)
    found: list[int] = []
    for index in through[near]:
        window = masks[index]
        gap = window & ~mine
        if gap & (gap - 1) or not gap or gap & theirs:
            continue
        cell = gap.bit_length() - 1
        if cell not in found and makes_five(mine | gap, cell, rule, black):
            found.append(cell)
    return found


def four_moves(mine: int, theirs: int, rule: Rule) -> list[int]:
    """The empty cells that may make a four: those of windows free of `theirs` with k - 2 of `mine`,
    in ascending order."""
    board, ways = lines(rule.rows, rule.cols, rule.k)
    k = rule.k
    empty = board & ~(mine | theirs)
    free = board & ~theirs
    cells = 0
    for step, starts in ways:
        shifted_empty = [empty >> i * step for i in range(k)]
        window = starts  # the starts of windows free of `theirs`
        one = two = three = 0  # the starts of windows with at least one, two, three empty cells
        for i in range(k):
            window &= free >> i * step
            three |= two & shifted_empty[i]
            two |= one & shifted_empty[i]
            one |= shifted_empty[i]
        window &= two & ~three  # two empty cells: the other k - 2 are `mine`
        if window:
            for i in range(k):
                cells |= (window & shifted_empty[i]) << i * step
    out: list[int] = []
    while cells:
        low = cells & -cells
        out.append(low.bit_length() - 1)
        cells ^= low
    return out


def four_cells(mine: int, theirs: int, rule: Rule, black: bool) -> set[int]:
    """The moves of the side with `mine` after which it completes a five at once (its fours)."""
    return {
        m for m in four_moves(mine, theirs, rule) if five_cells(mine | 1 << m, theirs, rule, black, near=m)
    }


def forbidden(rule: Rule, black: int, white: int, cell: int) -> bool:
    return rule.renju and Stones(rule.rows, rule.cols, black, white).shape(cell) is not None


def attack(search: Search, att: int, dfn: int, att_black: bool, depth: int) -> list[int] | None:
    """The attacker to move: its line of fours to a five (its moves and the forced replies, then the
    five's cell), or None."""
    rule = search.rule
    if search.spent():
        return None
    wins = five_cells(att, dfn, rule, att_black)
    if wins:
        return [wins[0]]
    return _fours(search, att, dfn, att_black, depth, five_cells(dfn, att, rule, not att_black))


def _fours(
    search: Search, att: int, dfn: int, att_black: bool, depth: int, against: list[int]
) -> list[int] | None:
    """attack's line where the attacker has no five cell and the defender's are `against`. Below the root
    both are known without reading the board: the attacker's four had one five cell, which the reply
    took, and the defender's new ones are through its reply (a five cell is the side's own stones and
    one empty cell: a stone of the other's only fills one)."""
    rule = search.rule
    key = (att, dfn, att_black)
    if depth == 0 or key in search.failed:
        return None
    if len(against) > 1:
        return None
    black, white = (att, dfn) if att_black else (dfn, att)
    for move in against or four_moves(att, dfn, rule):
        after = att | 1 << move
        threats = five_cells(after, dfn, rule, att_black, near=move)
        if not threats:
            continue
        # The defender cannot complete a five first: it had none but at `move` (`against`), and a stone
        # of the attacker's makes none.
        # Black's forbidden points are asked of a move only once it wins: most fours are allowed, and
        # asking each first took most of a renju search's time.
        if len(threats) > 1:
            if att_black and forbidden(rule, black, white, move):
                continue
            return [move, threats[0], threats[1]]  # it blocks one, the other completes the five
        reply = threats[0]
        if not att_black and forbidden(rule, dfn, after, reply):
            # Black may not block there and loses; but its move in between is any, which a line of
            # cells cannot show: left to the proof-number search (freestyle) or unclaimed.
            continue
        if search.spent():
            return None
        replied = dfn | 1 << reply
        made = five_cells(replied, after, rule, not att_black, near=reply)
        line = _fours(search, after, replied, att_black, depth - 1, made)
        if line is not None and not (att_black and forbidden(rule, black, white, move)):
            return [move, reply, *line]
        if search.nodes_left < 0:
            return None
    search.failed.add(key)
    return None


def line_holds(
    rule: Rule, att: int, dfn: int, att_black: bool, line: list[int], allowed: frozenset[int] = frozenset()
) -> bool:
    """Whether `line` (attack's: the attacker's fours and the forced replies, then the five's cell) wins
    from this position as attack would have found it here: each move a four (blocking the defender's one
    five cell, if it has one) after which the defender has no five, its one reply the line's next cell
    (or two fives at once, the line's last two cells), black's moves allowed (those of `allowed` known
    to be). Far cheaper than searching again: a stone of the defender's off the line changes none of
    that but for what this asks."""
    step = 0
    against = five_cells(dfn, att, rule, not att_black)  # then only through each reply, as in attack
    while len(line) - step > 1:
        move = line[step]
        black, white = (att, dfn) if att_black else (dfn, att)
        if (att | dfn) >> move & 1 or (against and against != [move]):
            return False
        after = att | 1 << move
        threats = five_cells(after, dfn, rule, att_black, near=move)
        if not threats:  # the defender has no five after it, as in attack
            return False
        if att_black and move not in allowed and forbidden(rule, black, white, move):
            return False
        if len(threats) > 1:
            return len(line) - step == 3 and set(line[step + 1 :]) <= set(threats)
        reply = threats[0]
        if line[step + 1] != reply or (not att_black and forbidden(rule, dfn, after, reply)):
            return False
        att, dfn, step = after, dfn | 1 << reply, step + 2
        against = five_cells(dfn, att, rule, not att_black, near=reply)
    return line[-1] in five_cells(att, dfn, rule, att_black)


def continuous_fours(
    position: Position, deadline: float = 0.0, nodes: int = 100_000, attacker_moves: bool = True
) -> list[int] | None:
    """The side to move's win by continuous fours from `position` (the other side's, if not
    `attacker_moves`: as if the side to move passed), as a line of cells, both sides' in turn from the
    attacker's first move to the cell of its five; None when none is found within `deadline` (on
    monotonic(); 0: none) and `nodes`. On a flat board of rows and columns only."""
    variant = position.variant
    if variant.layers != 1 or variant.torus or variant.gravity or variant.misere:
        raise ValueError(f"continuous fours are searched on flat boards, not {variant.name}")
    mark = position.to_move if attacker_moves else position.to_move.other
    att, dfn = position.mask(mark), position.mask(mark.other)
    search = Search(Rule.of(position), deadline, nodes)
    return attack(search, att, dfn, mark is position.first, MAX_FOURS)
