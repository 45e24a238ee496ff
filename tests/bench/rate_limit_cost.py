"""What the per-client rate limits cost a request, in process (werkzeug's test client, no server).

Run: python -m tests.bench.rate_limit_cost [--requests 3000] [--rounds 5] [--store memory://]

Two kinds of request, each to an app with the limits off and one with a quota no run reaches: a repeated
GET /analyze (answered at the WSGI edge, before Flask) and GET /variants/4x4k3 from 200 client addresses
(through Flask and flask-limiter). `--store` counts in another storage (limits' own "memory://", say,
or a redis:// URL) instead of the workers' own (window_counts.py). Rounds are interleaved; medians of
processor microseconds per request (the machine may be busy: processor time, not wall time).
"""

from __future__ import annotations

import argparse
import statistics
import time

from flask.testing import FlaskClient

from service.app import create_app


def client(limits: str, store: str | None) -> FlaskClient:
    config = {"TESTING": True, "ACCESS_LOG": False, "RATE_LIMITS": limits, "STORE_URL": store}
    return create_app(config).test_client()


def per_request(client: FlaskClient, kind: str, requests: int) -> float:
    started = time.process_time()
    for i in range(requests):
        if kind == "edge":
            client.get("/analyze?board=X...O....")
        else:
            client.get("/variants/4x4k3", environ_base={"REMOTE_ADDR": f"10.0.{i % 200}.1"})
    return (time.process_time() - started) / requests * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--store", default=None)
    args = parser.parse_args()
    clients = {"off": client("off", None), "on": client("1000000 per minute", args.store)}
    for each in clients.values():  # warm: the kept bodies, the routes' first calls
        per_request(each, "edge", 100)
        per_request(each, "flask", 100)
    print("| request | limits off (µs) | on (µs) | difference |")
    print("|---|---:|---:|---:|")
    for kind, label in (
        ("edge", "repeated GET /analyze (the edge)"),
        ("flask", "GET /variants/4x4k3 (Flask)"),
    ):
        times: dict[str, list[float]] = {"off": [], "on": []}
        for _ in range(args.rounds):
            for name, each in clients.items():
                times[name].append(per_request(each, kind, args.requests))
        off, on = statistics.median(times["off"]), statistics.median(times["on"])
        print(f"| {label} | {off:.1f} | {on:.1f} | +{on - off:.1f} |")


if __name__ == "__main__":
    main()
