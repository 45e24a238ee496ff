# ruff: noqa: E501  (the snippets run in fresh processes read best one statement a line)
"""The hardening findings replayed against a checkout: one line per finding, what it measures and what came
out. Run it against main (a copy of it, with the compiled core copied in) and against this checkout:

    python -m tests.bench.hardening_repro                        # this checkout
    python -m tests.bench.hardening_repro --checkout /tmp/base   # another one

Each finding runs in fresh processes (a Flask test client, gunicorn, nginx or the command line, as the
finding needs), with the checkout first on the path; only what the API and the command line show is
read, so that any version can be measured. Some need root (a mount namespace for a read-only directory
or a small full disk) and nginx.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.serving import harness

HERE = Path(__file__).resolve().parents[2]
APP = """
import json, sys, tempfile, time
from service.app import create_app
def client(directory=None):
    config = {"TESTING": True, "ACCESS_LOG": False, "TABLES_AT_START": [],
              "TABLES_DIR": directory or tempfile.mkdtemp()}
    return create_app(config).test_client()
def timed(call):
    started = time.perf_counter()
    answer = call()
    return answer, round(time.perf_counter() - started, 3)
"""
FINDINGS: dict[str, Callable[[Path], str]] = {}


def finding(name: str) -> Callable[[Callable[[Path], str]], Callable[[Path], str]]:
    def keep(measure: Callable[[Path], str]) -> Callable[[Path], str]:
        FINDINGS[name] = measure
        return measure

    return keep


def python(checkout: Path, code: str, *argv: str, prefix: tuple[str, ...] = ()) -> str:
    """The snippet's last line of output, run with the checkout first on the path."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [*prefix, sys.executable, "-c", APP + code, *argv]
    done = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, timeout=900)
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else f"exit {done.returncode}: {done.stderr.strip().splitlines()[-1:]}"


def cli(checkout: Path, *argv: str, tables: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "SANMOKU_TABLES_DIR": tables}
    command = [sys.executable, "-m", "service.cli.main", *argv]
    return subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, timeout=300)


@finding("1 first 8x8k3-torus request, default budget")
def first_torus(checkout: Path) -> str:
    return python(
        checkout,
        """
a, s = timed(lambda: client().post("/analyze", json={"board": "." * 64, "variant": "8x8k3-torus"}))
b = a.get_json()
print(f"{b['result']}, {b['search']['nodes']} nodes, {s} s")""",
    )


@finding("1 review of 40 plies, 8x8k7-torus, budget_ms 1")
def review(checkout: Path) -> str:
    return python(
        checkout,
        """
a, s = timed(lambda: client().post("/review", json={"variant": "8x8k7-torus", "moves": list(range(40)), "budget_ms": 1}))
print(f"{a.status_code}, {s} s")""",
    )


@finding("1 batch of 20 torus positions, budget_ms 1")
def batch(checkout: Path) -> str:
    return python(
        checkout,
        """
items = [{"board": "." * 25, "variant": f"5x5k{k}-torus"} for k in (3, 4, 5)] * 3
items += [{"board": "." * 49, "variant": "7x7k5-torus"}] * 4
items += [{"board": "." * 64, "variant": f"8x8k{k}-torus"} for k in (3, 4, 5, 6, 7, 8, 5)]
a, s = timed(lambda: client().post("/analyze/batch", json={"positions": items, "budget_ms": 1}))
print(f"{a.status_code}, {s} s")""",
    )


def gunicorn(checkout: Path, workdir: Path, **settings: str) -> harness.Server:
    tables = workdir / "tables"
    env = {"SANMOKU_TABLES_DIR": str(tables), "SANMOKU_TABLES_AT_START": "[]", **settings}
    server = harness.start_gunicorn(workdir, 1, settings=env, cwd=checkout)
    harness.wait_ready(server)
    return server


def post(
    server: harness.Server, path: str, body: object, timeout: float = 60
) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        server.url + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


HARD = {"board": "." * 49, "variant": "7x7k5"}
NO_TABLE = "X...O...................."  # 5x5k4-misere: no table, no book


@finding("1 a 10 s search whose client hangs up after 0.5 s (its request's duration)")
def hang_up(checkout: Path) -> str:
    with tempfile.TemporaryDirectory() as folder:
        server = gunicorn(checkout, Path(folder), SANMOKU_SEARCH_SLOTS="1")
        try:
            body = json.dumps({**HARD, "budget_ms": 10_000}).encode()
            with socket.create_connection((harness.HOST, server.port)) as connection:
                head = f"POST /analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                connection.sendall(head.encode() + body)
                time.sleep(0.5)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                lines = [json.loads(x) for x in server.stdout.read_text().splitlines() if x.startswith("{")]
                done = [x for x in lines if x.get("path") == "/analyze"]
                if done:
                    return f"{done[0]['duration_ms'] / 1000:.2f} s"
                time.sleep(0.1)
            return "not done in 15 s"
        finally:
            server.stop()


