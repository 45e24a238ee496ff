"""The search slots' fair lending (service/engine/slots.py): first come first served, a slot let go goes
to the longest waiter and never to a newcomer, and a borrower that no slot can reach within its wait is
refused at once, not after it."""

from __future__ import annotations

import threading
import time

import pytest

from service.engine.slots import FairSlots, Lease


def waiting_for(slots: FairSlots, count: int) -> None:
    """Until `count` borrowers wait (bounded)."""
    ends = time.monotonic() + 5
    while slots.waiting < count:
        assert time.monotonic() < ends, "the borrowers never queued"
        time.sleep(0.001)


def borrow(slots: FairSlots, name: str, order: list[str], wait: float | None, hold: float = 0.0) -> None:
    """Waits at most `wait` seconds and says it holds the slot as long (as a search does), then `hold`s."""
    lease = slots.acquire(wait, holds=wait)
    order.append(name if lease is not None else f"{name} refused")
    if lease is not None:
        time.sleep(hold)
        slots.release(lease)


def test_a_slot_let_go_goes_to_the_longest_waiter_first() -> None:
    slots = FairSlots(1)
    held = slots.acquire(None)
    assert held is not None
    order: list[str] = []
    threads = []
    for count, name in enumerate(["first", "second", "third"], start=1):
        threads.append(threading.Thread(target=borrow, args=(slots, name, order, 5.0)))
        threads[-1].start()
        waiting_for(slots, count)
    slots.release(held)
    for thread in threads:
        thread.join(timeout=5)
    assert order == ["first", "second", "third"]


def test_a_newcomer_does_not_take_the_slot_handed_to_a_waiter() -> None:
    slots = FairSlots(1)
    held = slots.acquire(None)
    assert held is not None
    order: list[str] = []
    waiter = threading.Thread(target=borrow, args=(slots, "waiter", order, 5.0, 0.2))
    waiter.start()
    waiting_for(slots, 1)
    slots.release(held)  # handed to the waiter, which may not have woken yet
    newcomer = slots.acquire(0.0)  # would have found the slot free under a semaphore
    waiter.join(timeout=5)
    assert newcomer is None and order == ["waiter"]


def test_a_borrower_no_slot_can_reach_in_time_is_refused_at_once() -> None:
    slots = FairSlots(2)
    leases = [slots.acquire(None, holds=10.0), slots.acquire(None, holds=10.0)]
    started = time.perf_counter()
    assert slots.acquire(1.0, holds=1.0) is None
    assert time.perf_counter() - started < 0.1  # not after its second of waiting
    started = time.perf_counter()
    assert slots.acquire(1.0, holds=1.0, hopeless=0.2) is None  # a holder might have ended sooner
    assert 0.15 < time.perf_counter() - started < 0.9
    for lease in leases:
        assert lease is not None
        slots.release(lease)
    assert slots.acquire(1.0, holds=1.0) is not None


def test_a_borrower_waits_for_a_slot_that_comes_within_its_wait() -> None:
    slots = FairSlots(1)
    order: list[str] = []
    holder = threading.Thread(target=borrow, args=(slots, "holder", order, None, 0.3))
    holder.start()
    while not order:
        time.sleep(0.001)
    started = time.perf_counter()
    lease = slots.acquire(2.0, holds=2.0)
    waited = time.perf_counter() - started
    holder.join(timeout=5)
    assert isinstance(lease, Lease) and 0.1 < waited < 1.5


def test_the_waiters_ahead_count_in_whether_a_slot_comes_in_time() -> None:
    """One slot held for 0.5 s, a waiter ahead that will hold it for 3 s: a borrower that may wait 1 s
    cannot be served in time and is refused at once; one that may wait 5 s queues."""
    slots = FairSlots(1)
    held = slots.acquire(None, holds=0.5)
    assert held is not None
    order: list[str] = []
    ahead = threading.Thread(target=borrow, args=(slots, "ahead", order, 3.0))
    ahead.start()
    waiting_for(slots, 1)
    started = time.perf_counter()
    assert slots.acquire(1.0, holds=1.0) is None
    assert time.perf_counter() - started < 0.1
    slots.release(held)
    ahead.join(timeout=5)
    assert order == ["ahead"]


def test_a_wait_without_a_known_end_ends_at_its_bound() -> None:
    slots = FairSlots(1)
    held = slots.acquire(None)  # holds: not known
    started = time.perf_counter()
    assert slots.acquire(0.2) is None
    assert 0.15 < time.perf_counter() - started < 1.0
    assert held is not None and slots.waiting == 0


def test_slots_are_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least one"):
        FairSlots(0)
