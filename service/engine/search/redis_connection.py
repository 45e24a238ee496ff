"""A Redis (or Valkey) client for the store's reads and writes, made from SANMOKU_STORE_URL: short
timeouts, no retries, and sockets of the operating system itself.

The store's calls run on real threads (a search's thread, the hub's pool: `serving.offload`) in
workers that gevent has patched. A patched socket belongs to the event loop of the thread that made
it, and a pooled connection used from another thread failed with "Cannot switch to a different
thread" (greenlet.error). The connections here are made with `_socket`, which gevent does not patch:
a call blocks its own thread, which is what the store's thread is for, and no event loop.
"""

from __future__ import annotations

import _socket
import urllib.parse
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

SCHEME = "redis"  # Redis or Valkey, without TLS: a store on the hosts' private network


class PlainSocketConnection(redis.Connection):
    """redis-py's TCP connection, its socket made as redis-py makes it, by `_socket` (see above)."""

    def _connect(self) -> Any:
        last: OSError | None = None
        for family, kind, protocol, _, address in _socket.getaddrinfo(
            self.host, self.port, self.socket_type, _socket.SOCK_STREAM
        ):
            sock = _socket.socket(family, kind, protocol)
            try:
                sock.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
                sock.settimeout(self.socket_connect_timeout)
                sock.connect(address)
                sock.settimeout(self.socket_timeout)
                return sock
            except OSError as error:
                sock.close()
                last = error
        raise last or OSError(f"no address for {self.host}")


def check_url(url: str) -> None:
    """ValueError unless `url` names a Redis database as the store reads it (redis://host:port/db)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != SCHEME or not parts.hostname:
        raise ValueError(f"SANMOKU_STORE_URL must read redis://host:port/db, not {parts.scheme}://…")
    if parts.path not in ("", "/") and not parts.path[1:].isdigit():
        raise ValueError("SANMOKU_STORE_URL's database is a number: redis://host:port/0")


def client(url: str, timeout: float) -> redis.Redis:
    """A client of the database at `url` (see `check_url`) whose every connection, command and reply
    waits at most `timeout` seconds, and which never tries a failed command again (the store's
    breaker decides when to try)."""
    check_url(url)
    pool = redis.ConnectionPool.from_url(
        url,
        connection_class=PlainSocketConnection,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(NoBackoff(), 0),
        retry_on_timeout=False,
    )
    return redis.Redis(connection_pool=pool)
