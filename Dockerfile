# The API image: gunicorn via `sanmoku serve`, settings from service/gunicorn_conf.py and the environment.
# Two stages: the search core is C that cffi compiles when the package is built, so a first stage with a
# compiler builds the wheel, and the image installs that wheel without one.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# openapi.yaml beside service/: the package's service/openapi.yaml is a symlink to it, which the
# build follows, so the installed package carries the contract itself.
COPY pyproject.toml README.md openapi.yaml setup.py ./
COPY service ./service
RUN pip wheel . --no-deps --wheel-dir /wheels

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Served from /app: the running code is the installed package, not a source tree.
COPY --from=build /wheels /wheels
RUN pip install /wheels/sanmoku-*.whl \
    && rm -rf /wheels \
    && mkdir /app \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin sanmoku \
    && mkdir -p /var/cache/sanmoku/tables \
    && chown -R sanmoku /var/cache/sanmoku

WORKDIR /app
USER sanmoku
# Solved tables and proven positions: built or kept in this directory (a volume in compose, shared by
# the replicas); every worker maps the same table files.
ENV SANMOKU_TABLES_DIR=/var/cache/sanmoku/tables \
    SANMOKU_BIND=0.0.0.0:8000 \
    WEB_CONCURRENCY=2
EXPOSE 8000

# Ready once the tables are built (a few seconds after start); slim has no curl, so Python asks.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2)"]

# exec form: gunicorn's master gets SIGTERM directly and shuts the workers down gracefully
CMD ["sanmoku", "serve"]
