"""Per-client rate limits, published: every limited answer names the policy (`RateLimit-Policy`) and
what is left of it for its client (`RateLimit`); a client past it gets 429 problem+json with Retry-After.

The fields are the IETF httpapi working group's (draft-ietf-httpapi-ratelimit-headers, the current
two-field form), not the older X-RateLimit-Limit/-Remaining/-Reset: those say nothing of the window's
length, and their Reset is a timestamp with some servers and seconds with others. The draft's policy
field says the quota and the window before a client spends anything, and its quota is in units that a
server may weigh by the work a request takes, as this one does (request_cost.py).

A client is its address (client_address.py). Limited: the routes that answer positions and tables (the
"api", "play", "tree" and "variants" blueprints); not the page, its assets, the contract, the docs and the
probes, nor CORS preflights. flask-limiter keeps the count, as one application-wide limit per client
and window, fixed windows: a request is let in while its client has a unit left, and what it cost is
deducted once it is answered (a search's cost is known only then), so the last request of a window may
overdraw it; the client then waits for the next window. A 429 costs nothing.

The counters live in each worker's memory (window_counts.py), or, with STORE_URL
(SANMOKU_STORE_URL=redis://…), in that Redis, shared by every worker of every host. A store that fails
is never the cause of a failed answer: flask-limiter counts in memory meanwhile (its fallback) and tries
the store again after 1, 2, 4, … 32 s.

Repeated /analyze requests are answered before Flask (repeated.py): the edge counts them here too, under
the same key as flask-limiter's own (EdgeGate), 1 unit each (a table's answer).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterable
from typing import Any

from flask import Flask, Response, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import RateLimitItem, WindowStats, parse_many
from limits.strategies import RateLimiter

from . import request_cost, window_counts
from .problems import problem

DEFAULT_LIMITS = "1200 per minute"  # the published quota: docs/pages/api.md says why
OFF = frozenset({"", "off", "none", "false", "0"})  # RATE_LIMITS values that turn the limits off
LIMITED_BLUEPRINTS = frozenset({"api", "play", "tree", "variants"})
POLICY_HEADER, STATE_HEADER = "RateLimit-Policy", "RateLimit"
SCOPE = "global"  # flask-limiter's scope of application-wide limits: the edge counts under the same keys
# A store that does not answer within this costs a request this much at most (then the memory counts)
STORE_TIMEOUT_S = 0.25
EDGE = "sanmoku.rate_limit_edge"
WINDOW_NAMES = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}

Headers = list[tuple[str, str]]
log = logging.getLogger(__name__)


def parse(setting: Any) -> list[RateLimitItem]:
    """RATE_LIMITS: flask-limiter's notation ("1200 per minute"; several joined by ";"), or off
    (None, False, 0, "", "off", "none", "false"): no limit. Anything else is a ValueError."""
    if setting is None or setting is False:
        return []
    if isinstance(setting, int | str) and str(setting).strip().lower() in OFF:
        return []
    if not isinstance(setting, str):
        raise ValueError(f"RATE_LIMITS must be a string such as {DEFAULT_LIMITS!r} or 'off', not {setting!r}")
    items = parse_many(setting)
    if not items:
        raise ValueError(f"RATE_LIMITS names no limit: {setting!r}")
    return sorted(items)


def policy_name(item: RateLimitItem) -> str:
    seconds = item.get_expiry()
    return WINDOW_NAMES.get(seconds, f"{seconds}s")


class Published:
    """The policies as the fields say them, and what is left of each for one client."""

    def __init__(self, items: list[RateLimitItem]) -> None:
        self.items = items
        self.policy = ", ".join(f'"{policy_name(i)}";q={i.amount};w={i.get_expiry()}' for i in items)

    def state(self, windows: Iterable[tuple[RateLimitItem, WindowStats]]) -> str:
        now = time.time()
        return ", ".join(
            f'"{policy_name(item)}";r={max(0, stats.remaining)};t={seconds_until(stats.reset_time, now)}'
            for item, stats in windows
        )

    def headers(self, windows: Iterable[tuple[RateLimitItem, WindowStats]]) -> Headers:
        return [(POLICY_HEADER, self.policy), (STATE_HEADER, self.state(windows))]


def seconds_until(moment: float, now: float) -> int:
    return max(0, math.ceil(moment - now))


def client_key() -> str:
    return request.remote_addr or ""


def is_exempt() -> bool:
    return request.method == "OPTIONS" or request.blueprint not in LIMITED_BLUEPRINTS


class EdgeGate:
    """The count for the answers repeated.py sends before Flask: 1 unit each, under flask-limiter's key
    for the same client. Headers to add, or None: let Flask answer (its 429 when the client has nothing
    left; its fallback when the store fails)."""

    def __init__(self, limiter: Limiter, published: Published) -> None:
        self.limiter, self.published = limiter, published

    def __call__(self, environ: dict[str, Any]) -> Headers | None:
        key = environ.get("REMOTE_ADDR") or ""
        if not key:
            return None
        try:
            strategy: RateLimiter = self.limiter.limiter  # the memory's while the store is down
            items = self.published.items
            if not all(strategy.test(item, key, SCOPE) for item in items):
                return None
            for item in items:
                strategy.hit(item, key, SCOPE)
            windows = [(item, strategy.get_window_stats(item, key, SCOPE)) for item in items]
            return self.published.headers(windows)
        except Exception:  # the store failed: flask-limiter's own path falls back to memory
            return None


def edge_gate(app: Flask) -> EdgeGate | None:
    gate: EdgeGate | None = app.extensions.get(EDGE)
    return gate


def init_app(app: Flask) -> None:
    """Before repeated.init_app (which takes the edge's gate) and client_address.init_app."""
    setting = app.config.get("RATE_LIMITS", DEFAULT_LIMITS)
    items = parse(setting)
    if not items:
        return
    published = Published(items)
    store = app.config.get("STORE_URL") or f"{window_counts.SCHEME}://"
    options: dict[str, str | int] = {}
    if not store.startswith(window_counts.SCHEME):
        options = {"socket_connect_timeout": STORE_TIMEOUT_S, "socket_timeout": STORE_TIMEOUT_S}  # type: ignore[dict-item]

    # Registered before flask-limiter's own hook, so run after it (Flask runs them in reverse): the
    # request's cost is deducted by then.
    @app.after_request
    def publish(response: Response) -> Response:
        limits = limiter.current_limits
        if limits:
            try:
                for name, value in published.headers((lim.limit, lim.window) for lim in limits):
                    response.headers[name] = value
            except Exception:  # the store failed between the count and now: an answer without the fields
                log.warning("rate limits: the counters could not be read for the headers", exc_info=True)
        return response

    limiter = Limiter(
        key_func=client_key,
        application_limits=[setting],
        application_limits_cost=lambda: request_cost.current().units(),
        application_limits_deduct_when=lambda response: response.status_code != 429,
        strategy="fixed-window",
        storage_uri=store,
        storage_options=options,
        swallow_errors=True,
        in_memory_fallback_enabled=True,
        headers_enabled=False,  # the draft's fields, by `publish`
    )
    limiter.request_filter(is_exempt)
    limiter.init_app(app)

    @app.errorhandler(RateLimitExceeded)
    def refused(error: RateLimitExceeded) -> Response:
        limits = limiter.current_limits
        spent = [lim for lim in limits if lim.breached] or limits
        wait = 1
        try:
            wait = max([1, *(seconds_until(lim.window.reset_time, time.time()) for lim in spent)])
        except Exception:
            log.warning("rate limits: the counters could not be read for Retry-After", exc_info=True)
        quota = "; ".join(f"{lim.limit.amount} units per {policy_name(lim.limit)}" for lim in spent)
        detail = (
            f"this client ({client_key()}) has spent its quota ({quota}): ask again in {wait} s; "
            "every answer's RateLimit field says what is left"
        )
        response = problem(429, "Too Many Requests", detail, "rate-limited", retry_after=wait)
        response.headers["Retry-After"] = str(wait)
        response.headers["Cache-Control"] = "no-store"  # this client's, and for now
        return response

    app.extensions[EDGE] = EdgeGate(limiter, published)
