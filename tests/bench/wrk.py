"""wrk on loopback, shared by the HTTP benchmarks: their common options, one run, and its output read."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.bench.ceiling_app import REQUESTS

BENCH = Path(__file__).resolve().parent
UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0}
POST = ("-s", str(BENCH / "analyze_post.lua"))  # POST /analyze; the board and variant from the environment
GZIP = ("-H", "Accept-Encoding: gzip")


@dataclass(frozen=True)
class Run:
    rps: float
    p50: float  # seconds
    p99: float


def seconds(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    if match is None:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match.group(1)) * UNITS[match.group(2)]


def parse_wrk(output: str) -> Run:
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors or "Socket errors" in output:
        raise RuntimeError(f"wrk saw failures:\n{output}")
    rps = re.search(r"Requests/sec:\s+([\d.]+)", output)
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.M)
    if not (rps and p50 and p99):
        raise ValueError(f"unexpected wrk output:\n{output}")
    return Run(float(rps.group(1)), seconds(p50.group(1)), seconds(p99.group(1)))


def wrk(
    url: str,
    args: argparse.Namespace,
    extra: tuple[str, ...] = (),
    duration: int | None = None,
    request: str = "3x3",
) -> Run:
    """One wrk run; the same threads, connections and duration for every target. `request` names the
    board and variant (ceiling_app.REQUESTS) that POST sends."""
    duration = duration or args.duration
    board, variant = REQUESTS[request]
    command = [
        "wrk",
        f"-t{args.threads}",
        f"-c{args.connections}",
        f"-d{duration}s",
        "--latency",
        *extra,
        url,
    ]
    env = {**os.environ, "BOARD": board, "VARIANT": variant}  # analyze_post.lua reads these
    done = subprocess.run(command, capture_output=True, text=True, timeout=duration + 30, env=env, check=True)
    return parse_wrk(done.stdout)


def wrk_arguments(description: str | None) -> argparse.ArgumentParser:
    """The options every wrk benchmark takes (rounds, and what wrk() reads); exits if wrk is missing."""
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=description, formatter_class=formatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=5, help="seconds per wrk run")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=8)
    return parser
