"""Wins by threes and fours under each of gomoku's rules, found by a plain search, each with its
certificate (win_tree.py's nodes).

The compiled tree search (core/threats.c) holds where five or more in a row wins. Under exactly five
(standard) and renju a mark of one's own can hurt, so there this search asks the rule of every stone, as
the fours search does (fours.py), and follows the compiled search's reasoning:

- a three is a move after which the attacker would make two fives at once (a double): the defender must
  answer it with the double's cell or one of its fives' cells (any other move lets the attacker play
  there, and only one five can be blocked), or with a four of its own (the attacker must block first);
- after each answer the attacker wins again, by fours or, depth allowing, by another three.

A defender's stone elsewhere cannot spoil the double: the double's windows hold only the attacker's
stones and the double's and fives' cells, and a run of the attacker's stones (the exact rule's test)
does not depend on the defender's. Under renju one thing can: a white stone may change whether black's
double is a forbidden point, through the recursion of renju's threes. So when black attacks under renju,
its doubles are only cells no white stone can make forbidden (see `_doubles`); a proof that needs
another is not found here.
Black's forbidden points are never its moves. Where black defends, the position at each of its nodes is
known, so its answers on forbidden points are dropped there, and a four whose one five cell black may not
take wins (its node lists no reply). Black must keep a cell to play, or the game is drawn: each such node
asks for cells no forbidden shape can reach (renju.Stones.far_cells).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.position import Position
from ..rules.renju import FAR_CELLS_FOR_ANY_REPLY, Stones
from .fours import MAX_FOURS, Rule, Search, attack, five_cells, forbidden, four_cells, four_moves, windows
from .native import monotonic
from .win_tree import FOUR, LINE, THREE, TWO, WinTree, fours_node

MOST_THREES = 4  # a tree of more threes is not looked for: past it the plain search takes seconds
FOURS_NODES = 2_000  # each fours search that refutes an answer is bounded: one must not take the budget


@dataclass
class ThreesSearch:
    """One search: the board's rule, the attacker's colour, and what it may spend."""

    rule: Rule
    black: bool  # the attacker is black (the first player)
    deadline: float  # on monotonic(); 0: none
    nodes_left: int
    failed: set[tuple[int, int, int]] = field(default_factory=set)  # (attacker, defender, threes)
    fours_failed: set[tuple[int, int, bool]] = field(default_factory=set)  # shared by its fours searches

    def spent(self) -> bool:
        self.nodes_left -= 1
        return self.nodes_left < 0 or (self.deadline > 0 and monotonic() > self.deadline)

    def attacker(self, att: int, dfn: int, threes: int) -> WinTree | None:
        """The attacker to move: the node of its win, or None when none is found."""
        rule, black = self.rule, self.black
        if self.spent():
            return None
        wins = five_cells(att, dfn, rule, black)
        if wins:
            return WinTree(wins[0], LINE)
        fours = Search(rule, self.deadline, FOURS_NODES, failed=self.fours_failed)
        line = attack(fours, att, dfn, black, MAX_FOURS)
        if line is not None:
            return fours_node(rule, black, att, dfn, line)
        against = five_cells(dfn, att, rule, not black)
        if len(against) > 1:
            return None
        if not against and rule.renju and not black:
            node = self._forbidden_block(att, dfn)
            if node is not None:
                return node
        key = (att, dfn, threes)
        if threes <= 0 or key in self.failed:
            return None
        for move in against or self._candidates(att, dfn):
            if black and rule.renju and forbidden(rule, att, dfn, move):
                continue
            node = self.defender(att | 1 << move, dfn, move, threes - 1)
            if node is not None:
                return node
            if self.nodes_left < 0:
                return None
        self.failed.add(key)
        return None

    def defender(self, att: int, dfn: int, move: int, threes: int) -> WinTree | None:
        """The defender to move after the attacker's `move`: that move's node, when every answer loses."""
        rule, black = self.rule, self.black
        if five_cells(dfn, att, rule, not black):
            return None  # it completes a five first
        threats = five_cells(att, dfn, rule, black)
        if len(threats) > 1:
            return WinTree(move, TWO)
        if threats:
            kind, answers, otherwise = FOUR, set(threats), threats[0]
        else:
            if self._doubles(dfn, att, not black):
                return None  # it would make two fives at once: the attacker blocks one only
            doubles = self._doubles(att, dfn, black)
            if not doubles:
                return None  # not a three
            otherwise = doubles[0]
            answers = {otherwise, *five_cells(att | 1 << otherwise, dfn, rule, black, near=otherwise)}
            answers |= four_cells(dfn, att, rule, not black)
            kind = THREE
        if rule.renju and not black:  # black defends: never on its forbidden points, and it must move
            stones = Stones(rule.rows, rule.cols, dfn, att)
            if not stones.far_cells(1 if kind == FOUR else FAR_CELLS_FOR_ANY_REPLY):
                return None
            answers = {answer for answer in answers if stones.shape(answer) is None}
        replies = []
        for answer in sorted(answers):
            child = self.attacker(att, dfn | 1 << answer, threes)
            if child is None:
                return None
            replies.append((answer, child))
        return WinTree(move, kind, tuple(replies), otherwise)

    def _forbidden_block(self, att: int, dfn: int) -> WinTree | None:
        """White to move under renju: a four whose one five cell black may not take (black must move,
        and white completes the five next), as its node; None when there is none."""
        rule = self.rule
        for move in sorted(four_cells(att, dfn, rule, False)):
            after = att | 1 << move
            cells = five_cells(after, dfn, rule, False, near=move)
            stones = Stones(rule.rows, rule.cols, dfn, after)
            if len(cells) == 1 and stones.shape(cells[0]) is not None and stones.far_cells(1):
                return WinTree(move, FOUR, (), cells[0])
        return None

    def _doubles(self, mine: int, theirs: int, black: bool) -> list[int]:
        """The moves of the side with `mine` that make two fives at once. Under renju black's are only
        those no white stone can make forbidden (the double is played later, after a white reply the
        proof does not list): white's stones cannot make a four, a five or an overline, only a three
        (by making its straight four's cell allowed), so a double allowed now stays allowed unless it
        could be a double-three besides its four: unless two other lines through it are crowded."""
        rule = self.rule
        stones = Stones(rule.rows, rule.cols, mine, theirs) if black and rule.renju else None
        out = []
        for cell in four_moves(mine, theirs, rule):
            if len(five_cells(mine | 1 << cell, theirs, rule, black, near=cell)) < 2:
                continue
            if stones is not None and not stones.stays_allowed(cell):
                continue
            out.append(cell)
        return out

    def _candidates(self, att: int, dfn: int) -> list[int]:
        """The attacker's candidate threes: the empty cells of two windows or more free of the defender
        that each hold k - 3 of its stones or more, fuller windows first."""
        masks, _ = windows(self.rule.rows, self.rule.cols, self.rule.k)
        least = self.rule.k - 3
        best: dict[int, list[int]] = {}
        for window in masks:
            if window & dfn:
                continue
            held = (window & att).bit_count()
            if held < least:
                continue
            gaps = window & ~att
            while gaps:
                low = gaps & -gaps
                best.setdefault(low.bit_length() - 1, []).append(held)
                gaps ^= low
        twice = [cell for cell, held in best.items() if len(held) > 1]
        return sorted(twice, key=lambda cell: (-max(best[cell]), -len(best[cell]), cell))


def threes_win(position: Position, deadline: float, nodes: int = 200_000) -> WinTree | None:
    """The side to move's win by threes and fours under the board's own rule, the tree of fewest threes
    (up to MOST_THREES), found before `deadline` (on monotonic(); 0: none) within `nodes`; None when none
    is found. On flat boards of rows and columns only."""
    variant = position.variant
    if variant.layers != 1 or variant.torus or variant.gravity or variant.misere:
        raise ValueError(f"threes are searched on flat boards, not {variant.name}")
    mark = position.to_move
    att, dfn = position.mask(mark), position.mask(mark.other)
    search = ThreesSearch(Rule.of(position), mark is position.first, deadline, nodes)
    for threes in range(1, MOST_THREES + 1):
        found = search.attacker(att, dfn, threes)
        if found is not None or search.nodes_left < 0 or (deadline and monotonic() > deadline):
            return found
    return None
