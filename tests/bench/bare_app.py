"""A bare Flask app that answers POST and GET /analyze with a constant body and imports nothing of the
service: the reference of the start-up benchmark (`overhead_bench`), served with the service's gunicorn
settings (`gunicorn -c service/gunicorn_conf.py tests.bench.bare_app:app`)."""

from __future__ import annotations

from flask import Flask, Response

app = Flask(__name__)


@app.route("/analyze", methods=["GET", "POST"])
def analyze() -> Response:
    return Response(b"{}", mimetype="application/json")
