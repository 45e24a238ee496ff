"""`sanmoku serve` and the command's entry point (`main`), apart from the other commands: serving runs
gunicorn, and the other commands' imports (the engine, the schemas: half a second) were paid before every
start for nothing. Only the standard library is imported here, and gunicorn when serving."""

from __future__ import annotations

import argparse
import gc
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
    # What Python's documentation of gc.freeze advises for a server that forks without exec: no collection
    # while the app is imported (a twentieth of the start), the preloaded objects frozen before the fork
    # so that the workers' collections do not copy their pages (gunicorn_conf.on_starting), gc on again.
    gc.disable()
    from gunicorn.app.wsgiapp import WSGIApplication  # type: ignore[import-untyped]

    class Gunicorn(WSGIApplication):  # type: ignore[misc]  # gunicorn ships no type hints
        """`gunicorn -c gunicorn_conf.py APP` in this process: its master is this process, so it gets the
        signals (PID 1 in a container), and no second interpreter starts (0.04 s). gunicorn reads its
        command line from sys.argv, at the start and at every SIGHUP; sys.argv stays `sanmoku serve ...`
        for gunicorn's re-exec on SIGUSR2."""

        def load_config(self) -> None:
            ours, sys.argv = sys.argv, ["gunicorn", "-c", str(GUNICORN_CONF), APP]
            try:
                super().load_config()
            finally:
                sys.argv = ours

    Gunicorn("%(prog)s [OPTIONS] [APP_MODULE]", prog="sanmoku serve").run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The `sanmoku` command: `serve` from here, every other command from `main.main`."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == [NAME]:
        parser = argparse.ArgumentParser(prog=f"sanmoku {NAME}", description=HELP)
        add_arguments(parser)
        return serve(parser.parse_args(words[1:]))
    from .main import main as other_command

    return other_command(words)
