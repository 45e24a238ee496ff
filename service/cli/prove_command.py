"""`sanmoku prove VARIANT`: the long, resumable proof of the empty board's result by the proof-number
search (service/engine/search/proof_run.py), its progress shown as it goes."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from ..engine import (
    Cancel,
    EngineError,
    Position,
    ProofProgress,
    ProofRun,
    Variant,
    default_directory,
    get_variant,
    proof_lock,
    unsound_because,
)

OUTCOMES = {1: "a side can force a line (proven)", -1: "a draw (proven: neither side can force a line)"}


def show(progress: ProofProgress) -> None:
    rate = progress.nodes / progress.spent if progress.spent else 0.0
    print(
        f"[{progress.elapsed / 3600:6.2f} h] {progress.note:>6}:"
        f" {progress.done}/{progress.jobs} jobs settled,"
        f" {progress.nodes:,} nodes in {progress.spent / 3600:.3f} processor-hours over all sessions"
        f" ({rate:,.0f} nodes per processor-second)",
        flush=True,
    )


MAX_SAVED_CELLS = 64  # a saved proof's masks are 64-bit: its jobs, and its table's slots


def prove(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    why = unsound_because(variant)
    if why is not None:  # its proofs would be false there, and the service would serve them
        raise EngineError(
            "prover_unsound",
            f"{variant.name} cannot be proven by `prove`: its provers assume a mark of one's own never"
            f" hurts, and {why} (`sanmoku analyze` searches it with alpha-beta instead)",
        )
    if variant.cells > MAX_SAVED_CELLS:  # its jobs and table are saved as 64-bit masks
        raise EngineError(
            "prove_too_large",
            f"{variant.name} has {variant.cells} cells: `prove` saves its jobs and its table to resume them,"
            f" which it can for boards of at most {MAX_SAVED_CELLS} cells (`sanmoku analyze` searches it"
            " within a budget instead)",
        )
    directory = args.dir or default_directory()
    with proof_lock(directory, variant) as alone:
        if not alone:
            raise EngineError(
                "prove_running", f"another `sanmoku prove {variant.name}` is running on {directory}"
            )
        return run_proof(args, variant, directory)


def run_proof(args: argparse.Namespace, variant: Variant, directory: Path) -> int:
    cancel = Cancel()
    seconds = None if args.hours is None else args.hours * 3600
    outcomes: list[int | None] = []
    refused: list[EngineError] = []

    def work() -> None:  # the run's store and table belong to the thread that makes them
        try:
            run = ProofRun(
                Position.empty(variant),
                directory,
                args.table_bits,
                args.split_plies,
                args.every_reply,
                args.every_move,
            )
        except EngineError as error:  # a saved state it must not go on from: said by the main thread
            refused.append(error)
            return
        print(
            f"{variant.name}: {'resumed from the saved table' if run.resumed else 'a new table'}", flush=True
        )
        outcomes.append(run.run(seconds, args.slice, cancel, show))

    def stop(signum: int, frame: FrameType | None) -> None:
        cancel.set()  # the core stops within milliseconds; the run saves its table and returns

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    # The run works on another thread: Python handles a signal on the main thread only, between its own
    # instructions, never while that thread is inside the core (a slice lasts minutes).
    worker = threading.Thread(target=work)
    worker.start()
    while worker.is_alive():
        worker.join(0.5)
    if refused:
        raise refused[0]
    if not outcomes:  # the worker raised: its traceback is printed above
        return 1
    outcome = outcomes[0]
    if outcome is None:
        print("stopped; run the same command again to go on", flush=True)
        return 3
    print(f"{variant.name} from the empty board: {OUTCOMES[outcome]}")
    sys.stdout.flush()
    return 0


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = commands.add_parser("prove", help="prove the empty board's result (hours; stop and resume at will)")
    cmd.add_argument(
        "variant",
        metavar="VARIANT",
        help="a board of the normal rule without gravity, e.g. 8x8k5 (gravity and misère boards are refused:"
        " the provers are not sound there)",
    )
    cmd.add_argument("--dir", type=Path, help="the tables directory the store lives in (default as tables)")
    cmd.add_argument("--hours", type=float, help="stop after this long (default: when proven)")
    cmd.add_argument(
        "--slice", type=float, default=300.0, help="seconds per job before the next (default 300)"
    )
    cmd.add_argument(
        "--table-bits", type=int, default=23, help="2**bits slots of 40 bytes (default 23: 335 MB)"
    )
    cmd.add_argument(
        "--split-plies",
        type=int,
        default=1,
        help="split a move's job open after its slice into the jobs after the defender's reply, down to"
        " this many plies from the start (default 1: one job per first move)",
    )
    cmd.add_argument(
        "--every-reply",
        action="store_true",
        help="split each first move's job into one job per class of the other side's replies, the first"
        " side's next move left to each job's search: for a board its first player wins (e.g. 4x4x4k4)",
    )
    cmd.add_argument(
        "--every-move",
        action="store_true",
        help="when the first player is proven to win, go on until each of its first moves is settled"
        " (each is stored: a win, or at most a draw)",
    )
    cmd.set_defaults(run=prove)
