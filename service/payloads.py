"""Engine values as JSON: the edge where "side to move" becomes X and O."""

from __future__ import annotations

import json
from typing import Any

from .engine import (
    DEFAULT_DEPTH,
    MIN_DEPTH,
    Analysis,
    MainLine,
    MoveValue,
    Policy,
    Position,
    Review,
    Table,
    Value,
    Variant,
    geometry_of,
)
from .engine.geometry import iter_cells
from .engine.table_file import file_size

Json = dict[str, Any]


def dumps(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def winner(position: Position, value: Value) -> str | None:
    """Who wins under perfect play, or None for a draw."""
    if value.score == 0:
        return None
    return position.to_move if value.score > 0 else position.to_move.other


def lines_payload(position: Position) -> list[list[int]]:
    """The cells of each line that ended the game; empty while none has."""
    return [list(line) for line in position.completed_lines]


def move_payload(position: Position, move: MoveValue) -> Json:
    row, col = position.row_col(move.cell)
    cells = position.cells
    return {
        "cell": move.cell,
        "row": row,
        "col": col,
        "result": move.value.result.value,
        "score": move.value.score,
        "remoteness": move.value.remoteness,
        # the board after the move, without building the position
        "board": cells[: move.cell] + position.to_move + cells[move.cell + 1 :],
    }


def analysis_payload(analysis: Analysis) -> Json:
    position, value = analysis.position, analysis.value
    return {
        "board": position.cells,
        "to_move": position.to_move,
        "variant": position.variant.name,
        "status": position.status.value,
        "result": value.result.value,
        "score": value.score,
        "remoteness": value.remoteness,
        "winner": winner(position, value),
        "best_move": analysis.best_move,
        "best_moves": list(analysis.best_moves),
        "moves": [move_payload(position, m) for m in analysis.moves],
        "lines": lines_payload(position),
    }


def mainline_payload(line: MainLine) -> Json:
    return {"cells": list(line.cells), "status": line.status.value, "lines": lines_payload(line.final)}


def variant_payload(variant: Variant) -> Json:
    geometry = geometry_of(variant)
    return {
        "name": variant.name,
        "rules": variant.rules,
        "rows": variant.rows,
        "cols": variant.cols,
        "k": variant.k,
        "misere": variant.misere,
        "torus": variant.torus,
        "cells": variant.cells,
        "depth": {"min": MIN_DEPTH, "max": geometry.max_depth, "default": DEFAULT_DEPTH},
    }


def variant_detail_payload(variant: Variant, table: Table | None) -> Json:
    """Everything derived from the variant, and what its table says when it is ready."""
    geometry = geometry_of(variant)
    empty = Position.empty(variant)
    return {
        **variant_payload(variant),
        "lines": [list(iter_cells(line)) for line in geometry.lines],
        "symmetries": len(geometry.symmetries),
        "max_plies": geometry.max_plies,
        "centre": geometry.centre,
        "table": {
            "ready": table is not None,
            "positions": None if table is None else table.positions,
            "bytes": file_size(variant),
        },
        "empty_board": None if table is None else _outcome(empty, table.value(empty)),
    }


def _outcome(position: Position, value: Value) -> Json:
    return {**value_payload(value), "winner": winner(position, value)}


def policy_payload(policy: Policy) -> Json:
    return {
        "name": policy.name,
        "summary": policy.summary,
        "uses_seed": policy.uses_seed,
        "uses_depth": policy.uses_depth,
    }


def value_payload(value: Value) -> Json:
    return {"result": value.result.value, "score": value.score, "remoteness": value.remoteness}


def move_choice_payload(before: Position, cell: int, value: Value, policy: str) -> Json:
    after = before.play(cell)
    row, col = before.row_col(cell)
    return {
        "cell": cell,
        "row": row,
        "col": col,
        "player": before.to_move,
        "board": after.cells,
        "to_move": after.to_move,
        "status": after.status.value,
        "lines": lines_payload(after),
        **value_payload(value),
        "policy": policy,
        "variant": before.variant.name,
    }


def review_payload(review: Review, start: Position) -> Json:
    plies = []
    position = start
    for ply in review.plies:
        row, col = position.row_col(ply.cell)
        position = position.play(ply.cell)
        plies.append(
            {
                "ply": ply.ply,
                "player": ply.player,
                "cell": ply.cell,
                "row": row,
                "col": col,
                "board": position.cells,
                "before": value_payload(ply.before),
                "played": value_payload(ply.played),
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
