"""How long `sanmoku pbrain` thinks on one move, from the limits a Gomocup manager sends (INFO
timeout_turn, INFO time_left): always within the turn's limit, with a margin for what is not the search
(reading the command, the analysis' set-up, writing the answer), and never more than a share of what is
left of the match."""

from __future__ import annotations

from dataclasses import dataclass

# The protocol's time_left when a match has no time limit.
UNLIMITED_MS = 2_147_483_647
# The protocol names no default turn limit; without INFO timeout_turn a move takes at most this.
DEFAULT_TURN_MS = 5_000
# Of the turn's limit, the share the search may take, and a reserve besides. On an idle host an analysis
# stops within a few milliseconds of its budget (1.002 s for 1 s), and the rest of a turn (the BOARD lines
# read, the position checked, the answer written) takes a few more; on this 2-core host with a load average
# of 16, analyses of 0.3 s took up to 0.65 s: the process waits for a core.
TURN_SHARE = 0.8
TURN_RESERVE_S = 0.1
# Of what is left of the match, the most one move takes: the clock never runs out, and the later moves,
# where proofs are within reach, keep time.
MATCH_SHARE = 1 / 15
# timeout_turn 0 means "play as fast as possible": the analysis' first checks only (a line to complete,
# a line to block).
FASTEST_S = 0.01


@dataclass
class Clock:
    """The limits as the manager last set them, in milliseconds (None: not sent)."""

    turn_ms: int | None = None
    match_ms: int | None = None  # not used: a timed match sends time_left before every move
    left_ms: int | None = None

    def seconds(self) -> float:
        """The search's budget for the next move."""
        turn_ms = DEFAULT_TURN_MS if self.turn_ms is None else self.turn_ms
        if turn_ms <= 0:
            return FASTEST_S
        budget = turn_ms / 1000 * TURN_SHARE - TURN_RESERVE_S
        if self.left_ms is not None and self.left_ms < UNLIMITED_MS:
            budget = min(budget, self.left_ms / 1000 * MATCH_SHARE - TURN_RESERVE_S)
        return max(FASTEST_S, budget)
