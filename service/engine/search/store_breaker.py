"""A circuit breaker for a store across the network: once a call to it fails (it is down, or slower than
its timeout), calls skip it for `pause` seconds and are misses at once, so that a dead store costs one
bounded wait per pause, not one per request. Then the first call to come is let through alone (the
others still skip): its success closes the breaker, its failure opens it for another pause.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class Breaker:
    """Safe to share between threads."""

    def __init__(self, pause: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.pause, self._clock = pause, clock
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed, every call goes through

    @property
    def is_open(self) -> bool:
        return self._open_until is not None

    def allows(self) -> bool:
        """Whether a call may go to the store now. Past an open breaker's pause, the caller that is
        let through takes the next pause on itself: the others skip until it has said how it went."""
        with self._lock:
            if self._open_until is None:
                return True
            now = self._clock()
            if now < self._open_until:
                return False
            self._open_until = now + self.pause
            return True

    def succeeded(self) -> None:
        with self._lock:
            self._open_until = None

    def failed(self) -> None:
        with self._lock:
            self._open_until = self._clock() + self.pause
