"""The service's app with its CORS done by flask-cors, configured as the service's policy: the reference
the constant headers of service/cors.py are compared with (tests) and measured against (benchmarks)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask_cors import CORS

from service.app import create_app
from service.http import cors, repeated


def with_flask_cors(config: dict[str, Any]) -> Flask:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cors, "CrossOrigin", lambda wsgi_app: wsgi_app)
        # flask-cors works in Flask's hooks: every answer must come through Flask, none from the edge
        patch.setattr(repeated, "init_app", lambda app: None)
        app = create_app(config)
    CORS(
        app,
        send_wildcard=True,
        methods=list(cors.METHODS),
        expose_headers=list(cors.EXPOSED),
        max_age=cors.MAX_AGE,
    )
    return app
