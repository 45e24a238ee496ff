"""The certificate of a win by threes and fours: the tree a client replays to a line.

A win by continuous fours is one line (fours.py), since every defender's reply is forced. A win by threes
is a tree: after a three the defender has a few replies that do not lose at once, and each needs its own
continuation. A node is the attacker's move, what it threatens, each such reply with the attacker's node
after it, and the attacker's move after any other reply (`otherwise`). A move threatens:
- `line`: it completes a line; nothing follows;
- `two`: two lines at once; the defender blocks one, the attacker completes the other;
- `four`: one line; the one reply is its cell, and after any other `otherwise` (that cell) completes it;
- `three`: two lines at once next move; after a reply not listed, `otherwise` makes them;
- `quiet`: nothing at once, but a line of fours were the attacker to move again (a quiet three,
  core/threats.c); after a reply not listed, `follow`, that line's first node, wins by fours.

The tree is read back from the proof: each attacker's node asks the plain fours search, then the core's
tree of threes (core/threats.c) for its first move; each defender's node takes the core's answers to the
threat (tss_answers). So it holds where the core's proofs hold, on boards where five or more in a row wins
(freestyle) or exactly five (the core reads each line's flanks); tests/engine/search/test_win_tree.py
replays every defender's reply against it. After a quiet three the replies listed are every cell of a
window of k through a cell of the line of fours that follows (a stone elsewhere blocks none of its fours
and joins none of its replies, fours_proofs.py) and the defender's moves that may make a four.

Under renju the core knows neither forbidden points nor the colours' different fives: where black
attacks, each move the core gives is asked of the rules, and one on a forbidden point is banned from the
core's trees and the question asked again. Such a tree is only a candidate: renju_certificate.py checks it
under the rules before anything is claimed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..rules.geometry import iter_cells
from ..rules.renju import Stones
from ..rules.variants import Variant
from .fours import (
    Rule,
    Search,
    attack,
    five_cells,
    forbidden,
    four_cells,
    four_moves,
    line_holds,
    windows,
)
from .native import ANSWERS, BLOCK, TWO_THREATS, Game, monotonic, threat_answers, threes_tree
from .root_trees import DEEPENING, MOST_THREES

MOST_NODES = 400  # a larger tree is not given: its JSON would outweigh the answer
MOST_FOURS = 40  # as fours.MAX_FOURS: a longer sequence of fours is not looked for
RENJU_TRIES = 8  # first moves tried per node and depth under renju (_Builder.nodes_of)
# Under renju, the share of the time left that reading one root move's tree back may take: a move whose
# tree the rules refute deep down can take seconds to read; one that holds took 0.1 s or less on the
# public puzzles (tests/bench/gomoku_puzzles.py; with half, 71 of their 90 proven at 1 s, with three
# quarters 69).
RENJU_READING_SHARE = 0.5


# What an attacker's move threatens, and the most plies from it to a completed line when nothing follows
# but the rule: a line is complete at once; two threats take a reply and the line; after a four, a reply
# not listed lets `otherwise` complete it; after a three, `otherwise` makes two threats, then as `two`.
LINE, TWO, FOUR, THREE, QUIET = "line", "two", "four", "three", "quiet"
_LEAST_PLIES = {LINE: 1, TWO: 3, FOUR: 3, THREE: 5, QUIET: 2}


@dataclass(frozen=True)
class WinTree:
    """One attacker's node of a won tree (the module's docstring says how to read it)."""

    move: int  # the attacker's move
    threat: str  # LINE, TWO, FOUR, THREE or QUIET
    replies: tuple[tuple[int, WinTree], ...] = ()  # each reply that does not lose at once, what follows
    otherwise: int | None = None  # the attacker's move after any other reply (FOUR and THREE)
    follow: WinTree | None = None  # the attacker's node after any other reply (QUIET): its line of fours

    @property
    def size(self) -> int:
        return 1 + sum(child.size for _, child in self.replies) + (self.follow.size if self.follow else 0)

    @property
    def plies(self) -> int:
        """The most plies from the node's move to a completed line, whatever the defender replies."""
        children = [child for _, child in self.replies] + ([self.follow] if self.follow else [])
        longest = max((child.plies for child in children), default=0)
        return max(_LEAST_PLIES[self.threat], 2 + longest if children else 0)


