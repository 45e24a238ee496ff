"""Game tree benchmark: how long a /tree answer takes and how large it is, and what each walk
visits, on the trees the page shows. Prints a markdown table.

Run: python -m tests.bench.tree_bench [--repeat 5]

Each row: the tree's nodes and depth; the median time to grow it and walk it three ways (the searcher,
`lesson`), and of the whole GET /tree through the app (JSON rendered, no cache kept: a fresh app per
repeat would measure its start, so the kept bodies are bypassed with a new query each time); the JSON
body's size; the nodes each walk visits.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from service.app import create_app
from service.engine import Algorithm, TableStore, lesson, read_position
from service.engine.games import exact_values, game_of

CASES = [
    ("3x3 near the end", "normal", "XOX.O.X..", None),
    ("3x3 from empty", "normal", ".........", None),
    ("4x4k4 from empty", "4x4k4", "................", 3),
    ("5x5k4 from empty", "5x5k4", "." * 25, None),
    ("8x8k5 from empty", "8x8k5", "." * 64, None),
    ("Eight, whole", "eight", "0:0", None),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    store = TableStore(tempfile.mkdtemp(prefix="tree-bench-"))
    app = create_app({"TESTING": True, "TABLES_DIR": str(store.directory), "ACCESS_LOG": False})
    client = app.test_client()
    print("| tree | nodes | depth | searcher ms | GET /tree ms | JSON kB | minimax | alphabeta | ordered |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, variant, board, depth in CASES:
        position = read_position(variant, board)
        exact = exact_values(position, lambda v: store.get(v) if v.has_table else None)
        searcher, http = [], []
        for i in range(args.repeat):
            started = time.perf_counter()
            evaluation = game_of(position).evaluation
            assert evaluation is not None
            taught = lesson(position, Algorithm.ALPHABETA, evaluation, exact, depth)
            searcher.append(time.perf_counter() - started)
            query = {"board": board, "variant": variant, "algorithm": ["alphabeta", "minimax"][i % 2]}
            side = str(position.to_move)
            query["to_move"] = side if i < 2 else side.lower()  # another query string: no kept body
            if depth is not None:
                query["depth"] = str(depth)
            started = time.perf_counter()
            response = client.get("/tree", query_string=query)
            http.append(time.perf_counter() - started)
            assert response.status_code == 200, response.get_json()
        counts = {a: taught.counts[a].nodes for a in Algorithm}
        engine_ms, http_ms = statistics.median(searcher) * 1000, statistics.median(http) * 1000
        print(
            f"| {label} | {taught.tree.size:,} | {taught.tree.depth} | {engine_ms:.0f} "
            f"| {http_ms:.0f} | {len(response.data) / 1000:.0f} "
            f"| {counts[Algorithm.MINIMAX]:,} | {counts[Algorithm.ALPHABETA]:,} "
            f"| {counts[Algorithm.ALPHABETA_ORDERED]:,} |"
        )


if __name__ == "__main__":
    main()
