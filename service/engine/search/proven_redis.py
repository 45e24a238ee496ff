"""The positions the search has proven, kept in one Redis (or Valkey) database that many hosts share
(SANMOKU_STORE_URL): a position proven by one host is an answer, not a search, on every other.

Each record is the SQLite store's (`proven_record`): the same bytes, the same checksum over its key
and origin, the same check on every read, whichever host wrote it. A record that fails its checksum is
a miss, never served, and is removed. One whose origin this version does not know, or names a prover
unsound on its game, is a miss too, but is left in place: hosts of two versions share the store
during a rolling update, and the other may read it.

The store is a cache, never the cause of a failed answer or a wrong one. Every connection, command
and reply waits at most `timeout` (50 ms); a call that fails or takes longer is a miss (or a write
not made), and opens a breaker (`store_breaker`): for `pause` (1 s) the calls skip the store at once,
then one call tries it again. A dead or slow store so costs a request at most two waits of `timeout`
(a connection and a reply), once per pause and process.

Two hosts that prove the same position at once both write; the last write wins. Each wrote what it
proved, so a write lost loses bounds, never makes one wrong. The database's own bound and eviction
(maxmemory, allkeys-lru) keep it to its size: no trim here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TypeVar

import redis

from ..rules.canonical import canonical, inverse
from ..rules.known_move import KnownMove
from ..rules.position import Position
from ..rules.variants import Variant
from .proven import key_of
from .proven_file import OK, UNUSABLE, Health
from .proven_record import (
    FAILED_CHECKSUM,
    Key,
    Origin,
    Record,
    checked,
    encoded,
    exact_flag,
    to_keep,
)
from .redis_connection import client
from .store_breaker import Breaker

T = TypeVar("T")
TIMEOUT_SECONDS = 0.05  # the longest wait for a connection, a command's sending or its reply
PAUSE_SECONDS = 1.0  # after a failed call, how long every call skips the store before one tries it
PREFIX = "sanmoku:proven:1:"  # the keys' first part; its number is this layout's (below)

log = logging.getLogger(__name__)


class SharedProvenStore:
    """The proven positions of every host that names the same database. Safe to share between threads;
    one per process (its connections are made again after a fork). It never raises: a miss, a write
    not made, and `health` says why."""

    def __init__(self, url: str, timeout: float = TIMEOUT_SECONDS, pause: float = PAUSE_SECONDS) -> None:
        self._client = client(url, timeout)  # ValueError for a URL it cannot read: at start
        self._breaker = Breaker(pause)
        self.pause = pause
        self._health = Health(OK)
        self._said: set[str] = set()  # why records left in place were not served, logged once each

    @property
    def health(self) -> Health:
        return self._health

    def open(self) -> Health:
        """Ask the store whether it answers (unless the breaker says it did not a moment ago)."""
        self._call(lambda db: db.ping(), None)
        return self._health

    def get(self, position: Position) -> Record | None:
        """What is proven about the moves of the position, or None (also when the store cannot say)."""
        variant = position.variant
        symmetry, masks = canonical(variant, position.mine, position.theirs)
        where = key_of(variant, masks)
        value = self._call(lambda db: db.get(name_of(where)), None)
        if not isinstance(value, bytes):  # None: no record, or no answer (the client is synchronous)
            return None
        record, why = unpacked(where, variant, value, inverse(symmetry))
        if record is None:
            if why == FAILED_CHECKSUM:
                log.warning("a shared proof of a %s position is not served: %s", variant.name, why)
                self._call(lambda db: db.delete(name_of(where)), None)
            elif why not in self._said:  # another version's records stay, and are read again: said once
                self._said.add(why)
                log.warning("shared proofs of this kind are not served here: %s", why)
        return record

    def put(self, position: Position, moves: Sequence[KnownMove], origin: Origin) -> None:
        """Keep what is proven about the position's moves with what was kept before (the tighter bounds
        of each move win), as `ProvenCache.put`: a prover unsound on the game is refused (ValueError)."""
        keep = to_keep(position, moves, origin, self.get)
        if keep is None:
            return
        variant = position.variant
        where = key_of(variant, keep.masks)
        value = packed(where, keep.moves, keep.symmetry, keep.origin)
        self._call(lambda db: db.set(name_of(where), value), None)

    def drop(self, position: Position) -> None:
        """Forget what is kept of the position (a book or a table contradicts it)."""
        _, masks = canonical(position.variant, position.mine, position.theirs)
        self._call(lambda db: db.delete(name_of(key_of(position.variant, masks))), None)

    def close(self) -> None:
        """Let go of the connections (made again at the next use): a server's master, before it forks."""
        try:
            self._client.connection_pool.disconnect()
        except Exception:  # a connection already broken: nothing to let go of
            log.debug("the shared store's connections were closed with an error", exc_info=True)

    def _call(self, work: Callable[[redis.Redis], T], default: T) -> T:
        if not self._breaker.allows():
            return default
        try:
            done = work(self._client)
        # Any failure (a refused connection, a timeout, a reply it cannot read, an error the store
        # answers) is a miss: the answer comes from elsewhere, never a 500.
        except Exception as error:
            self._breaker.failed()
            log.debug("a call to the shared store failed", exc_info=True)
            kind = type(error).__name__
            # The public problem (/readyz) names no address; the log line has the error whole.
            problem = f"the shared store failed a call ({kind}): tried again every {self.pause:g} s"
            self._report(Health(UNUSABLE, problem), f"{kind}: {error}")
            return default
        self._breaker.succeeded()
        self._report(Health(OK), "")
        return done

    def _report(self, health: Health, why: str) -> None:
        if health != self._health:
            if health.state == OK:
                log.info("the shared store of proven positions is in use again")
            else:
                log.warning("the shared store of proven positions failed, answers do without it: %s", why)
        self._health = health


def name_of(where: Key) -> str:
    """The Redis key of a stored key: the variant's long name and the canonical masks in hex."""
    masks = (part.hex() if isinstance(part, bytes) else format(part & (2**64 - 1), "x") for part in where[1:])
    return PREFIX + ":".join((where[0], *masks))


def packed(where: Key, moves: Sequence[KnownMove], symmetry: Sequence[int], origin: Origin) -> bytes:
    """A record's value: its exact flag (a byte), its origin's length (a byte) and text, then the
    record's bytes as `proven_record.encoded` writes them, its checksum last (over all of these)."""
    text = origin.text.encode("ascii")
    return bytes((exact_flag(moves), len(text))) + text + encoded(where, moves, symmetry, origin)


def unpacked(where: Key, variant: Variant, value: bytes, back: Sequence[int]) -> tuple[Record | None, str]:
    """The record a value holds, if it may be served (`proven_record.checked`); else None and why."""
    if len(value) < 2 or len(value) < 2 + value[1]:
        return None, FAILED_CHECKSUM
    try:
        origin = value[2 : 2 + value[1]].decode("ascii")
    except UnicodeDecodeError:
        return None, FAILED_CHECKSUM
    return checked(where, variant, value[2 + value[1] :], value[0], origin, back)
