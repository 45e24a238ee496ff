"""`sanmoku record FILE`: read a game record, a Piskvork `.psq` file or a move list (`h8 h9 j10`, or cell
numbers), check it by playing it from the empty board, and print it in the other form (or the one
`--to` names), as POST /record does."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..engine import (
    MAX_RECORD_CHARS,
    RecordError,
    board_variant,
    moves_text,
    psq_size,
    psq_text,
    read_moves_text,
    read_psq,
    replayed,
)

PSQ, MOVES = "psq", "moves"
FIVE = 5  # a .psq record is a game of five in a row
DEFAULT_VARIANT = "gomoku"


def record(args: argparse.Namespace) -> int:
    text = sys.stdin.read(MAX_RECORD_CHARS + 1) if args.file == "-" else _read(Path(args.file))
    is_psq = text.lstrip("\ufeff").lstrip().startswith("Piskvork")
    name = args.variant
    if name is None:
        name = "{1}x{0}k{2}".format(*psq_size(text), FIVE) if is_psq else DEFAULT_VARIANT
    variant = board_variant(name)
    cells = read_psq(variant, text) if is_psq else read_moves_text(variant, text)
    replayed(variant, cells, args.first)  # IllegalSequenceError names the first ply that is not legal
    wanted = args.to or (MOVES if is_psq else PSQ)
    sys.stdout.write(psq_text(variant, cells) if wanted == PSQ else moves_text(variant, cells) + "\n")
    return 0


def _read(path: Path) -> str:
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            return file.read(MAX_RECORD_CHARS + 1)
    except OSError as error:
        raise RecordError("bad_record", f"{path}: {error.strerror}") from None


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = commands.add_parser(
        "record", help="read a .psq record or a move list (h8 h9 j10), check it, print it the other way"
    )
    cmd.add_argument("file", metavar="FILE", help="the record's file, or - for standard input")
    cmd.add_argument(
        "--variant",
        help="the board and its rules, e.g. renju (default: five in a row on a .psq record's board, else"
        " gomoku)",
    )
    cmd.add_argument("--first", type=str.upper, choices=["X", "O"], default="X", help="who moved first")
    cmd.add_argument(
        "--to",
        choices=[PSQ, MOVES],
        help="what to print (default: a move list from a .psq record, else .psq)",
    )
    cmd.set_defaults(run=record)
