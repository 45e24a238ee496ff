"""The ceiling of this stack: a bare Flask app that sends prepared bytes, nothing else.

Its body is the very /analyze body of the benchmark's board, so both targets move the same bytes;
run it as `gunicorn -c service/gunicorn_conf.py tests.bench.ceiling_app:app`.
"""

from __future__ import annotations

from flask import Flask, Response

from service.engine import Position, Solver
from service.payloads import analysis_payload, dumps

BOARD = "X...O...."
BODY = dumps(analysis_payload(Solver(Position.parse(BOARD).variant).analyze(Position.parse(BOARD))))

app = Flask(__name__)


@app.get("/ceiling")
def ceiling() -> Response:
    return Response(BODY, mimetype="application/json")