@finding("7 wait for a busy search slot before the 503 (budget 2 s)")
def slot_wait(checkout: Path) -> str:
    with tempfile.TemporaryDirectory() as folder:
        server = gunicorn(checkout, Path(folder), SANMOKU_SEARCH_SLOTS="1")
        try:
            with ThreadPoolExecutor(1) as pool:
                first = pool.submit(post, server, "/analyze", {**HARD, "budget_ms": 3000})
                time.sleep(0.3)
                started = time.perf_counter()
                status, _ = post(server, "/analyze", {**HARD, "budget_ms": 2000})
                waited = time.perf_counter() - started
                first.result()
            return f"{status} after {waited:.2f} s"
        finally:
            server.stop()


STORE_FAULT = """
import os, sqlite3, sys
from pathlib import Path
directory = Path(tempfile.mkdtemp())
c = client(str(directory))
c.post("/analyze", json={"board": "XO.X./.OX../O..../...../.....", "variant": "5x5k4", "budget_ms": 3000})
del c
import gc; gc.collect()
path = directory / "proven.sqlite"
kind = sys.argv[1]
for extra in directory.glob("proven.sqlite-*"):
    extra.unlink()
if kind == "damaged":
    with path.open("r+b") as f: f.write(b"not a database any more")
elif kind == "truncated":
    os.truncate(path, path.stat().st_size // 3)
elif kind == "foreign":
    path.unlink()
    with sqlite3.connect(path) as db: db.execute("CREATE TABLE invoices (id INTEGER)")
c = client(str(directory))
"""
SEARCH_THEN_READY = """
a = c.post("/analyze", json={{"board": "{board}", "variant": "{variant}", "budget_ms": {budget}}})
r = c.get("/readyz").get_json()
print(f"search {{a.status_code}}, /readyz {{r['status']}}")
"""


def store_fault(checkout: Path, kind: str) -> str:
    """A search answer and /readyz beside a cache of proven positions made `kind` (damaged, ...)."""
    script = STORE_FAULT + SEARCH_THEN_READY.format(board=NO_TABLE, variant="5x5k4-misere", budget=200)
    return python(checkout, script, kind)


@finding("2 a damaged proven.sqlite: a search answer, /readyz")
def damaged(checkout: Path) -> str:
    return store_fault(checkout, "damaged")


@finding("2 a truncated proven.sqlite: a search answer, /readyz")
def truncated(checkout: Path) -> str:
    return store_fault(checkout, "truncated")


@finding("2 a foreign proven.sqlite: a search answer, /readyz")
def foreign(checkout: Path) -> str:
    return store_fault(checkout, "foreign")


READ_ONLY = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'
SMALL_DISK = 'mount -t tmpfs -o size=2m tmpfs "$0" && exec "$@"'


def mounted(mount: str, folder: Path) -> tuple[str, ...]:
    """A prefix that runs a command with `mount` done on `folder`, in a mount namespace of its own."""
    return ("unshare", "-m", "sh", "-c", mount, str(folder))


@finding("2 a read-only tables directory: a search answer, /readyz")
def read_only(checkout: Path) -> str:
    folder = Path(tempfile.mkdtemp())
    code = "c = client(sys.argv[1])\n" + SEARCH_THEN_READY.format(
        board=NO_TABLE, variant="5x5k4-misere", budget=200
    )
    return python(checkout, code, str(folder), prefix=mounted(READ_ONLY, folder))


@finding("2 a full disk: a proven search answer, /readyz")
def full_disk(checkout: Path) -> str:
    folder = Path(tempfile.mkdtemp())
    code = """
directory = sys.argv[1]
with open(directory + "/filler", "wb", buffering=0) as filler:
    try:
        while True: filler.write(bytes(4096))
    except OSError: pass
c = client(directory)
""" + SEARCH_THEN_READY.format(board="XO.X./.OX../O..../...../.....", variant="5x5k4", budget=3000)
    return python(checkout, code, str(folder), prefix=mounted(SMALL_DISK, folder))


