"""How the app is run: the wiring of the engine's sources of answers into an app (`sources`), where a
search runs under gevent (`offload`), the pacing and limits of long streams (`streams`), logs, request
ids and metrics (`observability`, `worker_metrics`), and gunicorn's own error answers
(`gunicorn_errors`, installed by `service/gunicorn_conf.py`).
"""
