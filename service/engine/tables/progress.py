"""How a build shows its progress: a bar (tqdm) on a terminal, with the tier, entries per second and the
time left; elsewhere (a log file, the service's background builder) one line a tier."""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Never, TextIO

from ..rules.variants import Variant

if TYPE_CHECKING:  # imported where a bar is drawn: a server never draws one, and starts without it
    from tqdm import tqdm

log = logging.getLogger(__name__)


class _Tally:
    """What is left of a build, and the rate of this run so far."""

    def begin(self, variant: Variant, tiers: list[int], done: list[int]) -> None:
        self.name, self.tiers = variant.name, tiers
        self.left = [t for t in range(len(tiers)) if t not in done]
        self.entries_left = sum(tiers[t] for t in self.left)
        self.started, self.solved = time.perf_counter(), 0
        self.resumed = len(done)

    def finished(self, tier: int) -> None:
        self.left.remove(tier)
        self.entries_left -= self.tiers[tier]
        self.solved += self.tiers[tier]

    def time_left(self) -> float | None:
        elapsed = time.perf_counter() - self.started
        return self.entries_left * elapsed / self.solved if self.solved else None


class LogProgress(_Tally):
    """One line a tier, to `out` (or to the log when None)."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out

    def _say(self, line: str) -> None:
        if self.out is None:
            log.info("%s", line)
        else:
            print(line, file=self.out, flush=True)

    def begin(self, variant: Variant, tiers: list[int], done: list[int]) -> None:
        super().begin(variant, tiers, done)
        going_on = f", going on from a stopped build ({len(done)} tiers done)" if done else ""
        self._say(f"{self.name}: {len(self.left)} tiers, {self.entries_left:,} entries to solve{going_on}")

    def advanced(self, entries: int) -> None:
        pass

    def tier_done(self, tier: int, seconds: float) -> None:
        self.finished(tier)
        rate = self.tiers[tier] / seconds / 1e6 if seconds > 0 else 0.0
        left = self.time_left()
        estimate = f", about {duration(left)} left" if left is not None and self.left else ""
        self._say(
            f"{self.name}: tier {tier} done, {self.tiers[tier]:,} entries in {seconds:.1f} s "
            f"({rate:.1f} M/s); {len(self.left)} tier{'' if len(self.left) == 1 else 's'} left{estimate}"
        )

    def end(self) -> None:
        pass


class BarProgress(_Tally):
    """A tqdm bar over the entries to solve: tiers, entries per second and the time left."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._lock = threading.Lock()
        self._bar: tqdm[Never] | None = None
        self._in_tier = 0  # entries told by `advanced` since the last tier was done

    def begin(self, variant: Variant, tiers: list[int], done: list[int]) -> None:
        super().begin(variant, tiers, done)
        from tqdm import tqdm

        sized = _width(self.out) > 0  # a terminal that reports no size (a bare pty) gets 80 columns
        self._bar = tqdm(
            total=self.entries_left,
            unit=" entries",
            unit_scale=True,
            file=self.out,
            dynamic_ncols=sized,
            ncols=None if sized else 80,
            nrows=None if sized else 24,  # tqdm hides a bar below the screen's last line: 0 lines hide all
        )
        self._describe()

    def _describe(self) -> None:
        if self._bar is not None:
            solved = len(self.tiers) - len(self.left)
            tier = f"tier {self.left[-1]}" if self.left else "written"
            self._bar.set_description(f"{self.name} {tier} ({solved}/{len(self.tiers)} done)")

    def advanced(self, entries: int) -> None:
        with self._lock:
            self._in_tier += entries
            if self._bar is not None:
                self._bar.update(entries)

    def tier_done(self, tier: int, seconds: float) -> None:
        self.finished(tier)
        with self._lock:  # the entries of pieces not told one by one (a small board solved whole)
            if self._bar is not None:
                self._bar.update(self.tiers[tier] - self._in_tier)
            self._in_tier = 0
        self._describe()

    def end(self) -> None:
        if self._bar is not None:
            self._bar.close()


def progress_for(out: TextIO) -> BarProgress | LogProgress:
    """A bar on a terminal, a line a tier otherwise."""
    return BarProgress(out) if out.isatty() else LogProgress(out)


def _width(out: TextIO) -> int:
    try:
        return os.get_terminal_size(out.fileno()).columns
    except (OSError, ValueError):
        return 0


def duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"
