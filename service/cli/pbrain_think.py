"""Sanmoku's move in a Gomocup game: the analysis `/analyze` makes (the `Analyst`: a table, a book, the
proven store or a search within a budget), then a choice among its moves.

- A proven win is played, the fastest proven first. The analysis proves each move's result before any
  win's length, and on a wide board its results take the whole budget; so when the win it plays has no
  length yet, the position after it is analysed with the time kept for that: there the opponent's
  replies mostly lose at once, and its loss, with its length, is proven in milliseconds.
- A move is forced when every other is proven to lose (a four to block): it is played at once.
- Else the move is the best guess: of the moves with the best proven bounds, the one the engine ranks
  first, by its threat shapes on five in a row (service/engine/search/shapes.py, as every answer).

A first short look answers at once what needs no search (a five to complete, a four to block, a position
proven before); the time left of the move goes to the full analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from time import monotonic

from ..engine import Analyst, Answer, Budget, Cancel, KnownMove, Position, Variant
from .pbrain_threats import opponent_fives

GLANCE_S = 0.05  # the first look: the moves that end the game, and the store, are read within it
# Of the time after the first look, the share kept for a proven win's length (unused otherwise).
DISTANCE_SHARE = 0.25
DISTANCE_TRIES = 3  # proven wins whose length is sought, best shape first


@dataclass(frozen=True)
class Choice:
    cell: int
    said: str  # what was proven of it, for a MESSAGE line
    ranked: tuple[KnownMove, ...]  # every move, best first (YXNBEST lists them)
    distances: dict[int, int]  # a proven win's length found after the analysis, by cell


def plies(count: int) -> str:
    return f"{count} {'ply' if count == 1 else 'plies'}"


def verdict(move: KnownMove, distance: int | None = None) -> str:
    """What is proven of one move, from the side that plays it."""
    distance = move.remoteness if distance is None else distance
    if move.lower == move.upper:
        result = {1: "proven win", 0: "proven draw", -1: "proven loss"}[move.lower]
        if move.lower == 0 or distance is None:
            return result
        return f"{result} in {plies(distance)}"
    if move.lower == 0:
        return "at least a draw, proven"
    if move.upper == 0:
        return "at most a draw, proven"
    return "not proven"


class Thinker:
    def __init__(self, analyst: Analyst) -> None:
        self.analyst = analyst
        self.cancel = Cancel()  # set by another thread (END, STOP): the analysis stops within milliseconds
        self.busy = False  # a move is being chosen

    def warm(self, variant: Variant) -> None:
        """Make the search's tables, `variant`'s board and the proven store now (START), not within the
        first move's time: a second and more the first time here, a tenth of one for another board."""
        self.analyst.pool.warm()
        self.analyst.analyze(Position.empty(variant), Budget(0.0))

    def choose(self, position: Position, seconds: float) -> Choice:
        """Sanmoku's move in `position` (it is to move, the game is not over) within `seconds`."""
        self.cancel.clear()
        self.busy = True
        try:
            return self._choose(position, seconds)
        finally:
            self.busy = False

    def _choose(self, position: Position, seconds: float) -> Choice:
        deadline = monotonic() + seconds
        answer = self._analyze(position, min(GLANCE_S, seconds))
        won_now = answer.moves[0].lower == 1 and answer.moves[0].remoteness == 1
        blocks = [] if won_now else opponent_fives(position)
        ranked = answer.moves  # best first, the guesses by threat shapes (answer.py, `ordered`)
        if len(blocks) == 1 and blocks[0] in {move.cell for move in ranked}:  # (under renju it may not be)
            return Choice(blocks[0], "forced: every other move loses in 2 plies", ranked, {})
        if not _settled(answer) and not self.cancel.is_set:
            answer = self._analyze(position, (deadline - monotonic()) * (1 - DISTANCE_SHARE))
        ranked = answer.moves
        best = ranked[0]
        distances: dict[int, int] = {}
        if best.lower == best.upper == 1 and best.remoteness is None:
            distances = self._win_lengths(position, ranked, deadline)
            if distances:
                best = next(m for m in ranked if m.cell == min(distances, key=lambda c: (distances[c], c)))
        if sum(move.upper > -1 for move in ranked) == 1 and best.lower < best.upper:
            said = "forced: every other move is proven to lose"
        elif best.lower == best.upper:
            said = verdict(best, distances.get(best.cell))
        else:
            spent = seconds - (deadline - monotonic())
            said = f"nothing proven in {spent * 1000:.0f} ms: the best guess by shape"
        return Choice(best.cell, said, ranked, distances)

    def _analyze(self, position: Position, seconds: float) -> Answer:
        return self.analyst.analyze(position, Budget(max(0.0, seconds), cancel=self.cancel))

    def _win_lengths(
        self, position: Position, ranked: tuple[KnownMove, ...], deadline: float
    ) -> dict[int, int]:
        """The lengths of the proven wins the analysis left without one: each from the position after
        it, whose loss for the opponent the analysis proves with its length."""
        wins = [move for move in ranked if move.lower == 1 and move.remoteness is None][:DISTANCE_TRIES]
        found: dict[int, int] = {}
        for tried, move in enumerate(wins):
            left = deadline - monotonic()
            if left <= 0 or self.cancel.is_set:
                break
            after = self._analyze(position.play(move.cell), left / (len(wins) - tried))
            value = after.value
            if value is not None and value.score == -1:
                found[move.cell] = value.remoteness + 1
        return found


def _settled(answer: Answer) -> bool:
    """Whether the first look already decides the move: everything proven, a win of a known length, or
    a single move not proven to lose."""
    top = answer.moves[0]
    won = top.lower == 1 and top.remoteness is not None
    return answer.exact or won or sum(move.upper > -1 for move in answer.moves) == 1
