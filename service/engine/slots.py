"""A fixed number of slots lent first come, first served, each borrower waiting at most its own bound.

A semaphore lets a newcomer take a slot that a waiter was about to get, and makes a waiter that cannot
be served in time wait all the same. Here a slot let go goes straight to the longest waiter, and a
borrower that says until when it will hold its slot lets the next ones know whether waiting can help:
one that could not get a slot before its own wait ends (every slot held, and the waiters ahead of it
served, past that moment) waits a short while only (a holder may end sooner than it said), not its
whole wait.

Built on `threading`'s lock and events, which gevent's patching makes cooperative: under gunicorn's
gevent workers a waiter waits as a greenlet, elsewhere as a thread.
"""

from __future__ import annotations

import heapq
import threading
import time
from collections import deque
from dataclasses import dataclass, field

NEVER = float("inf")


@dataclass(eq=False)
class Lease:
    """One slot lent (or, while its borrower waits, asked for)."""

    until: float  # when its borrower lets go at the latest (NEVER: not known)
    granted: threading.Event = field(default_factory=threading.Event)


class FairSlots:
    """`count` slots; `acquire` lends one or says that none could be had in time."""

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"at least one slot is needed, not {count}")
        self.count = count
        self._lock = threading.Lock()
        self._held: set[Lease] = set()  # lent, or handed to a waiter that has not woken yet
        self._waiting: deque[Lease] = deque()

    def acquire(self, wait: float | None, holds: float | None = None, hopeless: float = 0.0) -> Lease | None:
        """A lease (give it back to `release`), or None when no slot came within `wait` seconds (None:
        no limit). `holds`: the most seconds the borrower keeps the slot from now, if it knows (a
        search: its budget); the borrowers after it read it. When by those no slot comes within `wait`,
        the borrower waits `hopeless` seconds at most (a holder may end sooner than it said: a search
        proves its answer, or its client goes away)."""
        now = time.monotonic()
        lease = Lease(NEVER if holds is None else now + holds)
        with self._lock:
            if len(self._held) < self.count and not self._waiting:
                self._held.add(lease)
                return lease
            if wait is not None and now + wait < self._free_at(now) < NEVER:
                wait = min(wait, hopeless)  # every slot stays taken past this borrower's wait
            self._waiting.append(lease)
        lease.granted.wait(wait)
        with self._lock:
            if lease.granted.is_set():  # handed a slot, maybe just as the wait ran out
                return lease
            self._waiting.remove(lease)
            return None

    def release(self, lease: Lease) -> None:
        with self._lock:
            self._held.remove(lease)
            if self._waiting:  # straight to the longest waiter: no newcomer takes it meanwhile
                waiter = self._waiting.popleft()
                self._held.add(waiter)
                waiter.granted.set()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def _free_at(self, now: float) -> float:
        """When a slot would come to a borrower that queued now, as far as the holders and the waiters
        ahead say: each waiter ahead takes the first slot let go and keeps it until its own end (or
        gives up before, at that same end, when the slot comes later). NEVER: not known."""
        frees = [lease.until for lease in self._held] + [now] * (self.count - len(self._held))
        heapq.heapify(frees)
        for waiter in self._waiting:
            heapq.heappush(frees, max(heapq.heappop(frees), waiter.until))
        return frees[0]
