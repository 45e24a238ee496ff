"""Hypothesis strategies shared by the engine tests: positions reached by random legal play."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from service.engine import MISERE, NORMAL, PRESETS, Position, Variant, get_variant

CLASSIC = (NORMAL, MISERE)
# Every kind of board the service serves: square, rectangular, torus, misère; small enough that the
# properties run in seconds (their tables are built once per session).
KINDS = (
    *PRESETS,
    *(get_variant(n) for n in ("2x6k4-torus", "4x3k3-misere", "3x5k3", "2x8k4-torus-misere", "5x3k3-torus")),
)


@st.composite
def played_positions(
    draw: st.DrawFn, max_plies: int | None = None, variants: Sequence[Variant] = CLASSIC
) -> Position:
    """Up to `max_plies` (default: a whole game) random legal moves from the empty board, of one of
    `variants` and either first player."""
    variant = draw(st.sampled_from(list(variants)))
    position = Position.empty(variant, draw(st.sampled_from("XO")))
    for _ in range(draw(st.integers(0, variant.cells if max_plies is None else max_plies))):
        if position.is_over:
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))
    return position
