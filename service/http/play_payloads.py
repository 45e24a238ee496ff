"""Moves and reviews as JSON: the computer's move and what a played game is worth, ply by ply."""

from __future__ import annotations

from ..engine import Answer, Policy, Position, Review
from .payloads import Json, known_payload, lines_payload, move_place


def policy_payload(policy: Policy) -> Json:
    return {
        "name": policy.name,
        "summary": policy.summary,
        "uses_seed": policy.uses_seed,
        "uses_depth": policy.uses_depth,
    }


def move_choice_payload(answer: Answer, cell: int, policy: str) -> Json:
    """The move `policy` chose, its value as far as it is proven, and whether it is a proven best move."""
    before = answer.position
    after = before.play(cell)
    return {
        **move_place(before, cell),
        "player": before.to_move,
        "board": after.cells,
        "to_move": after.to_move,
        "status": after.status.value,
        "lines": lines_payload(after),
        **known_payload(answer.move(cell).known),
        "proven_best": cell in answer.best_moves,
        "source": answer.source.value,
        "policy": policy,
        "variant": before.variant.name,
    }


def review_payload(review: Review, start: Position) -> Json:
    plies = []
    position = start
    for ply in review.plies:
        place = move_place(position, ply.cell)
        position = position.play(ply.cell)
        plies.append(
            {
                "ply": ply.ply,
                "player": ply.player,
                **place,
                "board": position.cells,
                "before": known_payload(ply.before),
                "played": known_payload(ply.played),
                "best_moves": list(ply.best_moves),
                "verdict": ply.verdict.value,
            }
        )
    summary = {
        s.player: {
            "best": s.best,
            "slower": s.slower,
            "mistake": s.mistake,
            "blunder": s.blunder,
            "unknown": s.unknown,
            "moves": s.moves,
        }
        for s in review.summaries
    }
    return {
        "variant": review.variant,
        "first": review.first,
        "status": review.status.value,
        "board": review.final.cells,
        "lines": lines_payload(review.final),
        "plies": plies,
        "summary": summary,
    }
