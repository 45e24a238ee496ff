"""Long answers that share their worker: a cap on the streams one worker runs at once, a pause between
pieces that lets the worker's other connections in, and a watchdog that closes a stream whose client
has stopped reading.

A gevent worker runs every connection in one thread, so a stream that renders without pausing holds
all of them. `time.sleep(0)` is not enough of a pause there: gevent runs the greenlets that slept(0)
again before it looks at the sockets, for 50 of them at a time, so ten streams taking turns kept a
short request waiting for hundreds of milliseconds (p99 0.4 to 0.6 s, with pieces of 512 rows) where
`gevent.idle()` (run when the loop has nothing else to do) kept it at 11 to 24 ms; a 0.5 ms timer
gave about 90 ms (tests/bench/stream_bench.py; README, Performance). A large /analyze/batch is paced
the same way between its items (play.py), with a bound on the wait: a worker kept busy by other
clients is never idle, and a batch waiting for that without a bound was held until they stopped (the
whole 5 or 10 s of a wrk run, against 0.2 s alone). Streams keep the unbounded wait they were measured
with.

gunicorn's gevent worker has no write deadline: a client that stops reading holds its stream, and what
the stream holds, for ever. Each piece records when it was handed to the server; the watchdog (one
thread, or greenlet, per process, only while streams run) shuts down the socket of a stream whose
piece has not been taken for STREAM_STALL_SECONDS, which fails the server's write (a broken pipe, which
gunicorn closes quietly) and closes the stream.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

import gevent  # type: ignore[import-untyped, unused-ignore]  # untyped (main lists it in pyproject)
from flask import Flask, current_app
from gevent import monkey

EXTENSION = "sanmoku.streams"
RETRY_AFTER = 10  # seconds a refused stream is told to wait: a table streams for tens of seconds

log = logging.getLogger(__name__)

T = TypeVar("T")


def pause(most: float | None = None) -> None:
    """Let the process's other connections run before the next piece is rendered: under gevent's
    workers (gunicorn_conf.py), wait until the loop has nothing else to do (short requests first,
    streams in the time left over), or for `most` seconds when given (a worker kept busy by other
    clients is never idle: an idle wait alone would hold the caller until they stop); under threads
    (tests, other servers), yield the processor."""
    if monkey.is_module_patched("socket"):
        with gevent.Timeout(most, False):  # None: no time limit
            gevent.idle()
    else:
        time.sleep(0)


def paced(pieces: Iterable[T], every: float = 0.0, most: float | None = None) -> Iterator[T]:
    """`pieces` with a pause(most) once `every` seconds have passed since the last one (by default
    after each piece), counted when the consumer asks for the next piece: so the time spent on a
    piece (a stream's piece written, a batch's item answered) counts."""
    last = time.monotonic()
    for piece in pieces:
        yield piece
        if time.monotonic() - last >= every:
            pause(most)
            last = time.monotonic()


class Stream:
    """The WSGI body of one streamed answer: it holds a slot of its worker until the server closes it
    (or it ends), and tells the watchdog since when the server has been writing its last piece."""

    def __init__(
        self, pieces: Iterator[bytes], streams: Streams, environ: Mapping[str, Any], capped: bool
    ) -> None:
        self._pieces = pieces
        self._streams = streams
        self.capped = capped
        # gunicorn's workers and werkzeug's server both hand the connection to the app
        self.connection: socket.socket | None = environ.get("gunicorn.socket") or environ.get(
            "werkzeug.socket"
        )
        query = environ.get("QUERY_STRING", "")
        self.label = f"{environ.get('PATH_INFO', '')}{'?' if query else ''}{query}"
        self.client = environ.get("REMOTE_ADDR", "?")
        self.handed_at: float | None = None  # when the piece being written was handed to the server
        self.aborted = False
        self._closed = False

    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> bytes:
        self.handed_at = None  # the server took the last piece: it asks for the next
        try:
            piece = next(self._pieces)
        except StopIteration:
            self.close()  # the slot is free as soon as the last piece is out
            raise
        self.handed_at = time.monotonic()
        return piece

    def close(self) -> None:
        """Called by the server when the answer is done, cut or refused (also before the first piece);
        the pieces' generator and what it holds (a chunk of the table, the compressor) go with it."""
        if not self._closed:
            self._closed = True
            self.handed_at = None
            close = getattr(self._pieces, "close", None)
            if close is not None:
                close()
            self._streams.release(self)

    def stalled_for(self, now: float) -> float:
        handed = self.handed_at
        return 0.0 if handed is None else now - handed

    def abort(self) -> None:
        """Fail the server's pending write: shut the connection down through a duplicate of its
        descriptor. The write then fails with a broken pipe, which gunicorn takes quietly for a client
        gone, and it closes the stream. (gevent's own shutdown or close of the socket would wake the
        write with "file descriptor closed in another greenlet", which gunicorn logs as an error.)"""
        self.aborted = True
        if self.connection is None:
            return
        with contextlib.suppress(OSError):  # the client went away meanwhile
            duplicate = socket.socket(fileno=os.dup(self.connection.fileno()))
            try:
                duplicate.shutdown(socket.SHUT_RDWR)
            finally:
                duplicate.close()


