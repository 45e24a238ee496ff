"""Hypothesis strategy shared by the engine tests: positions reached by random legal play."""

from __future__ import annotations

from hypothesis import strategies as st

from service.engine import VARIANTS, Position


@st.composite
def played_positions(draw: st.DrawFn, max_plies: int = 9) -> Position:
    """Up to `max_plies` random legal moves from the empty board, of either variant and first player."""
    variant = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    position = Position.empty(variant, draw(st.sampled_from("XO")))
    for _ in range(draw(st.integers(0, max_plies))):
        if position.is_over:
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position
