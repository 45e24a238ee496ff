"""Slow clients and a latency probe, for the slow-client test and benchmark (loopback only).

A slow client opens a connection and sends a request's headers one byte at a time, never finishing
them: under gunicorn's sync workers each such client holds a whole worker. The probe meanwhile asks
for one answer after another on fresh connections and records how long each took.
"""

from __future__ import annotations

import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

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
