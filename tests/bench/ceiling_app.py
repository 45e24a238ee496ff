"""The ceilings the HTTP benchmark compares /analyze with; both send the very /analyze body.

- `app`: the ceiling of this stack. The service's own app (create_app: CORS, request ids, metrics,
  the access line) with one more endpoint that sends the prepared bytes and does nothing else, so the
  ratio measures what answering /analyze costs beyond any request in the same stack.
- `bare`: a bare Flask app with only that endpoint, no middleware at all: the reference that shows what
  the stack's cross-cutting features cost.

Run as `gunicorn -c service/gunicorn_conf.py 'tests.bench.ceiling_app:app'` (or `:bare`).
"""

from __future__ import annotations

from flask import Flask, Response

from service.app import create_app
from service.engine import Position, Solver
from service.payloads import analysis_payload, dumps

BOARD = "X...O...."
BODY = dumps(analysis_payload(Solver(Position.parse(BOARD).variant).analyze(Position.parse(BOARD))))


def ceiling() -> Response:
    return Response(BODY, mimetype="application/json")


app = create_app()
app.add_url_rule("/ceiling", view_func=ceiling, methods=["GET", "POST"])

bare = Flask(__name__)
bare.add_url_rule("/ceiling", view_func=ceiling, methods=["GET", "POST"])
