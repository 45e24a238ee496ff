"""nginx's answer cache against one gunicorn instance, on loopback, in the same run.

Run: python -m tests.bench.cache_bench [--rounds 3] [--duration 5]

One gunicorn instance (service/gunicorn_conf.py, 2 workers) and deploy/nginx.conf in front of it (the
harness swaps only addresses and paths). wrk asks the same GET /analyze of each, interleaved rounds,
medians; through nginx every answer after the first is a cache hit.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

from tests.bench.ceiling_app import BOARD
from tests.bench.wrk import Run, wrk, wrk_arguments
from tests.serving import harness

PATH = f"/analyze?board={BOARD}"


def main() -> None:
    args = wrk_arguments(__doc__).parse_args()
    runs: dict[str, list[Run]] = {"gunicorn": [], "nginx cache": []}
    with (
        tempfile.TemporaryDirectory(prefix="sanmoku-cache-") as tmp,
        harness.gunicorns(Path(tmp), count=1, workers=2) as [origin],
        harness.nginx([origin.port]) as proxy,
    ):
        urls = {"gunicorn": origin.url + PATH, "nginx cache": proxy.url + PATH}
        with urllib.request.urlopen(urls["nginx cache"], timeout=10) as first:  # fills the cache
            first.read()
        for url in urls.values():
            wrk(url, args, (), duration=1)
        for round_ in range(args.rounds):
            for name, url in urls.items():
                runs[name].append(wrk(url, args, ()))
                print(f"  round {round_ + 1}: {name}: {runs[name][-1].rps:,.0f} req/s", file=sys.stderr)
    settings = f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s --latency"
    print(f"\nGET {PATH}, {settings}, median of {args.rounds} interleaved rounds:\n")
    print("| target | req/s | p50 | p99 | ratio to gunicorn |")
    print("|---|---:|---:|---:|---:|")
    base = statistics.median(r.rps for r in runs["gunicorn"])
    for name, measured in runs.items():
        rps = statistics.median(r.rps for r in measured)
        p50 = statistics.median(r.p50 for r in measured) * 1000
        p99 = statistics.median(r.p99 for r in measured) * 1000
        print(f"| {name} | {rps:,.0f} | {p50:.2f} ms | {p99:.2f} ms | {rps / base:.2f} |")


if __name__ == "__main__":
    main()
