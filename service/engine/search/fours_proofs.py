"""What wins by continuous fours (fours.py) prove of an analysis's moves, on boards of five in a row under
any of gomoku's rules:

- the side to move's win: its first move wins, within the line's length (its certificate, kept with the
  answer);
- the other side's win were the side to move to pass: every move that changes nothing the line depends
  on loses, within one more ply. Such a move is one off every window of k cells through a cell of the
  line (it blocks none of the attacker's fours or its five, and joins none of the defender's forced
  replies in a line of its own) that makes no four of its own (a four would force an answer first).
  Under renju a stone can also change which of black's moves are forbidden, far along a line; there each
  move is asked in turn instead, as long as the time lasts.

Every claim is a proof: the defender's replies on a line are forced, and a move's result is only ever
narrowed to what a line proves.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from ..rules.known_move import KnownMove
from ..rules.position import Position
from .fours import Rule, continuous_fours, five_cells, four_moves, windows
from .native import monotonic

WIN, LOSS = 1, -1
LOG = logging.getLogger(__name__)


def applies(position: Position) -> bool:
    """Flat boards of rows and columns, marks anywhere, five or more in a line."""
    variant = position.variant
    flat = variant.layers == 1 and not (variant.torus or variant.gravity or variant.misere)
    return flat and variant.k >= 5


@dataclass(frozen=True)
class FoursClaims:
    """What continuous fours proved of a position's moves: the side to move's win (its line, the first
    cell its move) and the moves lost, each with the most plies its result takes."""

    line: tuple[int, ...] = ()
    losses: dict[int, int] = field(default_factory=dict)

    def narrow(self, moves: list[KnownMove]) -> list[KnownMove]:
        """`moves` with these results proven (each `within` its bound)."""
        out = []
        for move in moves:
            if self.line and move.cell == self.line[0]:
                move = narrowed_by_proof(move, WIN, len(self.line))
            elif move.cell in self.losses:
                move = narrowed_by_proof(move, LOSS, self.losses[move.cell])
            out.append(move)
        return out


def fours_claims(position: Position, deadline: float) -> FoursClaims:
    """The side to move's win by fours and the moves the other side's fours win against, as far as
    found before `deadline` (on monotonic())."""
    if position.is_over:
        return FoursClaims()
    line = continuous_fours(position, deadline)
    losses = _losses(position, position.legal_moves(), deadline) if monotonic() < deadline else {}
    return FoursClaims(tuple(line or ()), losses)


def _losses(position: Position, cells: list[int], deadline: float) -> dict[int, int]:
    """The moves proven lost by the other side's fours, each with the plies its loss takes at most."""
    rule = Rule.of(position)
    mover = position.to_move
    mine, theirs = position.mask(mover), position.mask(mover.other)
    black = mover is position.first
    answered = set(five_cells(mine, theirs, rule, black))  # a five of its own ends the game first
    fours = set(four_moves(mine, theirs, rule))  # a move that may make a four: asked, not assumed
    if rule.renju:
        out = {}
        for cell in cells:
            if cell in answered or monotonic() >= deadline:
                continue
            line = continuous_fours(position.play(cell), deadline)
            if line is not None:
                out[cell] = 1 + len(line)
        return out
    line = continuous_fours(position, deadline, attacker_moves=False)
    if line is None:
        return {}
    masks, through = windows(rule.rows, rule.cols, rule.k)
    zone = 0
    for cell in line:
        for index in through[cell]:
            zone |= masks[index]
    return {
        cell: 1 + len(line)
        for cell in cells
        if not zone >> cell & 1 and cell not in answered and cell not in fours
    }


def narrowed_by_proof(move: KnownMove, result: int, plies: int) -> KnownMove:
    """The move with its result proven (if it was not), within `plies`; unchanged, and the disagreement
    logged, if what was proven before says otherwise (no answer may hold two results)."""
    if not move.lower <= result <= move.upper:
        LOG.error(
            "continuous fours prove %d of move %d, proven %d to %d", result, move.cell, move.lower, move.upper
        )
        return move
    if move.lower == move.upper and move.remoteness is not None:
        return move  # the exact distance is known
    within = plies if move.within is None else min(plies, move.within)
    return move._replace(lower=result, upper=result, within=within)
