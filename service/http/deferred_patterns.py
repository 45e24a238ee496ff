"""Regular expressions a library compiles when imported, compiled instead the first time they are used.

marshmallow compiles its e-mail validator's domain pattern when `marshmallow.validate` is imported: a
case-insensitive class over every Unicode letter, which `re` folds code point by code point. That one
pattern took 28 ms of the 0.27 s the master spends importing the app (`-X importtime`), time the
first answer waits for, and the service validates no e-mail address. While the library is imported, its
module's `re.compile` calls return a `DeferredPattern`; any other module's calls are untouched.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class DeferredPattern:
    """Stands for `re.compile(pattern, flags)`, compiling it at the first attribute asked for."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self._source = (pattern, flags)
        self._compiled: re.Pattern[Any] | None = None

    def __getattr__(self, name: str) -> Any:  # only attributes this class lacks: the pattern's
        if name.startswith("__"):  # a class's creation asks its attributes for `__isabstractmethod__`
            raise AttributeError(name)
        if self._compiled is None:
            self._compiled = re.compile(*self._source)
        return getattr(self._compiled, name)


@contextmanager
def compiled_on_first_use(module: str) -> Iterator[None]:
    """Within: `re.compile` called from the body of `module` (its import) returns a DeferredPattern."""
    compile_now = re.compile

    def compile_from(pattern: Any, flags: int = 0) -> Any:
        if sys._getframe(1).f_globals.get("__name__") == module:
            return DeferredPattern(pattern, flags)
        return compile_now(pattern, flags)

    re.compile = compile_from
    try:
        yield
    finally:
        re.compile = compile_now
