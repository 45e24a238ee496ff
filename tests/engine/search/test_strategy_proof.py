"""A first player's win proven by following a strategy (search/strategy_proof.py), against the tests' own
brute force: a right strategy is proven, a strategy with one losing move is not (and the position where
it fails is one the first player does not win), a drawn board never is; and Patashnik's Qubic dictionary
(books/strategy.py) read, checked, and proven on a deep line of it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from service.engine import (
    Cancel,
    EngineError,
    Mark,
    Position,
    ProofProgress,
    ProofRun,
    ProvenCache,
    get_variant,
)
from service.engine.books import strategy as strategy_module
from service.engine.books.strategy import QUBIC, Strategy, parse, strategy_for
from service.engine.rules.canonical import canonical
from service.engine.rules.variants import Variant
from service.engine.search import Board, proof_run
from service.engine.search.native import ProofTable
from service.engine.search.strategy_proof import prove_by_strategy


class BruteForce:
    """Whether the first player, to move, completes a line before the second can: every move tried."""

    def __init__(self, variant: Variant) -> None:
        self.board = Board.of(variant)

    def completes(self, mine: int, theirs: int) -> bool:
        return any(line & mine == line for line in self.board.lines if not line & theirs)

    @cache  # noqa: B019 - one instance per test
    def first_wins(self, first: int, second: int) -> bool:
        empty = self.board.full & ~(first | second)
        for move in (1 << c for c in range(self.board.cells) if empty >> c & 1):
            after = first | move
            if self.completes(after, second):
                return True
            rest = self.board.full & ~(after | second)
            if rest and all(
                not self.completes(second | r, after) and self.first_wins(after, second | r)
                for r in (1 << c for c in range(self.board.cells) if rest >> c & 1)
            ):
                return True
        return False

    def wins(self, mine: int, theirs: int) -> int:
        """The empty cells where `mine` would complete a line."""
        out = 0
        for line in self.board.lines:
            left = line & ~mine
            if not line & theirs and left and not left & (left - 1):
                out |= left
        return out

    def winning_moves(self, first: int, second: int) -> list[int]:
        empty = self.board.full & ~(first | second)
        return [c for c in range(self.board.cells) if empty >> c & 1 and self._wins_by(first, second, c)]

    def _wins_by(self, first: int, second: int, cell: int) -> bool:
        after = first | 1 << cell
        if self.completes(after, second):
            return True
        rest = self.board.full & ~(after | second)
        return bool(rest) and all(
            not self.completes(second | 1 << r, after) and self.first_wins(after, second | 1 << r)
            for r in range(self.board.cells)
            if rest >> r & 1
        )


def strategy_of(variant: Variant, moves: dict[tuple[int, int], int]) -> Strategy:
    """A strategy of the given moves, {(first player's marks, second's): move}, as a dictionary's."""
    by_class = {}
    for (first, second), move in moves.items():
        symmetry, key = canonical(variant, first, second)
        by_class[key] = symmetry[move]
    return Strategy(variant, QUBIC, by_class)


def quiet_positions(brute: BruteForce, first: int, second: int) -> dict[tuple[int, int], int]:
    """The lowest winning move at each quiet position (no line to complete or block, one of each class)
    the first player meets playing it, after `first`, `second` and every reply: where the check reads
    the strategy."""
    out: dict[tuple[int, int], int] = {}
    seen: set[tuple[int, int]] = set()
    variant = brute.board.variant

    def walk(f: int, s: int) -> None:
        for r in range(brute.board.cells):
            after = s | 1 << r
            if (
                (f | s) >> r & 1
                or brute.completes(after, f)
                or brute.completes(f | brute.wins(f, after), after)
            ):
                continue
            key = canonical(variant, f, after)[1]
            if key in seen:
                continue
            seen.add(key)
            block = brute.wins(after, f)
            move = block.bit_length() - 1 if block else brute.winning_moves(f, after)[0]
            if not block:
                out[(f, after)] = move
            walk(f | 1 << move, after)

    walk(first, second)
    return out


def test_a_winning_strategy_is_proven_and_a_wrong_move_is_caught() -> None:
    variant = get_variant("3x4k3")
    brute, board = BruteForce(variant), Board.of(variant)
    opening = 5  # a middle cell: the first player wins (the brute force)
    assert brute.first_wins(0, 0) and opening in brute.winning_moves(0, 0)
    moves = quiet_positions(brute, 1 << opening, 0)
    right = prove_by_strategy(board, strategy_of(variant, moves), 1 << opening, 0, ProofTable(12), Cancel())
    assert right.proven and right.by_strategy == len(moves) > 0 and right.failed is None

    # each quiet position in turn given a move that does not win there: the search never replaces it
    caught = 0
    for first, second in moves:
        empty = board.full & ~(first | second)
        losing = [
            c for c in range(board.cells) if empty >> c & 1 and c not in brute.winning_moves(first, second)
        ]
        if not losing:
            continue
        wrong = {**moves, (first, second): losing[0]}
        report = prove_by_strategy(
            board, strategy_of(variant, wrong), 1 << opening, 0, ProofTable(12), Cancel()
        )
        assert not report.proven and report.failed is not None
        assert not brute.first_wins(*report.failed)
        caught += 1
    assert caught >= 3


