"""Trees of threes at the root, deepened a three at a time, before the proof-number search's questions.

The proof-number search looks for a tree of threes at each attacker's node it expands, with two threes and
200 nodes at most (core/dfpn.c): enough deep in its own tree, too little at the root of a gomoku position
a player asks about. Public puzzles won in three moves (tests/data/gomoku-puzzles/) take up to four
threes, and the search found none of those within a second; deepened here, the core's tree search
(core/threats.c) finds each in tens of milliseconds. Some start with a quiet move, after which the side
would win by fours were it to move again; trees with such quiet threes are looked for in turn.

Two questions, each a proof when answered yes:
- the side to move's tree: its first move wins;
- the other side's tree, as if the side to move passed: every move outside the tree's zone loses, as a
  move outside the zone of the proof-number search's own passing question does (results.py).
"""

from __future__ import annotations

from ..rules.variants import Variant
from .budget import Spending
from .native import Game, ThreesTree, threes_tree

# The share of the results' budget the two trees may take (WIN_TREE_SHARE of it for the side to move's,
# what is left for the other's): a tree found takes tens of milliseconds on the puzzles, a search that
# finds none takes its share. With 0.2 and half, one puzzle's tree of four threes (55,000 nodes, 70 ms)
# ran out of its time within the default second.
TREES_SHARE = 0.3
WIN_TREE_SHARE = 2 / 3
# Boards of this many cells or fewer answer as before the root's trees: their proof-number search and
# alpha-beta settle most positions within a request's budget, which the trees' share would only cut.
TREES_FROM_CELLS = 64
# The most threes a tree may have: a depth past it takes longer than a request's budget on 15x15.
MOST_THREES = 8
# The trees looked for in turn: (quiet, threes). A tree with quiet threes (core/threats.c) tries every
# cell of a line holding a mark of the attacker's, so each three costs far more; they come after the
# ordinary trees of three threes, which most puzzles need. On the 90 public puzzles won in three moves
# (tests/bench/gomoku_puzzles.py, 15x15k5, 1 s) this order proved 73, against 65 with no quiet threes;
# quiet ones after all eight ordinary depths, 67; after the first two ordinary depths, 71 (deeper
# ordinary trees ran out of time). Two quiet threes before four ordinary ones: as many (75, once the
# quiet trees tried fewer cells), two puzzles that need four ordinary threes lost for two others. Three
# quiet threes, once their moves were ordered (core/threats.c): one puzzle more under exactly five at
# 1 s, and 77 of 90 under each rule at 3 s.
DEEPENING = (
    (False, 1),
    (False, 2),
    (False, 3),
    (True, 1),
    (False, 4),
    (True, 2),
    (True, 3),
    *((False, threes) for threes in range(5, MOST_THREES + 1)),
)
# With no limit of time or nodes, each depth's search stops after this many nodes (about 5 s on 15x15).
NODES_WITHOUT_LIMIT = 10_000_000


def applies(variant: Variant) -> bool:
    """Whether the trees hold on the variant: the normal rule, marks anywhere. Under "exactly k" too,
    unlike the proof-number search: the core reads each line's flanks, so a mark of the attacker's
    beside a line takes that line's threats away (core/board.h), and a defender's mark there spoils
    nothing of the attacker's. Renju's black is another matter (its forbidden points): renju positions
    never reach the core under their own rule."""
    return not (variant.gravity or variant.misere or variant.renju)


def deepened_tree(game: Game, attacker: int, defender: int, spending: Spending) -> ThreesTree:
    """The tree of fewest threes by which `attacker`, to move, forces a line, one three deeper at a time
    within `spending` (charged to it), quiet threes in turn (DEEPENING); its `first` is None when none
    was found."""
    spent, stopped = 0, set()
    for quiet, threes in DEEPENING:
        if spending.spent:
            break
        if quiet in stopped:
            continue
        limits = spending.share()
        nodes = limits.nodes or (0 if limits.deadline else NODES_WITHOUT_LIMIT)
        tree = threes_tree(game, attacker, defender, threes, nodes, limits.deadline, quiet)
        spending.charge(tree)
        spent += tree.nodes
        if tree.first is not None:
            return tree._replace(nodes=spent)
        if nodes and tree.nodes >= nodes:
            stopped.add(quiet)  # a deeper search would stop sooner still
    return ThreesTree(None, 0, spent)
