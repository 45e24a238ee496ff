"""The `sanmoku` command: serve the API, answer one analysis or solve request locally, manage tables.

Answers come from the same tables (the same directory: $SANMOKU_TABLES_DIR or ~/.cache/sanmoku/tables) and the
same renderers as the API's, so `--json` and `solve` print the very bytes the API sends.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from importlib.metadata import version
from typing import Any

from ..engine import (
    NAMING,
    EngineError,
    Sources,
    TableUnavailableError,
    board_variant,
    compose_sources,
    get_game,
    get_variant,
)
from ..http.params import AnalyzeParams
from ..http.payloads import answer_payload, dumps
from ..http.problems import FieldsError
from ..http.schemas import DEFAULT_BUDGET_MS, MAX_BUDGET_MS, AnalyzeRequest, load
from ..http.solve_formats import FORMATS, SYMMETRIES, SolveRequest, render
from . import pbrain, prove_command, proven_commands, record_command, serve, table_commands

RESULT_LETTER = {"win": "W", "draw": "D", "loss": "L"}
# A word made only of board characters is a board even when it starts with "-" (an empty cell).
BOARD_WORD = re.compile(r"[XOxo.\-_/]*[XOxo._/][XOxo.\-_/]*|-{6,}")
VALUE_OPTIONS = {"--to-move", "--variant"}
VARIANT_HELP = f"default: normal; {NAMING}"
UNPROVEN = ("?", ">=D", "<=D")
_analyze_request = AnalyzeRequest()  # the API's: the command line takes what the API takes, no more


class RefusedError(Exception):
    """A request the command refuses as the API does (its 422), with the API's sentence."""


def local_sources() -> Sources:
    """This machine's sources (the same tables directory as the service's: $SANMOKU_TABLES_DIR or
    ~/.cache/sanmoku/tables), under the service's rule, except that a table the service would build in
    the background is built here, and the command waits for it."""
    return compose_sources(foreground=True)


def analysis_json(
    board: str, to_move: str | None, variant: str, budget_ms: int = DEFAULT_BUDGET_MS
) -> dict[str, Any]:
    """The API's /analyze body for one position, from this machine's tables, books, proven positions
    and a search; the arguments are checked by the API's own schema (FieldsError: as its 422)."""
    asked = {"board": board, "to_move": to_move, "variant": variant, "budget_ms": budget_ms}
    params = load(_analyze_request, asked, AnalyzeParams)
    deadline = params.deadline()
    position = params.position()
    answer = local_sources().analyst.analyze(position, deadline.budget())
    return answer_payload(answer, budget_ms=budget_ms)


def cell_label(cell: str, move: dict[str, Any] | None) -> str:
    if move is None:
        return cell
    if move["result"] == "unknown":
        return {"draw": ">=D", "win": "?"}.get(move["lower"], "<=D" if move["upper"] == "draw" else "?")
    letter = RESULT_LETTER[move["result"]]
    return letter if letter == "D" or move["remoteness"] is None else f"{letter}{move['remoteness']}"


def draw_board(payload: dict[str, Any]) -> str:
    """Marks as X and O; each free cell as its value for the side to move (W3, D, L5); a box's layers one
    below the other, each under its name. A game with no board (Eight) shows its state and each move."""
    if get_game(payload["variant"]).board is None:
        picks = (f"{move['move']}: {cell_label(str(move['move']), move)}" for move in payload["moves"])
        return f"{payload['board']}\n" + "\n".join(picks)
    variant = get_variant(payload["variant"])
    moves = {m["cell"]: m for m in payload["moves"]}
    labels = [cell_label(c, moves.get(i)) for i, c in enumerate(payload["board"])]
    layer_cells = variant.rows * variant.cols
    layers = [
        _draw_grid(labels[start : start + layer_cells], variant.cols)
        for start in range(0, len(labels), layer_cells)
    ]
    if len(layers) == 1:
        return layers[0]
    return "\n\n".join(f"layer {number}\n{layer}" for number, layer in enumerate(layers))


def _draw_grid(labels: list[str], cols: int) -> str:
    rows = [labels[start : start + cols] for start in range(0, len(labels), cols)]
    separator = "\n" + "+".join(["----"] * cols) + "\n"
    return separator.join("|".join(f"{label:^4}" for label in row).rstrip() for row in rows)


def verdict(payload: dict[str, Any]) -> list[str]:
    side, plies = payload["to_move"], payload["remoteness"]
    if payload["status"] != "in_progress":
        outcome = "draw" if payload["winner"] is None else f"{payload['winner']} has won"
        return [f"game over: {outcome}"]
    source = "" if payload["source"] == "table" else f", from the {payload['source']}"
    where = f"{side} to move ({payload['variant']}{source})"
    if payload["result"] == "unknown":
        bounds = f"between a {payload['lower']} and a {payload['upper']} for {side}"
        return [f"{where}: not proven within the budget, {bounds}", f"best guess: {payload['best_move']}"]
    outcome = "draw" if payload["winner"] is None else f"{payload['winner']} wins"
    distance = "" if plies is None else f", {plies} {'ply' if plies == 1 else 'plies'} to the end"
    best = ", ".join(str(cell) for cell in payload["best_moves"]) or "not proven"
    return [f"{where}: {outcome} with perfect play{distance}", f"best moves: {best} ({moves_named(payload)})"]


def moves_named(payload: dict[str, Any]) -> str:
    """How the moves printed are named: a board's by cell number, a game's without a board by itself."""
    if get_game(payload["variant"]).board is None:
        return "each move as the API names it"
    layers = ", layer by layer" if get_variant(payload["variant"]).layers > 1 else ""
    return f"cells numbered row by row from 0{layers}"


