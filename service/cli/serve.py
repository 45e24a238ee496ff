"""`sanmoku serve` and the command's entry point (`main`), apart from the other commands: serving execs
gunicorn, and the other commands' imports (the engine, the schemas: half a second) were paid before every
start for nothing (issue 30). Only the standard library is imported here."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

NAME = "serve"
HELP = "serve the REST API with gunicorn"
GUNICORN_CONF = Path(__file__).resolve().parent.parent / "gunicorn_conf.py"
APP = "service.app:create_app()"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bind", help="HOST:PORT (default: $SANMOKU_BIND or 127.0.0.1:8000)")
    parser.add_argument("--workers", type=int, help="worker processes (default: $WEB_CONCURRENCY or 2)")


def serve(args: argparse.Namespace) -> int:
    # The settings live in gunicorn_conf.py and read the environment; flags only fill it in.
    if args.bind:
        os.environ["SANMOKU_BIND"] = args.bind
    if args.workers:
        os.environ["WEB_CONCURRENCY"] = str(args.workers)
    command = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), APP]
    # exec, not a child: gunicorn's master becomes this process and gets the signals (PID 1 in a container)
    os.execv(sys.executable, command)


def main(argv: Sequence[str] | None = None) -> int:
    """The `sanmoku` command: `serve` from here, every other command from `main.main`."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == [NAME]:
        parser = argparse.ArgumentParser(prog=f"sanmoku {NAME}", description=HELP)
        add_arguments(parser)
        return serve(parser.parse_args(words[1:]))
    from .main import main as other_command

    return other_command(words)
