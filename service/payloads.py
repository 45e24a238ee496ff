"""Engine values as JSON: the edge where "side to move" becomes X and O."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .engine import Analysis, MoveValue, Position, SolveTable, Value, Variant, other
from .engine.mainline import MainLine
from .engine.review import Review

Json = dict[str, Any]


def dumps(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def winner(position: Position, value: Value) -> str | None:
    """Who wins under perfect play, or None for a draw."""
    if value.score == 0:
        return None
    return position.to_move if value.score > 0 else other(position.to_move)


def move_payload(position: Position, move: MoveValue) -> Json:
    row, col = position.row_col(move.cell)
    return {
        "cell": move.cell,
        "row": row,
        "col": col,
        "result": move.value.result.value,
        "score": move.value.score,
        "remoteness": move.value.remoteness,
        "board": position.play(move.cell).cells,
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
    }


def mainline_payload(line: MainLine) -> Json:
    return {"cells": list(line.cells), "status": line.status.value}


def table_entry(analysis: Analysis) -> Json:
    value = analysis.value
    return {
        "to_move": analysis.position.to_move,
        "status": analysis.position.status.value,
        "result": value.result.value,
        "score": value.score,
        "remoteness": value.remoteness,
        "best_moves": list(analysis.best_moves),
        "moves": [
            {"cell": m.cell, "score": m.value.score, "remoteness": m.value.remoteness} for m in analysis.moves
        ],
    }


def table_payload(table: SolveTable) -> Json:
    summary = table.summary
    return {
        "variant": table.variant,
        "first": table.first,
        "symmetry": "canonical" if table.canonical else "none",
        "summary": {
            "positions": summary.positions,
            "by_result": summary.by_result,
            "by_status": summary.by_status,
            "by_marks": list(summary.by_marks),
        },
        "positions": {board: table_entry(a) for board, a in table.entries.items()},
    }


def table_ndjson(table: SolveTable) -> bytes:
    return b"".join(dumps({"board": b, **table_entry(a)}) + b"\n" for b, a in table.entries.items())


CSV_COLUMNS = ("board", "to_move", "status", "result", "score", "remoteness", "best_moves", "moves")


def table_csv(table: SolveTable) -> bytes:
    """Lists inside a cell are space-separated; a move is cell:score:remoteness."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for board, analysis in table.entries.items():
        entry = table_entry(analysis)
        moves = " ".join(f"{m['cell']}:{m['score']}:{m['remoteness']}" for m in entry["moves"])
        best = " ".join(str(c) for c in entry["best_moves"])
        writer.writerow([board, *(entry[c] for c in CSV_COLUMNS[1:6]), best, moves])
    return out.getvalue().encode()


def variant_payload(variant: Variant) -> Json:
    return {
        "name": variant.name,
        "rules": variant.rules,
        "rows": variant.rows,
        "cols": variant.cols,
        "k": variant.k,
        "misere": variant.misere,
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
        "plies": plies,
        "summary": summary,
    }
