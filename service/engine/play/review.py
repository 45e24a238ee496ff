"""Reviewing a played game: every ply judged against perfect play, and a tally per side."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..answer import Answers, table_answers
from ..errors import IllegalMoveError, IllegalSequenceError, InvalidPositionError
from ..rules.position import EMPTY, MARKS, ROW_SEPARATOR, Mark, Position, Status
from ..rules.values import Known
from ..rules.variants import Variant
from ..tables.table import Table

_UNREADABLE = ("wrong_length", "wrong_shape", "bad_character")


class Verdict(StrEnum):
    BEST = "best"  # the move keeps the position's exact value
    SLOWER = "slower"  # same result, but a slower win or a faster loss
    MISTAKE = "mistake"  # win to draw, or draw to loss
    BLUNDER = "blunder"  # win to loss
    UNKNOWN = "unknown"  # a search did not prove enough to tell (boards with no table)


@dataclass(frozen=True)
class PlyReview:
    ply: int  # 1-based
    player: str  # X or O: who moved
    cell: int
    before: Known  # the position's value before the move, for the mover, as far as it is proven
    played: Known  # the value of the move played, for the mover, likewise
    best_moves: tuple[int, ...]  # the moves proven best
    verdict: Verdict


@dataclass(frozen=True)
class SideSummary:
    player: str
    best: int
    slower: int
    mistake: int
    blunder: int
    unknown: int

    @classmethod
    def of(cls, player: str, plies: Sequence[PlyReview]) -> SideSummary:
        counts = Counter(p.verdict for p in plies if p.player == player)
        return cls(player, *(counts[v] for v in Verdict))

    @property
    def moves(self) -> int:
        return self.best + self.slower + self.mistake + self.blunder + self.unknown


@dataclass(frozen=True)
class Review:
    variant: str
    first: str
    plies: tuple[PlyReview, ...]
    final: Position
    summaries: tuple[SideSummary, SideSummary]  # X, then O

    @property
    def status(self) -> Status:
        return self.final.status

    def summary(self, player: str) -> SideSummary:
        return self.summaries[MARKS.index(player)]


def judge(before: Known, played: Known) -> Verdict:
    """How much value the move gave away: exactly when both values are proven; by the proven bounds
    otherwise (the least it gave away names the verdict when that is at least a result); else unknown."""
    if before.value is not None and played.value is not None:
        drop = before.lower - played.lower
        if drop == 0:
            return Verdict.BEST if played.value == before.value else Verdict.SLOWER
    else:
        drop = before.lower - played.upper  # the least it gave away
        if drop <= 0:
            return Verdict.UNKNOWN
    return Verdict.BLUNDER if drop >= 2 else Verdict.MISTAKE


def review_game(
    answers: Table | Answers, moves: Sequence[int], first: str = "X", variant: Variant | None = None
) -> Review:
    """Replay `moves` (cells) from the empty board with `first` to move, judging each from `answers` (a
    table, or any source of answers with its `variant`); raise IllegalSequenceError."""
    analyze, variant = _source(answers, variant)
    position = _start(variant, first)
    plies = []
    for ply, cell in enumerate(moves, 1):
        try:
            child = position.play(cell)
        except IllegalMoveError as error:
            raise IllegalSequenceError(error.code, f"ply {ply}: {error.message}", "moves", ply) from None
        answer = analyze(position)
        played = answer.move(cell).known
        verdict = judge(answer.known, played)
        plies.append(PlyReview(ply, position.to_move, cell, answer.known, played, answer.best_moves, verdict))
        position = child
    summaries = (SideSummary.of(MARKS[0], plies), SideSummary.of(MARKS[1], plies))
    return Review(variant.name, _first(first), tuple(plies), position, summaries)


def _source(answers: Table | Answers, variant: Variant | None) -> tuple[Answers, Variant]:
    if isinstance(answers, Table):
        return table_answers(answers), answers.variant
    if variant is None:
        raise ValueError("a source of answers other than a table comes with its variant")
    return answers, variant


def review_boards(
    answers: Table | Answers, boards: Sequence[str], first: str = "X", variant: Variant | None = None
) -> Review:
    """Review a game given as the board after each ply (see `moves_from_boards`)."""
    analyze, variant = _source(answers, variant)
    return review_game(analyze, moves_from_boards(boards, first, variant), first, variant)


def moves_from_boards(boards: Sequence[str], first: str, variant: Variant) -> list[int]:
    """The cells played, from the board after each ply (the empty start board is not listed).

    Each board must add exactly one mark, of the side to move, to the one before. A board that cannot
    be read (code wrong_length or bad_character), breaks that rule (bad_step), adds a mark that is not
    the lowest empty cell of its column under gravity (not_lowest) or comes after the end of the game
    (game_over) raises IllegalSequenceError for its ply.
    """
    position = _start(variant, first)
    cells = []
    for ply, board in enumerate(boards, 1):
        _refuse_after_the_end(position, ply, "boards")
        cell = _step(position, _read(board, variant, ply), ply)
        cells.append(cell)
        try:
            position = position.play(cell)
        except IllegalMoveError as error:  # under gravity: a mark that is not its column's lowest
            raise IllegalSequenceError(error.code, f"ply {ply}: {error.message}", "boards", ply) from None
    return cells


def moves_from_columns(columns: Sequence[int], first: str, variant: Variant) -> list[int]:
    """The cells played on a gravity board, from the column of each ply (0 for the leftmost; on a box,
    the place of a layer its marks fall through, numbered row by row): the lowest empty cell of that
    column. A column out of range or full, a game already over, or a board without gravity raises
    IllegalSequenceError for its ply."""
    if not variant.gravity:
        message = f"the {variant.name} board has no gravity: give the game's moves as cells or boards"
        raise IllegalSequenceError("no_gravity", message, "columns", 1)
    position = _start(variant, first)
    count = position.geometry.step_down  # the columns: a row's cells, or a layer's
    cells = []
    for ply, column in enumerate(columns, 1):
        _refuse_after_the_end(position, ply, "columns")
        if not 0 <= column < count:
            message = f"ply {ply}: column {column} is not between 0 and {count - 1}"
            raise IllegalSequenceError("column_out_of_range", message, "columns", ply)
        landing = [cell for cell in position.legal_moves() if cell % count == column]
        if not landing:
            raise IllegalSequenceError("column_full", f"ply {ply}: column {column} is full", "columns", ply)
        cells.append(landing[0])
        position = position.play(landing[0])
    return cells


def _refuse_after_the_end(position: Position, ply: int, field: str) -> None:
    if position.is_over:
        message = f"ply {ply}: the game is already over ({position.status.value})"
        raise IllegalSequenceError("game_over", message, field, ply)


def _read(board: str, variant: Variant, ply: int) -> str:
    """The board with X, O and EMPTY only, rows unseparated; raise for a wrong shape or character."""
    try:
        Position.parse(board, None, variant)
    except InvalidPositionError as error:
        # Only a board that cannot be read is reported as such. A board one legal mark from the last
        # is always valid, so any other board fails the step check with a message about the step.
        if error.code in _UNREADABLE:
            raise IllegalSequenceError(error.code, f"ply {ply}: {error.message}", "boards", ply) from None
    return "".join(mark if mark in MARKS else EMPTY for mark in board.upper() if mark != ROW_SEPARATOR)


def _first(first: str) -> Mark:
    side = first.upper()
    if side not in MARKS:
        raise InvalidPositionError("bad_side_to_move", f"first is {first!r}; use X or O", "first")
    return Mark(side)


def _start(variant: Variant, first: str) -> Position:
    return Position.empty(variant, _first(first))


def _step(position: Position, cells: str, ply: int) -> int:
    changed = [i for i, (old, new) in enumerate(zip(position.cells, cells, strict=True)) if old != new]
    mover = position.to_move
    if len(changed) == 1 and position.cells[changed[0]] == EMPTY and cells[changed[0]] == mover:
        return changed[0]
    found = f"it changes cells {', '.join(map(str, changed))}" if changed else "it is the same board"
    message = f"ply {ply}: the board must add one {mover} to the previous board; {found}"
    raise IllegalSequenceError("bad_step", message, "boards", ply)
