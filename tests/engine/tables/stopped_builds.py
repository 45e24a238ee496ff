"""A build's progress that stops it, as Ctrl-C would, once some tiers are written: the tests of resumed
builds, on one machine and on a Ray cluster, stop their builds with it."""

from __future__ import annotations

from service.engine import Variant


class StopAfter:
    """Progress that stops the build (as Ctrl-C would) once `tiers` tiers are written."""

    def __init__(self, tiers: int) -> None:
        self.tiers, self.done, self.begun_with = tiers, 0, list[int]()

    def begin(self, variant: Variant, tiers: list[int], done: list[int]) -> None:
        self.begun_with = done

    def advanced(self, entries: int) -> None:
        pass

    def tier_done(self, tier: int, seconds: float) -> None:
        self.done += 1
        if self.done == self.tiers:
            raise KeyboardInterrupt("stopped by the test")

    def end(self) -> None:
        pass
