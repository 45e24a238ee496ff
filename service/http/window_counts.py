"""The rate limits' counts in one worker's memory (the default, with no STORE_URL): fixed windows, each
client's count dropped once its window is over.

limits' own memory storage ("memory://") expires its keys on a timer thread, started again 10 ms after
each count while requests come, whose every run walks every key: a thread start per burst of requests
(a request cost 3.5 ms more in process here: `python -m tests.bench.rate_limit_cost`), and a walk that
grows with the number of clients, on the worker's one event loop under gevent. Here a heap of window
ends is popped as counts are made: each count costs O(log n), and nothing runs between requests.
Registered with limits under the scheme "worker-memory" (its storages register by subclassing).
"""

from __future__ import annotations

import heapq
import threading
import time

from limits.storage import Storage

SCHEME = "worker-memory"


class WindowCounts(Storage):
    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012  # limits' registry reads a list, as its own storages set it

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: float | str | bool):
        self._counts: dict[str, tuple[int, float]] = {}  # key: (count, when its window ends)
        self._ends: list[tuple[float, str]] = []  # every window's end, soonest first
        self._lock = threading.Lock()  # greenlets of one worker (and threads, outside gunicorn)
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            self._drop_ended(now)
            count, ends = self._counts.get(key, (0, 0.0))
            if ends <= now:
                count, ends = 0, now + expiry
                heapq.heappush(self._ends, (ends, key))
            count += amount
            self._counts[key] = (count, ends)
            return count

    def get(self, key: str) -> int:
        count, ends = self._counts.get(key, (0, 0.0))
        return count if ends > time.time() else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        _, ends = self._counts.get(key, (0, 0.0))
        return ends if ends > now else now

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._lock:
            cleared = len(self._counts)
            self._counts.clear()
            self._ends.clear()
            return cleared

    def clear(self, key: str) -> None:
        with self._lock:
            self._counts.pop(key, None)  # its entry in _ends goes when its time comes

    def _drop_ended(self, now: float) -> None:
        while self._ends and self._ends[0][0] <= now:
            ends, key = heapq.heappop(self._ends)
            if self._counts.get(key, (0, 0.0))[1] == ends:  # not a later window of the same key
                del self._counts[key]

    def __len__(self) -> int:
        return len(self._counts)