@finding("3 store write-locked 3 s by another process: searches, 3x3 lookups' worst")
def locked(checkout: Path) -> str:
    with tempfile.TemporaryDirectory() as folder:
        server = gunicorn(checkout, Path(folder))
        try:
            post(server, "/analyze", {"board": "XO.X./.OX../O..../...../.....", "variant": "5x5k4"})
            holder = sqlite3.connect(Path(folder) / "tables" / "proven.sqlite", isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
            boards = [".OX.X/..XO./....O/...../.....", "XO..X/.O.X./....O/...../....."]
            with ThreadPoolExecutor(2) as pool:
                searches = [
                    pool.submit(post, server, "/analyze", {"board": b, "variant": "5x5k4"}) for b in boards
                ]
                worst, ends = 0.0, time.monotonic() + 3
                while time.monotonic() < ends:
                    started = time.perf_counter()
                    with urllib.request.urlopen(server.url + "/analyze?board=X...O....", timeout=30):
                        pass
                    worst = max(worst, time.perf_counter() - started)
                statuses = [s.result()[0] for s in searches]
            holder.rollback()
            holder.close()
            return f"searches {statuses}, worst lookup {worst * 1000:.0f} ms"
        finally:
            server.stop()


@finding("4 WAL after 600 writes beside a long reader, then the store's trim")
def wal(checkout: Path) -> str:
    code = """
from pathlib import Path
from service.engine import Position, get_variant
from service.engine.search.proven import ProvenCache
try:  # records name what proved them since the fifth round; a checkout of before takes none
    from service.engine.search.proof_number import Prover
    from service.engine.search.proven_record import SEARCH, Origin, KnownMove
    ORIGIN = (Origin.of(SEARCH, [Prover.ALPHA_BETA]),)
except ImportError:
    from service.engine.search.proven import KnownMove
    ORIGIN = ()
directory = Path(tempfile.mkdtemp())
store = ProvenCache(directory)
v = get_variant("5x5k4")
store.put(Position.empty(v).play(12), [KnownMove(0, 0, 0, 21)], *ORIGIN)
reader = sqlite3.connect(directory / "proven.sqlite", isolation_level=None)
reader.execute("BEGIN"); reader.execute("SELECT COUNT(*) FROM proven").fetchone()
for a in range(25):
    for b in range(25):
        if a != b:
            p = Position.empty(v).play(a).play(b)
            store.put(p, [KnownMove(c, 0, 0, 21) for c in p.legal_moves()], *ORIGIN)
wal = directory / "proven.sqlite-wal"
grown = wal.stat().st_size
reader.rollback(); reader.close()
store.trim()
print(f"{grown / 1e6:.1f} MB -> {wal.stat().st_size / 1e6:.1f} MB after the trim; counted in the bound: {store.stats().bytes >= wal.stat().st_size and wal.stat().st_size > 0 or wal.stat().st_size == 0}")
""".replace("import tempfile", "")
    return python(checkout, "import sqlite3\n" + code)


@finding("5 two bytes flipped in a stored record (4x4k4, a draw in 14)")
def flipped(checkout: Path) -> str:
    code = """
import sqlite3
from pathlib import Path
from service.engine import Analyst, SearcherPool, Position, get_variant
from service.engine.search import Budget
from service.engine.search.proven import ProvenCache
directory = Path(tempfile.mkdtemp())
store = ProvenCache(directory)
analyst = Analyst(lambda v: None, store, SearcherPool(1))
position = Position.empty(get_variant("4x4k4")).play(5).play(10)
analyst.analyze(position, Budget(10.0))
with sqlite3.connect(directory / "proven.sqlite") as db:
    blob = bytearray(db.execute("SELECT moves FROM proven").fetchone()[0])
    blob[1:3] = bytes((2, 2))
    db.execute("UPDATE proven SET moves = ?", (bytes(blob),))
answer = analyst.analyze(position, Budget(10.0))
print(f"served from the {answer.source.value}: {answer.value}, exact {answer.exact}")"""
    return python(checkout, code)


@finding("6 answers still wrong after a damaged 3x4k3 table is repaired (of 40 cached)")
def repaired(checkout: Path) -> str:
    code = """
import os, random
from pathlib import Path
from service.engine import Position, TableStore, get_variant
from service.engine.tables import store as store_module
store_module.RECHECK_SECONDS = 0.0
directory = Path(tempfile.mkdtemp())
v = get_variant("3x4k3")
path = TableStore(directory).path(v); TableStore(directory).get(v)
good = path.read_bytes()
rng, boards = random.Random(1), []
while len(boards) < 40:
    p = Position.empty(v)
    for _ in range(rng.randrange(1, 5)):
        p = p.play(rng.choice(p.legal_moves()))
    if not p.is_over and p.cells not in boards: boards.append(p.cells)
truth = [client(str(directory)).get(f"/analyze?board={b}&variant=3x4k3").data for b in boards]
body = good[4096:]
with path.open("r+b") as f:
    f.seek(4096); f.write(bytes([max(set(body), key=body.count)]) * len(body))
c = client(str(directory))
damaged = [c.get(f"/analyze?board={b}&variant=3x4k3").data for b in boards]
repair = directory / "repair"; repair.write_bytes(good); os.replace(repair, path)
after = [c.get(f"/analyze?board={b}&variant=3x4k3").data for b in boards]
print(f"{sum(d != t for d, t in zip(damaged, truth))} wrong while damaged, {sum(a != t for a, t in zip(after, truth))} after the repair")"""
    return python(checkout, code)


@finding("7 builders started in 8 s at a full disk")
def builders(checkout: Path) -> str:
    folder = Path(tempfile.mkdtemp())
    code = """
from pathlib import Path
from service.engine import TableStore, TableSupply, get_variant
from service.engine.tables import builder
directory = Path(sys.argv[1])
supply = TableSupply(TableStore(directory))
variant = get_variant("4x4k4")
supply.queue.add(variant)
with open(directory / "filler", "wb", buffering=0) as filler:
    try:
        while True: filler.write(bytes(4096))
    except OSError: pass
starts, real = [], builder.start
builder.start = lambda d: starts.append(1) or real(d)
ends = time.monotonic() + 8
while time.monotonic() < ends:
    supply.request_builds([variant]); time.sleep(0.05)
print(f"{len(starts)} (START_INTERVAL 2 s)")"""
    return python(checkout, code, str(folder), prefix=mounted(SMALL_DISK, folder))


@finding("7 the tables directory's path in a 503 and in /readyz")
def paths(checkout: Path) -> str:
    code = """
from pathlib import Path
base = Path(tempfile.mkdtemp()); (base / "file").write_text("")
directory = str(base / "file" / "tables")  # under a file: it cannot be made
c = client(directory)
bodies = [c.get("/analyze?board=................&variant=4x4k4&source=auto").data, c.get("/variants/4x4k4/table").data, c.get("/readyz").data]
print(f"{sum(directory in b.decode() for b in bodies)} of {len(bodies)} answers name it")"""
    return python(checkout, code)


@finding("7 CORS headers on gunicorn's 431 and nginx's 502")
def cors(checkout: Path) -> str:
    def asked(port: int, raw: bytes) -> str:
        with socket.create_connection((harness.HOST, port), timeout=10) as connection:
            connection.sendall(raw)
            received = b""
            while chunk := connection.recv(65536):
                received += chunk
        return received.split(b"\r\n\r\n")[0].decode("latin-1").lower()

    with tempfile.TemporaryDirectory() as folder:
        server = gunicorn(checkout, Path(folder))
        try:
            head = asked(
                server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"v" * 9000 + b"\r\n\r\n"
            )
        finally:
            server.stop()
    gunicorn_has = "access-control-allow-origin: *" in head
    nginx_conf = checkout / "deploy" / "proxy.conf"
    return f"gunicorn 431: {gunicorn_has}; nginx's own problems: {'Access-Control-Allow-Origin' in nginx_conf.read_text()}"


@finding("CLI: solve 4x4k4 (json), solve 4x5k4, analyze --budget-ms -5")
def cli_limits(checkout: Path) -> str:
    tables = tempfile.mkdtemp()
    solve = subprocess.run(
        f"PYTHONPATH={checkout} SANMOKU_TABLES_DIR={tables} {sys.executable} -m service.cli.main solve --variant 4x4k4 | head -c 100000000 | wc -c",
        shell=True,
        capture_output=True,
        text=True,
        cwd=checkout,
        timeout=300,
    )
    large = cli(checkout, "solve", "--variant", "4x5k4", tables=tables)
    budget = cli(checkout, "analyze", "." * 25, "--variant", "5x5k4", "--budget-ms", "-5", tables=tables)
    traceback = "traceback" if "Traceback" in large.stderr else f"exit {large.returncode}"
    return (
        f"{int(solve.stdout) / 1e6:.0f}+ MB of JSON; 4x5k4: {traceback}; budget -5: exit {budget.returncode}"
    )


@finding("CLI: cache stats --dir <typo>, cache clear without --yes, --version")
def cli_store(checkout: Path) -> str:
    tables = tempfile.mkdtemp()
    typo = Path(tables) / "typo"
    stats = cli(checkout, "cache", "stats", "--dir", str(typo), tables=tables)
    cli(checkout, "analyze", "XO.X./.OX../O..../...../.....", "--variant", "5x5k4", tables=tables)
    clear = cli(checkout, "cache", "clear", tables=tables)
    shown = cli(checkout, "--version", tables=tables)
    return (
        f"typo: exit {stats.returncode}, made {typo.exists()}; clear: exit {clear.returncode} "
        f"({clear.stdout.strip() or clear.stderr.strip()[:40]}); --version: exit {shown.returncode}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", type=Path, default=HERE)
    parser.add_argument("--only", nargs="*", help="findings whose name contains one of these")
    args = parser.parse_args()
    for name, measure in FINDINGS.items():
        if args.only and not any(word in name for word in args.only):
            continue
        try:
            found = measure(args.checkout)
        except Exception as error:  # a checkout that cannot even run the scenario says so
            found = f"failed: {type(error).__name__}: {error}"
        print(f"{name}: {found}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
