"""What a request cost the worker that answered it, in the units of the published rate limits
(rate_limits.py): 1 for each position answered (a batch's positions, one each), and
SEARCH_UNITS_PER_SECOND for each second a search ran (rounded up, at least 1 for a request that searched).

A search's cost is known only once it ran: the views note what they did here, in the request's own
context, and the limiter deducts the sum after the answer. Outside a request (the command line renders
answers too) nothing is noted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flask import g, has_request_context

from ..engine import Answer, GameAnswers, GamePosition, Source

# A worker answers about 2,000 table lookups a second on one core, and runs 2 searches at once (its
# search slots), each up to 2 threads for its budget (1 s by default). A slot is the scarce thing: one
# second of it costs 30 units, so a client at the default quota (1,200 a minute) holds at most two thirds
# of one slot, a sixth of a default host's four; the same quota spent on lookups is 20 a second, about 1 %
# of what the host answers. docs/pages/api.md publishes these numbers.
SEARCH_UNITS_PER_SECOND = 30
_NOTE = "sanmoku_request_cost"


@dataclass
class Cost:
    positions: int = 0
    searches: int = 0
    search_seconds: float = 0.0

    def units(self) -> int:
        searched = 0
        if self.searches:
            searched = max(1, math.ceil(self.search_seconds * SEARCH_UNITS_PER_SECOND))
        return max(1, self.positions) + searched


def current() -> Cost:
    """This request's cost so far; a fresh one (1 unit) before its view ran or outside a request."""
    if not has_request_context():
        return Cost()
    cost: Cost | None = g.get(_NOTE)
    if cost is None:
        cost = Cost()
        setattr(g, _NOTE, cost)
    return cost


def positions(count: int = 1) -> None:
    if has_request_context():
        current().positions += count


def searched(seconds: float) -> None:
    if has_request_context():
        cost = current()
        cost.searches += 1
        cost.search_seconds += seconds


def counted(answers: GameAnswers) -> GameAnswers:
    """`answers` (a position's answer, from any source) noting the searches it ran."""

    def answer(position: GamePosition) -> Answer:
        found = answers(position)
        if found.source is Source.SEARCH:
            searched(found.seconds)
        return found

    return answer
