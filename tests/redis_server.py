"""A real redis-server on a free loopback port for the tests of the shared store (Debian's redis-server;
CI installs it): started in its own session, its data in a folder of the test's, killed with its group at
the end; every wait has a deadline. Its append-only file is written before each reply (and synced to
the disk once a second: a sync at every write held every read behind it, past the store's 50 ms), so a
server killed (SIGKILL) and started again on the same folder holds every proof it had acknowledged.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tests.requires import require

HOST = "127.0.0.1"
START_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.binary = require("redis-server")
        self.directory, self.port = directory, port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        command = [
            self.binary,
            "--bind", HOST,
            "--port", str(self.port),
            "--dir", str(self.directory),
            "--save", "",
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--daemonize", "no",
            "--logfile", str(self.directory / "redis.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.directory / "redis.log").read_text(errors="replace")
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: {log[-2000:]}")
            if self.pings():
                return
            time.sleep(0.02)
        raise TimeoutError(f"redis-server on port {self.port} did not answer in {START_TIMEOUT:.0f} s")

    def pings(self) -> bool:
        """Whether the server answers PING, in the protocol's own words (no client library needed)."""
        try:
            with socket.create_connection((HOST, self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self, sig: int = signal.SIGKILL) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        process.wait(timeout=10)


@contextmanager
def redis_server(directory: Path) -> Iterator[RedisServer]:
    server = RedisServer(directory)
    try:
        server.start()
        yield server
    finally:
        server.kill()
