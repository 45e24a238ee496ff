"""What an answer under renju may claim: the compiled search, the tables, the books and the store of
proofs know nothing of forbidden points, so none of them proves anything there. A renju answer's
proofs come from the rules: continuous fours (fours_proofs.py, which asks the rules of every stone, the
analyst's); wins by threes, from the core's trees checked node by node under the rules
(`renju_win`: win_tree.renju_candidates, renju_certificate.py) or from the plain search of threes
(threes.py); and two plies deep: a move that wins at once (black's exactly five, white's five or more)
wins in 1; a move after which the opponent wins at once (a five the move does not block) loses in 2.
Every other move is a guess: the search plays the same stones under freestyle rules (`freestyle`), and
what it finds, proven there or not, only ranks the moves (`guess`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..rules.known_move import Estimate, KnownMove
from ..rules.position import Mark, Position
from .board import Board
from .fours import Rule
from .native import Game
from .renju_certificate import holds
from .win_tree import WinTree, renju_candidates

# A freestyle proof read as a guess: far above any heuristic score, a faster win (a slower loss) higher.
PROVEN_GUESS = 1_000_000


def freestyle(position: Position) -> Position:
    """The same stones under freestyle rules (five or more wins, no forbidden point), as the search
    plays them."""
    return Position(replace(position.variant, renju=False), position.x, position.o, position.to_move)


def winning_cells(position: Position, mark: Mark) -> int:
    """The empty cells where a stone of `mark` wins at once under renju (black's five must be exactly
    five: such a move is never forbidden), as a mask."""
    geometry, lines = position.lines_geometry(mark), position.geometry.lines
    mine, empty = position.mask(mark), position.geometry.full & ~(position.x | position.o)
    found = 0
    for line in lines:
        gap = line & ~mine
        if gap.bit_count() == 1 and gap & empty and not found & gap and geometry.holds_line(mine | gap):
            found |= gap
    return found


def renju_moves(position: Position, searched: Iterable[KnownMove] = ()) -> list[KnownMove]:
    """Every legal move of a renju position, proven where the rules alone prove it, else a guess with
    the estimate made from what the freestyle search said of it (`searched`)."""
    if not position.variant.renju:
        raise ValueError(f"{position.variant.name} is not played under renju")
    moves = position.legal_moves()
    position.forbidden  # noqa: B018  (decided here, off the caller's loop: the answer lists them)
    wins = winning_cells(position, position.to_move)
    threats = winning_cells(position, position.to_move.other)
    last = (position.x | position.o).bit_count() + 1 == position.variant.cells
    said = {move.cell: move for move in searched}
    out = []
    for cell in moves:
        bit = 1 << cell
        if wins & bit:
            out.append(KnownMove(cell, 1, 1, 1))
        elif last:
            out.append(KnownMove(cell, 0, 0, 1))  # the board is full: a draw
        elif threats & ~bit:
            out.append(KnownMove(cell, -1, -1, 2))  # the opponent completes a five the move leaves open
        else:
            out.append(KnownMove(cell, -1, 1, None, guess(said.get(cell))))
    return out


def freestyle_result(estimate: Estimate | None) -> int:
    """The result a guess's estimate says the freestyle search proved (`guess`): +1 a win, -1 a loss,
    0 a draw or nothing proven. Such a guess ranks before the threat shapes (answer.py, `ordered`)."""
    if estimate is None or abs(estimate.score) < PROVEN_GUESS // 2:
        return 0
    return 1 if estimate.score > 0 else -1


def guess(searched: KnownMove | None) -> Estimate | None:
    """The freestyle search's word on a move as an estimate: its estimate, or its proof read as one."""
    if searched is None:
        return None
    if searched.lower != searched.upper:
        return searched.estimate
    plies = searched.remoteness or 0
    score = 0 if searched.lower == 0 else searched.lower * (PROVEN_GUESS - plies)
    return Estimate(score, plies)


def renju_win(position: Position, deadline: float) -> WinTree | None:
    """The side to move's win by threes under renju: the first certificate the core's trees suggest
    (win_tree.renju_candidates) that holds under the rules (renju_certificate.py), found before
    `deadline` (on monotonic(); 0: none). The core plays black's lines as exactly five where black
    attacks, and white's as five or more where white does: each side's own fives."""
    variant = position.variant
    mark = position.to_move
    black = mark is position.first
    core_rule = replace(variant, renju=False, exact=black)
    game = Game.of(Board.of(core_rule))
    rule = Rule.of(position)
    att, dfn = position.mask(mark), position.mask(mark.other)
    for tree in renju_candidates(game, rule, att, dfn, black, deadline):
        if holds(rule, att, dfn, black, tree, deadline):
            return tree
    return None
