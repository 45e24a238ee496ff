"""Whether a certificate of a win by threes (win_tree.py) holds under renju, checked by the rules alone.

The compiled core that finds the trees knows neither black's forbidden points nor that black's five is
exactly five while white's is five or more; a tree it gives is a candidate. This check asks the rules
(fours.py's fives, renju.py's forbidden points) of every node, and of every reply the tree must meet:

- an attacker's move is on an empty cell; it completes a five, or blocks the defender's only five cell
  (if the defender has one) and is no forbidden point of black's where the position is known; what the
  node says it threatens (a line, two fives, a four, a three) is what it does, as a client reads it;
- after it the defender completes no five; two five cells win (the defender blocks one), one is the
  defender's forced reply (black, defending, cannot block on a forbidden point and loses);
- after a three, the replies the tree must list are the double threat's cell, its five cells and the
  defender's moves that make a four; after any other the attacker plays the double threat: a stone of
  the defender elsewhere spoils neither it nor its fives, makes no five possible, and (the robustness
  below) cannot make it forbidden;
- after a quiet three, the line of fours that follows (`follow`) holds where it stands, and the replies
  the tree must list are every empty cell of a window of five through a cell it touches, and the
  defender's moves that make a four: a stone elsewhere meets none of its fours or its replies.

A white stone changes black's forbidden points only through renju's threes (a three is real when its
straight four's cell is allowed, so a white stone can make a false three real); it can make no four, five
or overline of black's. So where a black move follows a white reply the tree does not list, that move must
stay allowed whatever the reply: no forbidden shape now, and no two lines through it besides one crowded
enough for a three (renju.Stones.crowded_lines), as search/threes.py asks of its doubles.

Under renju black may have no cell to play (every empty one forbidden): the game is then a draw. Where
black defends, each of its nodes must have a cell no forbidden shape can reach: an empty cell with at
most one black stone within reach along each line (renju.Stones.far_cells); three such cells where a
reply of black's and a white stone come first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules.renju import FAR_CELLS_FOR_ANY_REPLY, Forbidden, ShapesAsked, Stones
from .fours import Rule, five_cells, four_cells, windows
from .native import monotonic
from .win_tree import FOUR, LINE, QUIET, THREE, TWO, WinTree

MOST_CHECKS = 20_000  # attacker's nodes checked at most: a certificate past it is not claimed


@dataclass
class _Check:
    rule: Rule
    black: bool  # the attacker is black
    deadline: float  # on monotonic(); 0: none
    left: int = MOST_CHECKS
    shapes: ShapesAsked = field(init=False)  # black's forbidden shapes asked so far

    def __post_init__(self) -> None:
        self.shapes = ShapesAsked(self.rule.rows, self.rule.cols)

    def stones(self, att: int, dfn: int) -> Stones:
        black, white = (att, dfn) if self.black else (dfn, att)
        return Stones(self.rule.rows, self.rule.cols, black, white)

    def shape(self, att: int, dfn: int, cell: int) -> Forbidden | None:
        """The forbidden shape black's stone on `cell` would make."""
        black, white = (att, dfn) if self.black else (dfn, att)
        return self.shapes.shape(black, white, cell)

    def fives(self, att: int, dfn: int) -> list[int]:
        """The attacker's five cells."""
        return five_cells(att, dfn, self.rule, self.black)

    def against(self, att: int, dfn: int) -> list[int]:
        """The defender's five cells."""
        return five_cells(dfn, att, self.rule, not self.black)

    def defender_fours(self, att: int, dfn: int) -> set[int]:
        """The defender's moves after which it has a five cell."""
        return four_cells(dfn, att, self.rule, not self.black)

    def black_moves(self, att: int, dfn: int, least: int) -> bool:
        """Where black defends: black, to move, keeps a cell to play (`least` far cells; see above)."""
        return self.black or self.stones(att, dfn).far_cells(least)

    def attacker(self, att: int, dfn: int, node: WinTree) -> bool:
        """The attacker, to move, wins by `node`."""
        self.left -= 1
        if self.left < 0 or (self.deadline and monotonic() > self.deadline):
            return False
        move = node.move
        if (att | dfn) >> move & 1:
            return False
        if move in self.fives(att, dfn):
            return node.threat == LINE  # a five: never forbidden, and it ends the game
        against = self.against(att, dfn)
        if node.threat == LINE or len(against) > 1 or (against and against[0] != move):
            return False
        if self.black and self.shape(att, dfn, move) is not None:
            return False
        after = att | 1 << move
        if self.against(after, dfn):
            return False  # the defender completes a five first
        threats = self.fives(after, dfn)
        if len(threats) > 1:  # it blocks one; the attacker completes the other
            return node.threat == TWO and self.black_moves(after, dfn, 1)
        if threats:
            return node.threat == FOUR and self.forced(after, dfn, threats[0], node)
        if node.threat == THREE and node.otherwise is not None:
            return self.three(after, dfn, node, node.otherwise)
        if node.threat == QUIET and node.follow is not None:
            return self.quiet(after, dfn, node, node.follow)
        return False

    def forced(self, att: int, dfn: int, reply: int, node: WinTree) -> bool:
        """After a four: the defender must take its one cell."""
        if not self.black_moves(att, dfn, 1):
            return False
        if not self.black and self.shape(att, dfn, reply) is not None:
            return True  # black may not block, and the five follows
        child = dict(node.replies).get(reply)
        return child is not None and self.attacker(att, dfn | 1 << reply, child)

    def three(self, att: int, dfn: int, node: WinTree, double: int) -> bool:
        """After a three: every reply that spoils the double threat is listed and lost; after any other
        the double threat wins."""
        if (att | dfn) >> double & 1 or len(self.fives(att | 1 << double, dfn)) < 2:
            return False
        if self.black and not self.stays_allowed(att, dfn, double, node):
            return False
        if not self.black_moves(att, dfn, FAR_CELLS_FOR_ANY_REPLY):
            return False
        must = {double, *self.fives(att | 1 << double, dfn)} | self.defender_fours(att, dfn)
        return self.listed(att, dfn, node, must)

    def quiet(self, att: int, dfn: int, node: WinTree, follow: WinTree) -> bool:
        """After a quiet three: the line of fours that follows wins, and every reply that could touch it
        is listed and lost."""
        if not self.black_moves(att, dfn, FAR_CELLS_FOR_ANY_REPLY) or not self.attacker(att, dfn, follow):
            return False
        touched = self.line_cells(att, dfn, follow, node)
        if touched is None:
            return False
        masks, through = windows(self.rule.rows, self.rule.cols, self.rule.k)
        empty = ~(att | dfn)
        near = 0
        for cell in touched:
            for index in through[cell]:
                near |= masks[index] & empty
        must = {cell for cell in range(self.rule.rows * self.rule.cols) if near >> cell & 1}
        return self.listed(att, dfn, node, must | self.defender_fours(att, dfn))

    def line_cells(self, att: int, dfn: int, node: WinTree, quiet: WinTree) -> list[int] | None:
        """The cells a line of fours touches (its moves, the replies, the fives' cells), each black move
        allowed whatever reply to the `quiet` three came before the line, if not listed (None where one
        might not be)."""
        cells: list[int] = []
        while True:
            cells.append(node.move)
            if self.black and not self.stays_allowed(att, dfn, node.move, quiet):
                return None
            att |= 1 << node.move
            if node.threat == LINE:
                return cells
            if node.threat == TWO:
                return cells + self.fives(att, dfn)
            if node.threat != FOUR or len(node.replies) != 1:
                return None
            reply, node = node.replies[0]
            if not self.black and self.shape(att, dfn, reply) is not None:
                return None  # black may not block there now; a black stone elsewhere could change that
            cells.append(reply)
            dfn |= 1 << reply

    def stays_allowed(self, att: int, dfn: int, cell: int, node: WinTree) -> bool:
        """Black's stone on `cell` is allowed now and after any white reply to `node`'s three it does not
        list: by the crowded lines (see above), else asked with each such reply in turn that could change
        the answer (renju.Stones.white_could_change)."""
        stones = self.stones(att, dfn)
        if stones.stays_allowed(cell):
            return True
        if stones.shape(cell) is not None:
            return False
        listed = {reply for reply, _ in node.replies}
        maybe = stones.white_could_change() & ~(att | dfn | 1 << cell)
        return all(
            self.shape(att, dfn | 1 << reply, cell) is None
            for reply in range(self.rule.rows * self.rule.cols)
            if maybe >> reply & 1 and reply not in listed
        )

    def listed(self, att: int, dfn: int, node: WinTree, must: set[int]) -> bool:
        """Each empty cell of `must` the defender may play is a reply the tree lists, and lost; so is
        every other reply it lists (a client replaying the tree follows them)."""
        children = dict(node.replies)
        if any((att | dfn) >> reply & 1 for reply in children):
            return False
        for reply in sorted(must | set(children)):
            if (att | dfn) >> reply & 1:
                continue
            if not self.black and self.shape(att, dfn, reply) is not None:
                continue  # black may not play there
            child = children.get(reply)
            if child is None or not self.attacker(att, dfn | 1 << reply, child):
                return False
        return True


def holds(
    rule: Rule, attacker: int, defender: int, attacker_black: bool, tree: WinTree, deadline: float
) -> bool:
    """Whether the attacker (to move, holding `attacker`) wins under renju (`rule`) by `tree`, as checked
    before `deadline` (on monotonic(); 0: none): False where it fails or the check runs out."""
    if not rule.renju:
        raise ValueError("a certificate is checked here under renju only")
    return _Check(rule, attacker_black, deadline).attacker(attacker, defender, tree)
