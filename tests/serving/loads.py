"""Clients that hammer one route of a server on loopback, from a process of their own (so that their
threads, reading megabyte answers, cost the latency probe in the test's process nothing), for the
serving tests and benchmarks.

`hammering(url, body, clients, seconds)` starts `python -m tests.serving.loads` with `clients` threads,
each asking `url` (a POST of `body` when given, else a GET) one request after another on fresh
connections until `seconds` have passed; on exit (the process is killed a few seconds past its time at
the latest) the list it yields holds every request's status and seconds. Status 0: no answer (refused,
reset, or none within the timeout).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from tests.serving.harness import REPO

REQUEST_TIMEOUT = 30.0


@dataclass(frozen=True)
class Done:
    status: int
    seconds: float


def ask(url: str, body: bytes | None) -> int:
    headers = {} if body is None else {"Content-Type": "application/json"}
    request = urllib.request.Request(url, body, headers)
    try:
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.read()
        return int(error.code)
    except (urllib.error.URLError, OSError):
        return 0


def run(url: str, body: bytes | None, clients: int, seconds: float) -> list[Done]:
    done: list[Done] = []
    ends = time.monotonic() + seconds

    def client() -> None:
        while time.monotonic() < ends:
            started = time.perf_counter()
            status = ask(url, body)
            done.append(Done(status, time.perf_counter() - started))

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + REQUEST_TIMEOUT)
    return done


@contextmanager
def hammering(
    url: str, body: object | None, clients: int, seconds: float, workdir: Path, settle: float = 0.5
) -> Iterator[list[Done]]:
    """`clients` clients of `url` for `seconds` (after `settle` seconds, so that all are under way when
    the block starts); the list is filled when the block ends and they are done."""
    out = workdir / f"load-{time.monotonic_ns()}.jsonl"
    command = [sys.executable, "-m", "tests.serving.loads", url, str(clients), str(seconds), str(out)]
    if body is not None:
        command.append(json.dumps(body))
    process = subprocess.Popen(command, cwd=REPO, start_new_session=True, env=os.environ.copy())
    results: list[Done] = []
    try:
        time.sleep(settle)
        yield results
    finally:
        try:
            process.wait(timeout=seconds + REQUEST_TIMEOUT + 5)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        if out.exists():
            for line in out.read_text().splitlines():
                status, took = json.loads(line)
                results.append(Done(status, took))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("url")
    parser.add_argument("clients", type=int)
    parser.add_argument("seconds", type=float)
    parser.add_argument("out", type=Path)
    parser.add_argument("body", nargs="?")
    args = parser.parse_args()
    body = None if args.body is None else args.body.encode()
    done = run(args.url, body, args.clients, args.seconds)
    args.out.write_text("".join(json.dumps([d.status, round(d.seconds, 6)]) + "\n" for d in done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