class _Builder:
    def __init__(self, game: Game, rule: Rule, attacker_black: bool, deadline: float) -> None:
        self.game, self.rule, self.black, self.deadline = game, rule, attacker_black, deadline
        self.nodes = 0

    def attacker(self, att: int, dfn: int, threes: int) -> WinTree | None:
        """The attacker to move: its node, or None when none is found (or the tree grew too large). Trees
        of ordinary threes first (the smaller certificates), then with quiet ones."""
        self.nodes += 1
        if self.nodes > MOST_NODES or (self.deadline and monotonic() > self.deadline):
            return None
        won = self.by_fours(att, dfn)
        if won is not None:
            return won
        for with_quiet in (False, True):
            for fewest in range(1, threes + 1):  # the tree of fewest threes: the smallest certificate
                for node in self.nodes_of(att, dfn, fewest, with_quiet):
                    if node is not None or not self.rule.renju:
                        return node
        return None

    def by_fours(self, att: int, dfn: int) -> WinTree | None:
        """The attacker's node where it completes a line, or wins by fours; None when it does neither."""
        wins = five_cells(att, dfn, self.rule, self.black)
        if wins:
            return WinTree(wins[0], LINE)
        line = attack(Search(self.rule, self.deadline, 100_000), att, dfn, self.black, MOST_FOURS)
        return None if line is None else fours_node(self.rule, self.black, att, dfn, line)

    def nodes_of(
        self, att: int, dfn: int, threes: int, quiet: bool, share: float = 1.0
    ) -> Iterator[WinTree | None]:
        """The attacker's node read back from the core's tree of `threes` (None: not read back), one per
        first move the core gives, each read within `share` of the time left. Under renju the core is
        asked again (RENJU_TRIES times at most) after each one the caller passes over, that move banned
        from the core's trees at this node; a forbidden point of black's is banned before it is read."""
        banned = 0
        for _ in range(RENJU_TRIES if self.rule.renju else 1):
            deadline = self.deadline
            first = threes_tree(self.game, att, dfn, threes, 0, deadline, quiet, banned).first
            if first is None or (deadline and monotonic() > deadline):
                return
            if not self.forbids(att, dfn, first):
                if deadline:
                    now = monotonic()
                    self.deadline = now + (deadline - now) * share
                node = self.defender(att | 1 << first, dfn, first, threes - 1)
                self.deadline = deadline
                yield node
            banned |= 1 << first

    def forbids(self, att: int, dfn: int, cell: int) -> bool:
        """Whether the attacker may not play `cell` now: a forbidden point, where it is black under renju."""
        return self.black and forbidden(self.rule, att, dfn, cell)

    def may_forbid(self, att: int, dfn: int, cell: int) -> bool:
        """Whether `cell` may be a forbidden point of the attacker's after a reply of the defender's
        anywhere (renju.Stones.stays_allowed): where it is black under renju."""
        rule = self.rule
        return self.black and rule.renju and not Stones(rule.rows, rule.cols, att, dfn).stays_allowed(cell)

    def defender(self, att: int, dfn: int, move: int, threes: int) -> WinTree | None:
        """The defender to move after the attacker's `move`: the node of that move (after a three, its
        double threat on no forbidden point of black's, the core asked again while it is)."""
        banned = 0
        answered = threat_answers(self.game, att, dfn)
        while (
            answered.kind == ANSWERS
            and answered.next is not None
            and self.may_forbid(att, dfn, answered.next)
        ):
            banned |= 1 << answered.next
            answered = threat_answers(self.game, att, dfn, banned)
        if answered.kind == TWO_THREATS:
            return WinTree(move, TWO)
        if answered.kind not in (BLOCK, ANSWERS):
            return self.quiet(att, dfn, move, threes)
        answers = set(iter_cells(answered.answers))
        if self.rule.renju and answered.kind == ANSWERS:  # the core's fours are not renju's: white's longer
            answers |= four_cells(dfn, att, self.rule, not self.black)
        replies = self.replies(att, dfn, sorted(answers), threes)
        if replies is None:
            return None
        return WinTree(move, FOUR if answered.kind == BLOCK else THREE, replies, answered.next)

    def replies(
        self, att: int, dfn: int, cells: Iterable[int], threes: int, line: list[int] | None = None
    ) -> tuple[tuple[int, WinTree], ...] | None:
        """Each of the defender's replies `cells` with the attacker's node after it, or None when one
        has none. After a quiet three, its `line` of fours is asked first after each reply: it holds
        after most, and searching for fours again after each took most of a renju tree's reading."""
        out = []
        allowed = frozenset() if line is None else self.staying_allowed(att, dfn, line)
        for reply in cells:
            after = dfn | 1 << reply
            child = None
            if line is not None and line_holds(self.rule, att, after, self.black, line, allowed):
                self.nodes += 1
                if self.nodes <= MOST_NODES:
                    child = fours_node(self.rule, self.black, att, after, line)
            else:
                child = self.attacker(att, after, threes)
            if child is None:
                return None
            out.append((reply, child))
        return tuple(out)

    def staying_allowed(self, att: int, dfn: int, line: list[int]) -> frozenset[int]:
        """The attacker's moves of `line` that stay allowed whatever stones the defender adds (renju's
        crowded lines, Stones.stays_allowed): black's, under renju; none need asking otherwise."""
        rule = self.rule
        if not (self.black and rule.renju):
            return frozenset()
        found = set()
        for step in range(0, len(line) - 1, 2):
            move = line[step]
            if Stones(rule.rows, rule.cols, att, dfn).stays_allowed(move):
                found.add(move)
            att, dfn = att | 1 << move, dfn | 1 << line[step + 1]
        return frozenset(found)

    def quiet(self, att: int, dfn: int, move: int, threes: int) -> WinTree | None:
        """The node of a quiet three `move` (the module's docstring), or None."""
        rule, black = self.rule, self.black
        if five_cells(dfn, att, rule, not black):
            return None
        line = attack(Search(rule, self.deadline, 100_000), att, dfn, black, MOST_FOURS)
        if line is None:
            return None
        follow = fours_node(rule, black, att, dfn, line)
        if follow is None:
            return None
        masks, through = windows(rule.rows, rule.cols, rule.k)
        listed = set(four_moves(dfn, att, rule))
        for cell in line:
            listed.update(c for index in through[cell] for c in iter_cells(masks[index] & ~(att | dfn)))
        replies = self.replies(att, dfn, sorted(listed), threes, line)
        return None if replies is None else WinTree(move, QUIET, replies, follow=follow)


