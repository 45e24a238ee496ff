"""schemathesis against the app in-process: positive and negative, no 5xx, nothing undocumented."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from schemathesis.config import SchemathesisConfig

from service.app import create_app

ROOT = Path(__file__).resolve().parents[2]

# A schema-valid board can still be an impossible position, and a schema-valid variant name one outside
# the supported range: 422 is a right answer to valid syntax. A supported variant of more than 12 cells
# whose table is not on disk is a 503 (this app builds nothing in the background).
CONFIG = SchemathesisConfig.from_str(
    """
[generation]
mode = "all"
max-examples = 40
deterministic = true

[checks.positive_data_acceptance]
expected-statuses = [200, 304, 422, 503]

# A table this app will not build (the solve table, the file): the documented 503, an answer, not a fault.
[[operations]]
include-operation-id = ["solve", "variantTable"]
checks.not_a_server_error.expected-statuses = ["2XX", "3XX", "4XX", 503]

# A valid position's tree holds up to 5,000 nested nodes (grown in Python, checked against a recursive
# schema): fewer examples; test_tree.py checks the trees themselves.
[[operations]]
include-operation-id = ["treePost", "treeGet"]
generation.max-examples = 10

# Any file name is valid syntax; a missing file is a 404.
[[operations]]
include-operation-id = ["docsStatic", "webStatic"]
checks.positive_data_acceptance.expected-statuses = [200, 404]
"""
)

APP = create_app({"TESTING": True, "BACKGROUND_BUILDS": False})
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=CONFIG)


@schema.parametrize()
def test_api_keeps_its_contract(case: schemathesis.Case) -> None:
    # Its WSGI transport asks for gzip (requests' defaults) but never decodes it; gzip has its own tests.
    case.call_and_validate(app=APP, headers={"Accept-Encoding": "identity"})
