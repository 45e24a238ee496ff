"""The ceilings the HTTP benchmark compares /analyze with; each sends the very /analyze body of its board.

- `app`: the ceiling of this stack. The service's own app (create_app: CORS, request ids, metrics,
  the access line) with one more endpoint that sends the answer's bytes and does nothing else, so the
  ratio measures what answering /analyze costs beyond any request in the same stack.
- `bare`: a bare Flask app with only that endpoint, no middleware at all: the reference that shows what
  the stack's cross-cutting features cost.

`/ceiling/<board>` sends the body of one of REQUESTS ("3x3" or "4x4"). Run as
`gunicorn -c service/gunicorn_conf.py 'tests.bench.ceiling_app:app'` (or `:bare`).
"""

from __future__ import annotations

from flask import Flask, Response

from service.app import create_app
from service.engine import Position, TableStore, get_variant
from service.engine.answer import Answer
from service.http.payloads import answer_payload, dumps

# name -> (board, variant) of the benchmark's /analyze requests
REQUESTS = {"3x3": ("X...O....", "normal"), "4x4": ("XO.X.OX.O.XO....", "4x4k4")}
BOARD = REQUESTS["3x3"][0]  # the board the single-board benchmarks ask about


def answer(board: str, variant: str) -> bytes:
    position = Position.parse(board, None, get_variant(variant))
    return dumps(answer_payload(Answer.of_table(TableStore().get(position.variant).lookup(position))))


BODIES = {name: answer(board, variant) for name, (board, variant) in REQUESTS.items()}


def ceiling(name: str) -> Response:
    return Response(BODIES[name], mimetype="application/json")


app = create_app()
app.add_url_rule("/ceiling/<name>", view_func=ceiling, methods=["GET", "POST"])

bare = Flask(__name__)
bare.add_url_rule("/ceiling/<name>", view_func=ceiling, methods=["GET", "POST"])