def fours_node(rule: Rule, black: bool, att: int, dfn: int, line: list[int]) -> WinTree | None:
    """A line of fours (fours.attack's, of the attacker holding `att`) as nodes: each four's one reply
    is its threat's cell."""
    move = line[0]
    if len(line) == 1:
        return WinTree(move, LINE)
    after = att | 1 << move
    if len(five_cells(after, dfn, rule, black, near=move)) > 1:
        return WinTree(move, TWO)
    reply = line[1]
    child = fours_node(rule, black, after, dfn | 1 << reply, line[2:])
    return None if child is None else WinTree(move, FOUR, ((reply, child),), reply)


def win_tree(
    game: Game, rule: Rule, attacker: int, defender: int, attacker_black: bool, threes: int, deadline: float
) -> WinTree | None:
    """The certificate of the attacker's win (to move) by fours, or by up to `threes` threes, read back
    from the proofs before `deadline` (on monotonic(); 0: none); None when none is found in time or the
    tree has more than MOST_NODES nodes."""
    return _Builder(game, rule, attacker_black, deadline).attacker(attacker, defender, threes)


def renju_candidates(
    game: Game, rule: Rule, attacker: int, defender: int, attacker_black: bool, deadline: float
) -> Iterator[WinTree]:
    """Under renju (`rule`), the certificates the core's trees suggest for the attacker (to move), the
    root's trees deepened as root_trees.DEEPENING has them: each only a candidate (the module's
    docstring). After a certificate the caller rejects (it asks for the next) or a root move none is read
    back for, the core is asked again without that move (_Builder.nodes_of)."""
    if not rule.renju:
        raise ValueError("renju_candidates reads trees under renju only")
    builder = _Builder(game, rule, attacker_black, deadline)
    fours = builder.by_fours(attacker, defender)
    if fours is not None:
        yield fours
    for quiet, threes in DEEPENING:
        builder.nodes = 0
        for tree in builder.nodes_of(attacker, defender, threes, quiet, RENJU_READING_SHARE):
            if tree is not None:
                yield tree
            builder.nodes = 0


Certify = Callable[[Game, int, int, float], "WinTree | None"]  # (game, attacker, defender, deadline)


def certifier(variant: Variant) -> Certify | None:
    """How to read back the certificate of a win by threes on `variant`: on flat boards of five or more in
    a row, where the fours search plays (fours.py); None elsewhere (3-D boards: the win is proven, but
    no certificate is given)."""
    if variant.layers != 1 or variant.torus or variant.gravity or variant.misere or variant.k < 5:
        return None
    rule = Rule(variant.rows, variant.cols, variant.k, variant.exact, variant.renju)

    def certify(game: Game, attacker: int, defender: int, deadline: float) -> WinTree | None:
        return win_tree(game, rule, attacker, defender, False, MOST_THREES, deadline)

    return certify
