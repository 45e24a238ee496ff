"""The jobs a lane's process runs (`lanes`), by name, and how their errors cross the pipe.

A job is a module's function, named here and imported where it runs (the worker imports none of them for
this list, and the modules may import the serving layer). Its arguments and result are pickled.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

JOBS = {
    "tree": "service.http.tree_views:grown_tree",
    "depth": "service.http.play_views:read_move",
}


def job_named(name: str) -> Callable[..., Any]:
    module, function = JOBS[name].split(":")
    job: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return job


@dataclass(frozen=True)
class Failure:
    """An exception raised by a job, as it crosses the pipe: its class, arguments and attributes (the
    engine's errors take other arguments than they keep, which pickle alone cannot make again)."""

    kind: type[BaseException]
    args: tuple[Any, ...]
    attributes: dict[str, Any]

    @classmethod
    def of(cls, error: BaseException) -> Failure:
        return cls(type(error), error.args, dict(vars(error)))

    def error(self) -> BaseException:
        made = self.kind.__new__(self.kind)
        made.args = self.args
        vars(made).update(self.attributes)
        return made
