"""Slow clients, stream readers, batch posters and a latency probe, for the serving tests and
benchmarks (loopback).

A slow client opens a connection and sends a request's headers one byte at a time, never finishing
them: under gunicorn's sync workers each such client holds a whole worker. A stream reader reads a long
answer as fast as it can, again and again (curl, a process of its own, so that the reading costs the
probe nothing). A batch poster sends large /analyze/batch requests one after another. The probe
meanwhile asks for one answer after another on fresh connections and records how long each took.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from tests.requires import require
from tests.serving.harness import HOST

BYTE_INTERVAL = 0.1  # seconds between two bytes of a slow client's headers
PROBE_TIMEOUT = 2.0
HEADERS = b"GET /healthz HTTP/1.1\r\nHost: sanmoku\r\nX-Slow: " + b"s" * 4000  # never ends


def trickle(port: int, stop: threading.Event) -> None:
    """One slow client until `stop`: a byte at a time, reconnecting whenever the server hangs up."""
    while not stop.is_set():
        try:
            with socket.create_connection((HOST, port), timeout=5) as connection:
                for byte in HEADERS:
                    if stop.wait(BYTE_INTERVAL):
                        return
                    connection.send(bytes([byte]))
        except OSError:
            stop.wait(BYTE_INTERVAL)


@contextmanager
def slow_clients(port: int, count: int) -> Iterator[None]:
    stop = threading.Event()
    threads = [threading.Thread(target=trickle, args=(port, stop), daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1.0)  # every slow client has connected and started its headers
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=10)


@dataclass(frozen=True)
class Probe:
    latencies: list[float]  # seconds, of the answered requests
    failures: int  # refused, reset or not answered within PROBE_TIMEOUT

    @property
    def p99(self) -> float:
        """With failures counted as the slowest answers: a server that stops answering has no p99."""
        if not self.latencies or self.failures > len(self.latencies) // 100:
            return float("inf")
        return statistics.quantiles(self.latencies, n=100)[98]

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("inf")


CALM_SECONDS = 2.0
LOAD_RATIO = 5  # how much slower than the same probe alone a probe beside a load may be


def allowed_latency(url: str, floor: float, most: float = 1.0) -> float:
    """The latency a probe beside a load may reach: `floor` on a quiet machine, or LOAD_RATIO times the
    p99 of the same probe on the same server with nothing beside it, measured now, when other work slows
    this machine (then both are slower); never past `most`, so that a blocked worker still fails: it
    answers in whole seconds (p99 6.87 s beside streams before they were paced)."""
    calm = probe(url, CALM_SECONDS)
    assert calm.failures == 0 and len(calm.latencies) > 20, "the server does not answer even alone"
    return min(most, max(floor, LOAD_RATIO * calm.p99))


def probe(url: str, seconds: float) -> Probe:
    """One request after another for `seconds`."""
    latencies: list[float] = []
    failures = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(url, timeout=PROBE_TIMEOUT) as response:
                response.read()
            latencies.append(time.perf_counter() - started)
        except (urllib.error.URLError, OSError):
            failures += 1
    return Probe(latencies, failures)


@dataclass(frozen=True)
class Attempt:
    """One request of a stream reader: its status, the bytes read and for how long."""

    status: int
    size: int
    seconds: float


# Read the URL ($0) again and again until $1 seconds have passed; a refused request is asked again a
# second later. One line per attempt: status, bytes, seconds (curl stops a read cut by --max-time).
READER = (
    'end=$((SECONDS + $1)); while [ "$SECONDS" -lt "$end" ]; do '
    'curl -s -o /dev/null -w "%{http_code} %{size_download} %{time_total}\\n" '
    '--max-time $((end - SECONDS)) "$0"; sleep 1; done'
)


@contextmanager
def stream_readers(url: str, count: int, seconds: float, workdir: Path) -> Iterator[list[Attempt]]:
    """`count` readers of `url` for `seconds`; on exit, once they are done (a reader still running a
    few seconds past its time is killed), the list is filled with every attempt they made."""
    require("curl")
    attempts: list[Attempt] = []
    logs = [workdir / f"reader-{n}.txt" for n in range(count)]
    readers = []
    deadline = time.monotonic() + seconds + 5
    for log in logs:
        with log.open("w") as out:
            command = ["bash", "-c", READER, url, str(int(seconds))]
            readers.append(subprocess.Popen(command, stdout=out, start_new_session=True))
    try:
        yield attempts
    finally:
        for reader in readers:
            try:
                reader.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with suppress(ProcessLookupError):
                    os.killpg(reader.pid, signal.SIGKILL)
                reader.wait(timeout=10)
        for log in logs:
            for line in log.read_text().splitlines():
                status, size, took = line.split()
                attempts.append(Attempt(int(status), int(size), float(took)))


def streams_at_once(attempts: list[Attempt], seconds: float) -> float:
    """How many streams ran at once on average over `seconds` (the time of the answered attempts)."""
    return sum(a.seconds for a in attempts if a.status == 200) / seconds


@contextmanager
def never_reading(port: int, path: str, count: int) -> Iterator[list[socket.socket]]:
    """`count` clients that ask for `path` and never read the answer; their receive buffers are small,
    so that the server's writes block after a few hundred kilobytes."""
    clients: list[socket.socket] = []
    try:
        for _ in range(count):
            client = socket.socket()
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            client.settimeout(10)
            client.connect((HOST, port))
            client.sendall(f"GET {path} HTTP/1.1\r\nHost: sanmoku\r\n\r\n".encode())
            clients.append(client)
        yield clients
    finally:
        for client in clients:
            client.close()


def closed_by_server(client: socket.socket, most: int = 1 << 30) -> bool:
    """Whether the server has closed the connection: what it sent is read (at most `most` bytes, each
    read within the socket's timeout) and the end comes."""
    received = 0
    try:
        while received < most:
            piece = client.recv(1 << 20)
            if not piece:
                return True
            received += len(piece)
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return False


def random_batch(rng: random.Random, count: int = 1000, variant: str = "4x4k4") -> bytes:
    """An /analyze/batch body of `count` random 4x4 positions of 0 to 6 pieces, each with its main line:
    long lines, and positions a worker's kept bodies rarely hold (the costly case)."""
    positions = []
    for _ in range(count):
        cells, order = ["."] * 16, rng.sample(range(16), rng.randint(0, 6))
        for ply, cell in enumerate(order):
            cells[cell] = "XO"[ply % 2]
        positions.append({"board": "".join(cells), "variant": variant, "mainline": True})
    return json.dumps({"positions": positions}).encode()


@dataclass(frozen=True)
class Batch:
    status: int
    seconds: float


@contextmanager
def batch_poster(url: str, seed: int = 20) -> Iterator[list[Batch]]:
    """One client posting random batches to `url` (/analyze/batch) one after another until the block
    ends (the batch under way is finished first, within a minute); the list holds each one done."""
    done: list[Batch] = []
    stop = threading.Event()
    rng = random.Random(seed)

    def post() -> None:
        while not stop.is_set():
            request = urllib.request.Request(url, random_batch(rng), {"Content-Type": "application/json"})
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    response.read()
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            done.append(Batch(status, time.perf_counter() - started))

    poster = threading.Thread(target=post, daemon=True)
    poster.start()
    try:
        yield done
    finally:
        stop.set()
        poster.join(timeout=70)
