"""Real servers on loopback for tests and benchmarks: gunicorn with service/gunicorn_conf.py, and
Debian's nginx running deploy/nginx.conf with only its addresses and process paths swapped.

Every process starts in its own session and is killed with its whole group on exit; every wait has a
deadline.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from tests.requires import require

REPO = Path(__file__).resolve().parents[2]
GUNICORN_CONF = REPO / "service" / "gunicorn_conf.py"
DEPLOY = REPO / "deploy"
APP = "service.app:create_app()"
HOST = "127.0.0.1"
START_TIMEOUT = 90.0  # a cold start builds every table: seconds, more on a busy machine
# A worker's line once it takes requests, its searches readied or not (service/serving/sources.py)
READIED = re.compile(r"searches (readied in|not readied before)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    stdout: Path
    stderr: Path
    workers: int = 1

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """The whole process group: gunicorn's master and its workers together."""
        if self.process.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)


def spawn(
    command: list[str], workdir: Path, name: str, env: dict[str, str], port: int, cwd: Path = REPO
) -> Server:
    """`cwd` is where `service` is imported from (another checkout, for a benchmark's baseline)."""
    stdout, stderr = workdir / f"{name}.out", workdir / f"{name}.err"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(
            command, cwd=cwd, env={**os.environ, **env}, stdout=out, stderr=err, start_new_session=True
        )
    return Server(process, port, stdout, stderr)


def wait_ready(server: Server, path: str = "/readyz", timeout: float = START_TIMEOUT) -> float:
    """Poll until `path` answers 200, and until every worker has readied its searches when the one
    that answered did (each takes requests only then); returns the seconds waited. Fails if the
    process dies."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited with {server.process.returncode}: {server.stderr.read_text()}")
        try:
            with urllib.request.urlopen(server.url + path, timeout=2) as response:
                if response.status == 200:
                    while 0 < len(READIED.findall(server.stderr.read_text())) < server.workers:
                        if time.monotonic() - started > timeout:
                            raise TimeoutError(f"{server.url}: not every worker readied its searches")
                        time.sleep(0.01)
                    return time.monotonic() - started
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.05)
    raise TimeoutError(f"{server.url}{path} not ready after {timeout:.0f} s")


def gunicorn_command(app: str = APP, checkout: Path = REPO) -> list[str]:
    conf = checkout / GUNICORN_CONF.relative_to(REPO)
    return [sys.executable, "-m", "gunicorn", "-c", str(conf), app]


def start_gunicorn(
    workdir: Path,
    workers: int,
    app: str = APP,
    command: list[str] | None = None,
    port: int | None = None,
    settings: dict[str, str] | None = None,
    cwd: Path = REPO,
) -> Server:
    """On `port` when given (a backend restarted where nginx expects it), else on a free one;
    `settings` are more environment variables (SANMOKU_* app settings); `cwd` serves another checkout
    (a benchmark's baseline)."""
    port = port or free_port()
    metrics = workdir / f"metrics-{port}"
    env = {
        "SANMOKU_BIND": f"{HOST}:{port}",
        "WEB_CONCURRENCY": str(workers),
        "PROMETHEUS_MULTIPROC_DIR": str(metrics),
        **(settings or {}),
    }
    server = spawn(command or gunicorn_command(app, cwd), workdir, f"gunicorn-{port}", env, port, cwd)
    server.workers = workers
    return server


@contextmanager
def gunicorns(workdir: Path, count: int, workers: int = 1) -> Iterator[list[Server]]:
    """`count` independent instances of the service, started together (each start builds its tables)."""
    servers: list[Server] = []
    try:
        servers.extend(start_gunicorn(workdir, workers) for _ in range(count))
        for server in servers:
            wait_ready(server)
        yield servers
    finally:
        for server in servers:
            server.kill()


def require_nginx() -> str:
    return require("nginx")


def substitute(text: str, pattern: str, replace: str | Callable[[re.Match[str]], str]) -> str:
    """One substitution that must match exactly once: if deploy/nginx.conf drifts, the tests say so."""
    result, count = re.subn(pattern, replace, text, flags=re.MULTILINE)
    if count != 1:
        raise ValueError(f"deploy/nginx.conf: expected one match of {pattern!r}, found {count}")
    return result


def loopback_config(upstream_ports: list[int], port: int, workdir: Path) -> str:
    """deploy/nginx.conf with the upstream on loopback ports, the listen address on loopback and
    the temporary files and the cache in workdir; the proxy rules (proxy.conf) are included unchanged."""
    text = (DEPLOY / "nginx.conf").read_text()

    def servers(match: re.Match[str]) -> str:  # one line per backend, with the deployed parameters
        return "\n        ".join(f"server {HOST}:{p}{match.group(1)};" for p in upstream_ports)

    text = substitute(text, r"server api:8000([^;]*);", servers)
    text = substitute(text, r"^(\s*)listen 80;", rf"\1listen {HOST}:{port};")
    text = substitute(text, r"proxy_cache_path \S+", f"proxy_cache_path {workdir / 'cache'}")
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "".join(f"\n    {kind}_temp_path {workdir / kind};" for kind in kinds)
    return substitute(text, r"^http \{", "http {" + temp)


@contextmanager
def nginx(upstream_ports: list[int]) -> Iterator[Server]:
    binary = require_nginx()
    # Not under pytest's private tmp folder: nginx workers drop root and must reach their temp paths.
    workdir = Path(tempfile.mkdtemp(prefix="sanmoku-nginx-"))
    workdir.chmod(0o755)
    port = free_port()
    shutil.copy(DEPLOY / "proxy.conf", workdir / "proxy.conf")  # included relative to nginx.conf
    (workdir / "nginx.conf").write_text(loopback_config(upstream_ports, port, workdir))
    process_paths = f"daemon off; pid {workdir / 'nginx.pid'}; error_log {workdir / 'error.log'} warn;"
    error_log = str(workdir / "error.log")
    command = [binary, "-p", str(workdir), "-e", error_log, "-c", str(workdir / "nginx.conf")]
    server = spawn([*command, "-g", process_paths], workdir, "nginx", {}, port)
    try:
        wait_ready(server, "/nginx-health", timeout=15)
        yield server
    finally:
        server.kill(signal.SIGQUIT)  # graceful: lets nginx remove its pid file
        shutil.rmtree(workdir, ignore_errors=True)


AccessLine = dict[str, object]


def access_lines(
    server: Server, until: Callable[[list[AccessLine]], bool] = bool, seconds: float = 2.0
) -> list[AccessLine]:
    """The server's JSON access lines, read again until `until` holds of them (or `seconds` pass): a
    worker writes the lines of one turn of its event loop together, just after the answers went out."""
    deadline = time.monotonic() + seconds
    while True:
        text = server.stdout.read_text()
        lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
        if until(lines) or time.monotonic() > deadline:
            return lines
        time.sleep(0.02)


def totals(server: Server, leave_out: tuple[str, ...] = ()) -> dict[str, float]:
    """flask_http_request_total by status, summed over methods (and, by the collector, workers). With
    `leave_out`, the requests to those routes are not counted (read from the duration histogram, which
    names the route): a readiness poll its client gave up on is counted whenever it ends."""
    with urllib.request.urlopen(f"{server.url}/metrics", timeout=10) as response:
        assert response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
        text = response.read().decode()
    wanted = "flask_http_request_duration_seconds_count" if leave_out else "flask_http_request_total"
    by_status: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == wanted and sample.labels.get("route") not in leave_out:
                status = sample.labels["status"]
                by_status[status] = by_status.get(status, 0.0) + sample.value
    return by_status