def analyze(args: argparse.Namespace) -> int:
    payload = analysis_json(args.board, args.to_move, args.variant, args.budget_ms)
    if args.json:
        sys.stdout.buffer.write(dumps(payload))
        sys.stdout.flush()
        return 0
    drawing = draw_board(payload)
    print(drawing)
    print()
    print("\n".join(verdict(payload)))
    if payload["moves"]:
        print(legend(drawing, "cells" if get_game(payload["variant"]).board is not None else "moves"))
    return 0


def legend(drawing: str, labelled: str) -> str:
    """What the drawing's labels mean: those it shows (`labelled`: what carries them, cells or moves)."""
    labels = {label.strip() for line in drawing.splitlines() for label in line.split("|")}
    out = f"{labelled}: W<n> wins, D draws, L<n> loses, for the side to move; n counts plies from its move"
    if labels & set(UNPROVEN):
        out += "; ? not proven within the budget (>=D: at least a draw, <=D: at most a draw)"
    if "." in labels:
        out += "; . an empty cell no move can take yet (marks fall to the lowest empty cell of a column)"
    return out


def solve(args: argparse.Namespace) -> int:
    table = local_sources().supply.table(board_variant(args.variant))
    wanted = SolveRequest(table, args.first, args.symmetry, args.format)
    refusal = wanted.refusal()  # the API's limits: a table too large for one JSON document
    if refusal is not None:
        raise RefusedError(refusal.replace("format=", "--format "))
    for piece in render(wanted):
        sys.stdout.buffer.write(piece)
    sys.stdout.flush()
    return 0


class WholeNames(argparse.HelpFormatter):
    """Help lines broken at spaces only: a board's name (5x5k4-torus-misere) is never cut at a hyphen."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """The command line's parsers, its subcommands' too (argparse makes them of the main one's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", WholeNames)
        super().__init__(*args, **kwargs)


def parser() -> argparse.ArgumentParser:
    main: argparse.ArgumentParser = Parser(
        prog="sanmoku", description="Exact analysis of tic-tac-toe and its variants."
    )
    main.add_argument("--version", action="version", version=f"%(prog)s {version('sanmoku')}")
    commands = main.add_subparsers(dest="command", required=True)

    serve_cmd = commands.add_parser(serve.NAME, help=serve.HELP)
    serve.add_arguments(serve_cmd)
    serve_cmd.set_defaults(run=serve.serve)

    analyze_cmd = commands.add_parser("analyze", help="analyse one position")
    analyze_cmd.add_argument(
        "board", help="cells row by row: X, O and . (or - or _), rows optionally separated by /"
    )
    analyze_cmd.add_argument("--to-move", type=str.upper, choices=["X", "O"], help="default: from the counts")
    analyze_cmd.add_argument("--variant", default="normal", help=VARIANT_HELP)
    analyze_cmd.add_argument("--json", action="store_true", help="print the API's JSON body")
    analyze_cmd.add_argument(
        "--budget-ms",
        type=int,
        default=DEFAULT_BUDGET_MS,
        help=f"a search's time, for boards with no table (1 to {MAX_BUDGET_MS:,}, as the API's budget_ms)",
    )
    analyze_cmd.set_defaults(run=analyze)

    solve_cmd = commands.add_parser("solve", help="print the whole-game table, as GET /solve")
    solve_cmd.add_argument("--variant", default="normal", help=VARIANT_HELP)
    solve_cmd.add_argument("--first", type=str.upper, choices=["X", "O"], default="X")
    solve_cmd.add_argument("--symmetry", choices=list(SYMMETRIES), default="none")
    solve_cmd.add_argument("--format", choices=list(FORMATS), default="json")
    solve_cmd.set_defaults(run=solve)

    pbrain_cmd = commands.add_parser(pbrain.NAME, help=pbrain.HELP)  # no options: a manager gives none
    pbrain_cmd.set_defaults(run=pbrain.serve_protocol)

    table_commands.add_parser(commands)
    proven_commands.add_parsers(commands)
    prove_command.add_parsers(commands)
    record_command.add_parsers(commands)
    return main


def boards_as_positionals(argv: list[str]) -> list[str]:
    """`sanmoku analyze -X-.O----` would read the board as options: put "--" before such a board,
    after the options that come before it (what follows it is parsed by `analyze` itself)."""
    if not argv or argv[0] != "analyze":
        return argv
    for i, word in enumerate(argv[1:], 1):
        if word == "--":
            break
        if word.startswith("-") and BOARD_WORD.fullmatch(word) and argv[i - 1] not in VALUE_OPTIONS:
            return [*argv[:i], *argv[i + 1 :], "--", word]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(boards_as_positionals(list(sys.argv[1:] if argv is None else argv)))
    logging.basicConfig(format="sanmoku: %(message)s")  # the engine's warnings, as the command's own
    try:
        code: int = args.run(args)
    except EngineError as error:
        return refuse(error.message)
    except (TableUnavailableError, RefusedError) as error:
        return refuse(str(error))
    except FieldsError as error:  # the API's schema refused an argument
        return refuse(
            "; ".join(
                f"--{field.replace('_', '-')}: {' '.join(why)}" for field, why in error.messages.items()
            )
        )
    except BrokenPipeError:  # the reader stopped (`| head`): stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code


def _option(field: str) -> str:
    """The option an API field came from (the board is the positional argument)."""
    return field if field == "board" else "--" + field.replace("_", "-")


def refuse(sentence: str) -> int:
    """An error the user can fix: one sentence on stderr, exit status 2."""
    print(f"sanmoku: {sentence}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
