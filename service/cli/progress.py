"""How a long command shows that it is at work: a bar (tqdm) on a terminal, with the count, the rate and
the time left; elsewhere (a log file, a pipe) a line at every tenth of each stage."""

from __future__ import annotations

from typing import Never, TextIO

from tqdm import tqdm

LINES_PER_STAGE = 10


class Progress:
    """Stages one after another (a book's plies), each of a known number of steps."""

    def __init__(self, out: TextIO, unit: str) -> None:
        self.out, self.unit = out, unit
        self._stage: str | None = None
        self._bar: tqdm[Never] | None = None
        self._said = 0  # the tenths of the stage said so far (without a terminal)

    def advanced(self, stage: str, done: int, total: int) -> None:
        """`done` steps of `total` in `stage` are done."""
        if stage != self._stage:
            self.close()
            self._stage, self._said = stage, 0
            if self.out.isatty():
                self._bar = tqdm(total=total, desc=stage, unit=f" {self.unit}", file=self.out, leave=False)
        if self._bar is not None:
            self._bar.update(done - self._bar.n)
            return
        tenth = done * LINES_PER_STAGE // max(total, 1)
        if tenth > self._said:
            self._said = tenth
            print(f"{stage}: {done:,} of {total:,} {self.unit}", file=self.out, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
