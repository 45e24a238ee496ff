"""Engine values as JSON: the edge where "side to move" becomes X and O."""

from __future__ import annotations

import json
from typing import Any

from ..engine import (
    MIN_DEPTH,
    Answer,
    GamePosition,
    Known,
    KnownMove,
    MainLine,
    Position,
    Shape,
    Source,
    Table,
    Value,
    Variant,
    WinTree,
    aliases,
    default_depth,
    file_size,
    geometry_of,
    iter_cells,
)

Json = dict[str, Any]
RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}
UNKNOWN = "unknown"


def dumps(payload: Any) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def winner(position: GamePosition, value: Value) -> str | None:
    """Who wins under perfect play, or None for a draw."""
    if value.score == 0:
        return None
    return position.to_move if value.score > 0 else position.to_move.other


def lines_payload(position: GamePosition) -> list[list[int]]:
    """The cells of each line that ended the game; empty while none has."""
    return [list(line) for line in position.completed_lines]


def known_payload(known: Known) -> Json:
    """A value as far as it is proven: the result (unknown until proven) and its bounds, the score once
    the result is proven, the remoteness once that is too."""
    proven = known.lower == known.upper
    return {
        "result": RESULT_WORDS[known.lower] if proven else UNKNOWN,
        "score": known.lower if proven else None,
        "remoteness": known.remoteness if proven else None,
        "lower": RESULT_WORDS[known.lower],
        "upper": RESULT_WORDS[known.upper],
    }


def move_place(position: GamePosition, move: int) -> Json:
    """Where a move goes: a board's cell with its row and column (and on a box its layer); a game's move
    is its number (Eight's pick)."""
    place = position.place(move)
    if place is None:
        return {"move": move}
    *layer, row, col = place
    return {"cell": move, **({"layer": layer[0]} if layer else {}), "row": row, "col": col}


def move_payload(position: GamePosition, move: KnownMove, estimates: bool = False) -> Json:
    out: Json = {
        **move_place(position, move.cell),
        **known_payload(move.known),
        "board": position.text_after(move.cell),
    }
    if move.within is not None and move.remoteness is None and move.lower == move.upper:
        out["remoteness_at_most"] = move.within  # the result proven by a line this long, at most
    if estimates:  # only when asked: an estimate is never a proof
        estimate = move.estimate
        out["estimate"] = None if estimate is None else {"score": estimate.score, "depth": estimate.depth}
    return out


def answer_payload(answer: Answer, estimates: bool = False, budget_ms: int | None = None) -> Json:
    position = answer.position
    known = answer.known
    return {
        "board": position.cells,
        "to_move": position.to_move,
        "variant": position.variant.name,
        "status": position.status.value,
        **known_payload(known),
        "winner": winner(position, Value(known.lower, 0)) if known.result is not None else None,
        "best_move": answer.best_move,
        "best_move_proven": answer.best_move_proven,
        "best_moves": list(answer.best_moves),
        "moves": [move_payload(position, m, estimates) for m in answer.moves],
        "lines": lines_payload(position),
        "source": answer.source.value,
        "exact": answer.exact,
        "search": search_payload(answer, budget_ms) if answer.source is Source.SEARCH else None,
        **forbidden_payload(position),
        **({"win_line": {"cells": list(answer.line), "plies": len(answer.line)}} if answer.line else {}),
        **({"win_tree": win_tree_payload(answer.tree)} if answer.tree else {}),
    }


def win_tree_payload(tree: WinTree) -> Json:
    """The certificate of a win by threes: its bound, its size, and its nodes from the first move."""
    return {"plies": tree.plies, "nodes": tree.size, "root": _node_payload(tree)}


def _node_payload(node: WinTree) -> Json:
    out: Json = {
        "move": node.move,
        "threat": node.threat,
        "replies": [{"cell": cell, "then": _node_payload(child)} for cell, child in node.replies],
    }
    if node.otherwise is not None:
        out["otherwise"] = node.otherwise
    if node.follow is not None:
        out["follow"] = _node_payload(node.follow)
    return out


def forbidden_payload(position: GamePosition) -> Json:
    """Under renju, black's forbidden points now (whoever is to move), by cell; nothing elsewhere."""
    if not isinstance(position, Position) or not position.variant.renju:
        return {}
    return {"forbidden": sorted(position.forbidden)}


def search_payload(answer: Answer, budget_ms: int | None) -> Json:
    return {
        "nodes": answer.nodes,
        "time_ms": round(answer.seconds * 1000, 1),
        "depth": answer.depth,
        "cutoffs": answer.cutoffs,
        "tt_hits": answer.tt_hits,
        "budget_ms": budget_ms,
        "closed_by": answer.closed_by,
    }


def mainline_payload(line: MainLine) -> Json:
    return {"cells": list(line.cells), "status": line.status.value, "lines": lines_payload(line.final)}


def variant_payload(variant: Variant, table: Table | None) -> Json:
    """The variant's facts, and what answers it now (`table`: the one that does, if any): a client
    knows before it asks whether an answer will take a search's time."""
    geometry = geometry_of(variant)
    return {
        "name": variant.name,
        "rules": variant.rules,
        "rows": variant.rows,
        "cols": variant.cols,
        "k": variant.k,
        "misere": variant.misere,
        "torus": variant.torus,
        "gravity": variant.gravity,
        "exact": variant.exact,
        "renju": variant.renju,
        "aliases": aliases(variant),
        "shape": shape_payload(variant.shape),
        "cells": variant.cells,
        "depth": {"min": MIN_DEPTH, "max": geometry.max_depth, "default": default_depth(geometry)},
        "source": "table" if table is not None else "search",
    }


def shape_payload(shape: Shape) -> Json:
    return {"sides": list(shape.sides), "torus": shape.torus, "gravity_axis": shape.gravity_axis}


def variant_detail_payload(variant: Variant, table: Table | None) -> Json:
    """Everything derived from the variant, and what its table says when it is ready."""
    geometry = geometry_of(variant)
    empty = Position.empty(variant)
    return {
        **variant_payload(variant, table),
        "lines": [list(iter_cells(line)) for line in geometry.lines],
        "symmetries": len(geometry.symmetries),
        "max_plies": geometry.max_plies,
        "centre": geometry.centre,
        "table": None
        if not variant.has_table
        else {
            "ready": table is not None,
            "positions": None if table is None else table.positions,
            "bytes": file_size(variant),
        },
        "empty_board": None if table is None else _outcome(empty, table.value(empty)),
    }


def _outcome(position: Position, value: Value) -> Json:
    return {**value_payload(value), "winner": winner(position, value)}


def value_payload(value: Value) -> Json:
    return {"result": value.result.value, "score": value.score, "remoteness": value.remoteness}
