"""A first player's win proven by following a strategy from elsewhere (books/strategy.py) and checking
every reply, so that nothing of the strategy is taken on trust.

The first player to move: a line completed at once wins; else, facing two of the other side's threes it
loses, facing one it blocks it; else it plays the strategy's move where the strategy holds the position;
else the proof-number search (core/dfpn.c) must prove the position a win within its nodes. The second
player to move: every empty cell is a reply, each followed in turn, but where the first player threatens
to complete a line (any other reply loses at once) or completes a line after it. A position of either
side is settled once per class under the board's symmetries.

What this proves does not depend on the strategy being right: a wrong move of it leaves a reply
unanswered, and the proof fails there (the position is reported). The strategy only chooses which move
of the first player's to prove; Qubic's dictionary (2,929 moves) chooses every quiet one, and the
search finds the forced wins between them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..books.strategy import Strategy
from ..rules.canonical import canonical
from .board import Board
from .budget import Cancel
from .native import Game, Limits, ProofTable, ask, threat_sequence, threats

# A position off the strategy: the proof-number search within LEAF_NODES, then a win by continuous threats
# looked for within SEQUENCE_NODES (Patashnik's program settled such positions by one), then the
# proof-number search within MORE_NODES. On Qubic after a corner the first alone left 156 of 303,884 such
# positions open. Of those, one needed 258,788 nodes of the proof-number search, where a sequence took
# 100,000 (1.5 ms); another a sequence of 1 to 3 million nodes (0.1 s), which the proof-number search did
# not find. Most positions are settled by the first: a sequence looked for first, within its budget,
# spent the whole of it in most of them.
LEAF_NODES = 20_000
SEQUENCE_NODES = 10_000_000
MORE_NODES = 2_000_000
SHOW_EVERY = 5_000  # first player's positions between two progress reports


@dataclass
class StrategyProof:
    proven: bool
    positions: int = 0  # of the first player to move, each class once
    by_strategy: int = 0  # of them, where the strategy's move was followed
    by_search: int = 0  # of them, settled by a threat sequence or the proof-number search
    nodes: int = 0  # of the proof-number searches
    seconds: float = 0.0  # processor seconds
    failed: tuple[int, int] | None = None  # (first, second), the first to move: the first position not won
    lost: list[tuple[int, int]] = field(default_factory=list)  # (first, second), the second to move: lost
    stopped: bool = False  # cancelled before the end


class _StoppedError(Exception):
    pass


class _Check:
    def __init__(
        self,
        board: Board,
        strategy: Strategy,
        table: ProofTable,
        cancel: Cancel,
        show: Callable[[StrategyProof], None],
    ) -> None:
        self.board, self.strategy, self.table, self.cancel, self.show = board, strategy, table, cancel, show
        self.game = Game(board)
        self.variant = strategy.variant
        self.report = StrategyProof(False)
        self.first_to_move: dict[tuple[int, int], bool] = {}
        self.second_to_move: dict[tuple[int, int], bool] = {}

    def first_wins(self, first: int, second: int) -> bool:
        """Whether the first player, to move, is proven to win."""
        if threats(self.game, first, second):
            return True
        key = canonical(self.variant, first, second)[1]
        known = self.first_to_move.get(key)
        if known is not None:
            return known
        self._count()
        blocks = threats(self.game, second, first)
        if blocks:
            won = not blocks & (blocks - 1) and self.every_reply(first | blocks, second)
        elif (move := self.strategy.move(first, second)) is not None:
            self.report.by_strategy += 1
            won = self.every_reply(first | 1 << move, second)
        else:
            won = self._searched(first, second)
        if not won and self.report.failed is None:
            self.report.failed = (first, second)
        self.first_to_move[key] = won
        return won

    def every_reply(self, first: int, second: int) -> bool:
        """Whether the first player wins after every reply of the second (to move)."""
        if threats(self.game, second, first):
            return False  # the second player completes a line
        key = canonical(self.variant, second, first)[1]
        known = self.second_to_move.get(key)
        if known is not None:
            return known
        wins = threats(self.game, first, second)
        replies = wins if wins else self.board.playable(first | second)
        if wins & (wins - 1):  # two cells to block: the second player cannot
            replies = 0
        won = True
        while won and replies:
            reply = replies & -replies
            replies ^= reply
            won = self.first_wins(first, second | reply)
        self.second_to_move[key] = won
        return won

    def _searched(self, first: int, second: int) -> bool:
        self.report.by_search += 1
        found = self._asked(first, second, LEAF_NODES)
        if found is None and threat_sequence(self.game, first, second, SEQUENCE_NODES) is not None:
            return True
        return (found or self._asked(first, second, MORE_NODES)) == 1

    def _asked(self, first: int, second: int, nodes: int) -> int | None:
        """The proof-number search's outcome within `nodes`: 1 a win, -1 none, None open."""
        found = ask(self.game, self.table, first, second, True, Limits(0, nodes, self.cancel.cell))
        self.report.nodes += found.nodes
        if self.cancel.is_set:
            raise _StoppedError
        return found.outcome or None

    def _count(self) -> None:
        self.report.positions += 1
        if self.report.positions % SHOW_EVERY == 0:
            self.show(self.report)
        if self.cancel.is_set:
            raise _StoppedError


def prove_by_strategy(
    board: Board,
    strategy: Strategy,
    first: int,
    second: int,
    table: ProofTable,
    cancel: Cancel,
    show: Callable[[StrategyProof], None] = lambda report: None,
) -> StrategyProof:
    """Whether the first player, with marks `first` against `second` and the second player to move,
    wins after every reply, by the strategy's moves and the search's forced wins."""
    check = _Check(board, strategy, table, cancel, show)
    started = time.process_time()
    try:
        check.report.proven = check.every_reply(first, second)
    except _StoppedError:
        check.report.stopped = True
    check.report.seconds = time.process_time() - started
    if check.report.proven:  # each position of the second player met, as its class's canonical image
        check.report.lost = [(first, second) for (second, first), won in check.second_to_move.items() if won]
    return check.report