def test_a_drawn_board_is_never_proven() -> None:
    variant = get_variant("3x3k3")
    board = Board.of(variant)
    for opening in (0, 1, 4):  # a corner, an edge, the centre: none wins
        report = prove_by_strategy(board, strategy_of(variant, {}), 1 << opening, 0, ProofTable(12), Cancel())
        assert not report.proven and report.failed is not None


def test_the_qubic_dictionary_is_read_whole_and_checked() -> None:
    qubic = strategy_for(get_variant("4x4x4k4"))
    assert qubic is not None and len(qubic) == 2929  # its header: 2,929 strategic moves
    assert qubic.move(0, 0) == 0  # the first move: a corner
    assert strategy_for(get_variant("4x4x4k4-misere")) is None
    with pytest.raises(EngineError, match="a position and a move"):
        parse(qubic.variant, "-" * 41 + "\nx14q 12\n", "bad")
    with pytest.raises(EngineError, match="first player's move"):
        parse(qubic.variant, "-" * 41 + "\nx14o 0\n", "bad")


def test_a_changed_dictionary_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    changed = strategy_module.StrategyFile(QUBIC.variant, QUBIC.name, "0" * 64, QUBIC.source)
    monkeypatch.setitem(strategy_module.FILES, QUBIC.variant, changed)
    strategy_for.cache_clear()
    try:
        with pytest.raises(EngineError, match="not the file as published"):
            strategy_for(get_variant("4x4x4k4"))
    finally:
        strategy_for.cache_clear()


@pytest.mark.parametrize("entry", ["xxox3o7x5o9o9o18xo1x 48", "xxox8x2o5o19o 48"])
def test_a_deep_line_of_the_qubic_dictionary_is_proven(entry: str) -> None:
    """After the dictionary's move in one of its late positions, every reply is met (its last entries)."""
    variant = get_variant("4x4x4k4")
    qubic = strategy_for(variant)
    assert qubic is not None
    first, second, move = strategy_module._line(variant, entry, "test")
    assert qubic.move(first, second) == move
    report = prove_by_strategy(Board.of(variant), qubic, first | 1 << move, second, ProofTable(16), Cancel())
    assert report.proven and report.failed is None and report.positions > 0


@pytest.mark.parametrize(("right", "every_reply"), [(True, False), (False, False), (True, True)])
def test_a_proof_run_follows_a_strategy_and_never_trusts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, right: bool, every_reply: bool
) -> None:
    """`sanmoku prove` checks a strategy's first move before any slice; a strategy with a losing move
    proves nothing, and the run's own jobs settle the board as they would without it."""
    variant = get_variant("3x4k3")
    brute = BruteForce(variant)
    opening = 5
    moves = {(0, 0): opening, **quiet_positions(brute, 1 << opening, 0)}
    if not right:
        first, second = next(
            p
            for p in moves
            if p != (0, 0) and len(brute.winning_moves(*p)) < variant.cells - (p[0] | p[1]).bit_count()
        )
        empty = brute.board.full & ~(first | second)
        moves[(first, second)] = next(
            c for c in range(variant.cells) if empty >> c & 1 and c not in brute.winning_moves(first, second)
        )
    monkeypatch.setattr(
        proof_run, "strategy_for", lambda v: strategy_of(variant, moves) if v == variant else None
    )
    position = Position.empty(variant)
    shown: list[ProofProgress] = []
    run = ProofRun(position, tmp_path, 12, every_reply=every_reply)
    assert run.run(60.0, 5.0, Cancel(), shown.append) == 1
    assert shown[0].note.startswith("strategy proven" if right else "strategy failed")
    assert shown[0].done == (1 if right else 0)  # the move's job, not its replies' (every_reply)
    kept = ProvenCache(tmp_path).get(position)
    assert kept is not None
    wins = {m.cell for m in kept.moves if m.lower == 1}
    assert wins and all(c in brute.winning_moves(0, 0) for c in wins)
    if right:  # and the other side's positions the check met are kept lost, every move of each
        assert opening in wins
        after = ProvenCache(tmp_path).get(Position(variant, 1 << opening, 0, Mark.O))
        assert after is not None and all(m.lower == m.upper == -1 for m in after.moves)
        assert len(after.moves) == variant.cells - 1
        assert all(brute.first_wins(1 << opening, 1 << m.cell) for m in after.moves)