class Streams:
    """The streams of one process: at most `limit` capped ones at once (whole-table /solve answers),
    and every one closed once stalled `stall_seconds` (the table file's download too)."""

    def __init__(self, limit: int, stall_seconds: float) -> None:
        self.limit = limit
        self.stall_seconds = stall_seconds
        self._open: set[Stream] = set()
        self._capped = 0
        self._lock = threading.Lock()
        self._watching = False

    def open(self, pieces: Iterator[bytes], environ: Mapping[str, Any], capped: bool = True) -> Stream | None:
        """A stream of `pieces`, or None when it is `capped` and this process already runs `limit`
        capped ones."""
        with self._lock:
            if capped and self._capped >= self.limit:
                return None
            stream = Stream(pieces, self, environ, capped)
            self._open.add(stream)
            self._capped += capped
            start = not self._watching and stream.connection is not None
            self._watching = self._watching or start
        if start:
            threading.Thread(target=self._watch, name="stream-watchdog", daemon=True).start()
        return stream

    def watched(self, pieces: Iterator[bytes], environ: Mapping[str, Any]) -> Stream:
        """A stream of `pieces` that counts against no cap (only the watchdog looks after it)."""
        stream = self.open(pieces, environ, capped=False)
        assert stream is not None  # an uncapped stream is never refused
        return stream

    def release(self, stream: Stream) -> None:
        with self._lock:
            if stream in self._open:
                self._open.discard(stream)
                self._capped -= stream.capped

    def running(self) -> int:
        """The capped streams open now."""
        with self._lock:
            return self._capped

    def _watch(self) -> None:
        """Every quarter of the allowed stall (at most a second), abort the streams stalled longer;
        it ends when no stream is left, and the next stream starts another."""
        interval = min(1.0, self.stall_seconds / 4)
        while True:
            time.sleep(interval)
            now = time.monotonic()
            with self._lock:
                if not self._open:
                    self._watching = False
                    return
                stalled = [s for s in self._open if not s.aborted and s.stalled_for(now) > self.stall_seconds]
            for stream in stalled:
                log.warning(
                    "closing the stream of %s to %s: its client has read nothing for %.0f s "
                    "(STREAM_STALL_SECONDS)",
                    stream.label,
                    stream.client,
                    stream.stalled_for(now),
                )
                stream.abort()


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Streams(
        app.config["SOLVE_STREAMS_PER_WORKER"], app.config["STREAM_STALL_SECONDS"]
    )


def get_streams() -> Streams:
    streams: Streams = current_app.extensions[EXTENSION]
    return streams
