"""Who the client is: the address of the peer (REMOTE_ADDR), or, behind TRUSTED_PROXIES proxies, the
address the nearest of them saw, which it appended to X-Forwarded-For (nginx's
`$proxy_add_x_forwarded_for`, deploy/proxy.conf).

Per-client limits count by this address (rate_limits.py). Behind nginx, every request's peer is nginx:
trusting nothing there makes all clients one. Exposed directly, a client writes X-Forwarded-For as it
likes: trusting a proxy there lets it pick any address, hence 0 by default and 1 in docker-compose.yml.
werkzeug's ProxyFix reads the entry that many hops from the right and puts it in REMOTE_ADDR (the
peer's stays in the environ as `werkzeug.proxy_fix.orig`), so the access line names the client too.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def init_app(app: Flask) -> None:
    """Around the views and the edge that answers repeated requests, so that both see the client."""
    trusted = int(app.config.get("TRUSTED_PROXIES") or 0)
    if trusted < 0:
        raise ValueError(f"TRUSTED_PROXIES must be 0 or more, not {trusted}")
    if trusted:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=trusted, x_proto=0, x_host=0, x_port=0, x_prefix=0)  # type: ignore[method-assign]
