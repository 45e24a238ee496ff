"""The deployment files, checked without Docker: compose against the compose-spec schema, the
Dockerfile's promises, nginx's limits against the app's, and gunicorn's own config check."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.app import DEFAULTS
from service.engine.books.background import MEMORY_MARGIN, PEAK_MEMORY
from service.serving.streams import RETRY_AFTER
from tests.serving.harness import APP, DEPLOY, GUNICORN_CONF, REPO

COMPOSE = REPO / "docker-compose.yml"
DOCKERFILE = (REPO / "Dockerfile").read_text()
PROXY = (DEPLOY / "proxy.conf").read_text()
INSTANCE_PEAK_MB = 1373  # a replica of 2 workers under load (tests/bench/instance_memory_bench.py)


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def default_of(value: str | int) -> str:
    """The value compose uses when the variable is unset: "${X:-2}" -> "2"."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(value))


def test_compose_file_matches_the_compose_spec() -> None:
    command = [
        sys.executable,
        "-m",
        "check_jsonschema",
        "--builtin-schema",
        "vendor.compose-spec",
        str(COMPOSE),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_compose_runs_replicas_behind_nginx_with_healthchecks() -> None:
    services = compose()["services"]
    assert int(default_of(services["api"]["deploy"]["replicas"])) >= 2
    assert all("healthcheck" in service for service in services.values())
    assert services["nginx"]["depends_on"]["api"]["condition"] == "service_healthy"
    assert [default_of(p) for p in services["nginx"]["ports"]] == ["8080:80"]
    assert "${SANMOKU_PORT" in services["nginx"]["ports"][0]
    mounts = {m.split(":")[0]: m.split(":")[1] for m in services["nginx"]["volumes"]}
    assert mounts == {
        "./deploy/nginx.conf": "/etc/nginx/nginx.conf",
        "./deploy/proxy.conf": "/etc/nginx/proxy.conf",
    }
    assert all((REPO / source).is_file() for source in mounts)


def test_compose_and_image_check_health_the_same_way() -> None:
    probe = compose()["services"]["api"]["healthcheck"]["test"]
    assert probe[:3] == ["CMD", "python", "-c"]
    assert "/readyz" in probe[3]
    assert f'CMD ["python", "-c", "{probe[3]}"]' in DOCKERFILE


def test_dockerfile_serves_as_a_user_on_all_interfaces() -> None:
    assert DOCKERFILE.startswith("#") and "\nFROM python:3.11-slim\n" in DOCKERFILE
    users = re.findall(r"^USER (\S+)$", DOCKERFILE, re.M)
    assert users and users[-1] not in {"root", "0"}
    assert 'CMD ["sanmoku", "serve"]' in DOCKERFILE
    assert "SANMOKU_BIND=0.0.0.0:8000" in DOCKERFILE
    # the search core is compiled into a wheel in a build stage; the image installs the wheel, no compiler
    assert "RUN pip wheel . --no-deps --wheel-dir /wheels" in DOCKERFILE
    assert "RUN pip install /wheels/sanmoku-*.whl" in DOCKERFILE
    final = DOCKERFILE.split("\nFROM python:3.11-slim\n", 1)[1]
    assert "build-essential" not in final and "COPY --from=build /wheels /wheels" in final
    # the package ships the contract (service/openapi.yaml links to it): no path to set
    assert "SANMOKU_OPENAPI_PATH" not in DOCKERFILE
    assert (REPO / "service" / "openapi.yaml").resolve() == REPO / "openapi.yaml"
    assert "COPY pyproject.toml README.md openapi.yaml setup.py ./" in DOCKERFILE


def test_dockerfile_copies_only_what_exists_and_is_not_ignored() -> None:
    ignored = {line for line in (REPO / ".dockerignore").read_text().splitlines() if line and line[0] != "#"}
    for sources in re.findall(r"^COPY (?!--)(.+) \S+$", DOCKERFILE, re.M):
        for source in sources.split():
            assert (REPO / source).exists(), source
            assert source.rstrip("/") not in ignored, source


def test_nginx_takes_the_apps_body_limit_and_retries_posts() -> None:
    limit = re.search(r"^client_max_body_size (\d+)k;", PROXY, re.M)
    assert limit is not None and int(limit.group(1)) * 1024 == DEFAULTS["MAX_CONTENT_LENGTH"]
    retry = re.search(r"^\s*proxy_next_upstream (.+);", PROXY, re.M)
    assert retry is not None
    assert set(retry.group(1).split()) >= {
        "error",
        "timeout",
        "http_502",
        "http_503",
        "http_504",
        "non_idempotent",
    }
    assert re.search(r"^\s*proxy_buffering on;", PROXY, re.M)
    assert re.search(r"^\s*keepalive \d+;", (DEPLOY / "nginx.conf").read_text(), re.M)


def test_nginx_keeps_every_backend_and_limits_solve_as_its_problem_says() -> None:
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert re.search(r"^\s*server api:8000 max_fails=0;", nginx, re.M)  # never "no live upstreams"
    answers = PROXY.split("location ~ ^/(analyze|solve)$ {", 1)[1].split("\n}", 1)[0]
    assert re.search(r"^\s*proxy_max_temp_file_size 0;", answers, re.M)  # streams are never spooled
    limit = re.search(r"^\s*limit_conn solve_per_client (\d+);", answers, re.M)
    assert limit is not None
    detail = re.search(r'^\s*503 "(.+)";', nginx.split("map $status $problem_detail", 1)[1], re.M)
    assert detail is not None and f"at once as it may ({limit.group(1)})" in detail.group(1)
    retry = re.search(r"map \$status \$problem_retry_after \{[^}]*503 (\d+);", nginx)
    assert retry is not None and int(retry.group(1)) == RETRY_AFTER  # the app's Retry-After too
    assert f"in {RETRY_AFTER} s" in detail.group(1)


def gunicorn_config(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """gunicorn --print-config (which runs --check-config, loading the app) as a settings dict."""
    command = [sys.executable, "-m", "gunicorn", "--print-config", "-c", str(GUNICORN_CONF), APP]
    full_env = {"PATH": "/usr/bin:/bin", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), **env}
    done = subprocess.run(
        command, cwd=REPO, env=full_env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    settings = (line.split(" = ", 1) for line in done.stdout.splitlines() if " = " in line)
    return {key.strip(): value.strip() for key, value in settings}


@pytest.mark.slow
def test_gunicorn_config_checks_and_reads_the_environment(tmp_path: Path) -> None:
    defaults = gunicorn_config({}, tmp_path)
    assert (defaults["bind"], defaults["workers"]) == ("['127.0.0.1:8000']", "2")
    assert defaults["preload_app"] == "True"
    worker = ("service.serving.gevent_worker.Worker", "1000")  # gunicorn's gevent worker, started sooner
    assert (defaults["worker_class"], defaults["worker_connections"]) == worker
    assert defaults["control_socket_disable"] == "True"
    assert defaults["accesslog"] == "None"
    assert (defaults["timeout"], defaults["graceful_timeout"], defaults["keepalive"]) == ("30", "10", "5")
    custom = gunicorn_config({"WEB_CONCURRENCY": "3", "SANMOKU_BIND": "127.0.0.1:9"}, tmp_path)
    assert (custom["bind"], custom["workers"]) == ("['127.0.0.1:9']", "3")


def test_the_tables_live_in_one_volume_shared_by_the_replicas() -> None:
    api = compose()["services"]["api"]
    directory = api["environment"]["SANMOKU_TABLES_DIR"]
    assert "tables:/var/cache/sanmoku" in api["volumes"] and directory.startswith("/var/cache/sanmoku/")
    assert "tables" in compose()["volumes"] and api["read_only"] is True
    assert f"SANMOKU_TABLES_DIR={directory}" in DOCKERFILE
    assert "chown -R sanmoku /var/cache/sanmoku" in DOCKERFILE


def megabytes(limit: str) -> int:
    """A compose memory limit ("512M", "2G") in MB."""
    number, unit = int(limit[:-1]), limit[-1].upper()
    return number * {"M": 1, "G": 1024}[unit]


def test_the_replicas_share_one_store_of_proven_positions() -> None:
    services = compose()["services"]
    url = services["api"]["environment"]["SANMOKU_STORE_URL"]
    assert url == "redis://store:6379/0" and "store" in services["api"]["depends_on"]
    store = services["store"]
    assert store["image"].startswith(("valkey/valkey:", "redis:"))
    command = store["command"]
    # proofs kept across the store's restart, and its size bounded by evicting the least recently used
    assert command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert megabytes(command[command.index("--maxmemory") + 1].replace("mb", "M")) < megabytes(
        store["deploy"]["resources"]["limits"]["memory"]
    )
    assert "store:/data" in store["volumes"] and "store" in compose()["volumes"]


def test_the_connect_four_book_is_built_once_where_it_fits() -> None:
    """Each replica would start the book's build (a 1.5 GB peak) in its own container; they leave it to
    one job with the room for it, in the volume they read it from."""
    services = compose()["services"]
    assert services["api"]["environment"]["SANMOKU_BOOK_BUILDS"] == "false"
    book = services["book"]
    assert (
        book["command"][:4] == ["sanmoku", "book", "build", "connect4"] and "--if-missing" in book["command"]
    )
    directory = book["command"][book["command"].index("--dir") + 1]
    assert directory == services["api"]["environment"]["SANMOKU_TABLES_DIR"]
    assert "tables:/var/cache/sanmoku" in book["volumes"]
    assert megabytes(book["deploy"]["resources"]["limits"]["memory"]) * 2**20 > PEAK_MEMORY * MEMORY_MARGIN


def test_a_replicas_memory_limit_fits_what_it_was_measured_to_take() -> None:
    """A replica of WEB_CONCURRENCY workers under a load of searches, trees, moves and streams peaked at
    INSTANCE_PEAK_MB (python -m tests.bench.instance_memory_bench: the Pss of all its processes)."""
    api = compose()["services"]["api"]
    assert default_of(api["environment"]["WEB_CONCURRENCY"]) == "2"
    assert megabytes(api["deploy"]["resources"]["limits"]["memory"]) >= INSTANCE_PEAK_MB * 1.25
