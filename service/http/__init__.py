"""The HTTP layer: it only translates. Views per resource load a request into typed values (`schemas`,
`params`), ask the engine's front door (`service.engine`) and dump the answer (`payloads`); rendered
answers are kept in `bodies`; every error becomes problem+json in `problems`; `ranges` serves files by
RFC 9110; `body_limit`, `cors` and `security` are the middleware around the app; `deferred_patterns` spares
the start marshmallow's import-time regular expressions.

Imports the engine's front door and the serving layer's accessors; the engine never imports it.
"""

from .deferred_patterns import compiled_on_first_use

with compiled_on_first_use("marshmallow.validate"):  # before any view or schema imports marshmallow
    import marshmallow  # noqa: F401
