"""Progress of long steps: a rate and an ETA, on a terminal or in a log.

On a terminal (stderr is a TTY) a :class:`Progress` is a tqdm bar (count, rate, elapsed and
remaining time) that clears itself when done. Anywhere else — a log file, CI, a pipe — it prints
plain lines, at most one per 10 % of the work or per 30 s, with no carriage returns::

    generate pools: 40/120 units (33%), 9.8 units/s, ETA 8 s

Either way it ends with one summary line of its own (``generate pools: 120 units in 12.3 s,
9.8 units/s``). ``REASONBENCH_PROGRESS=lines`` forces plain lines, ``off`` silences progress.

Units read back from a cache (``update(n, cached=True)``) are counted but are no work of this
run: they print no line and do not count in the rate or the ETA, so a run answered wholly from
its cache prints its summary line alone (``evaluate x: 320 answers, all from the cache``).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO, Any, TypeVar

__all__ = ["Progress", "format_seconds", "progress"]

T = TypeVar("T")
LINE_EVERY_SECONDS = 30.0
LINE_EVERY_FRACTION = 0.1


def format_seconds(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    minutes, rest = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {rest:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _mode(stream: IO[str], enabled: bool) -> str:
    wanted = os.environ.get("REASONBENCH_PROGRESS", "").strip().lower()
    if not enabled or wanted == "off":
        return "off"
    if wanted in ("lines", "bar"):
        return wanted
    return "bar" if stream.isatty() else "lines"


class Progress:
    """``total`` units of work named ``desc``; call :meth:`update` as units finish."""

    def __init__(
        self,
        total: int | None,
        desc: str,
        unit: str = "it",
        enabled: bool = True,
        stream: IO[str] | None = None,
        clock: Any = time.monotonic,
        initial: int = 0,
    ) -> None:
        self.total, self.desc, self.unit = total, desc, unit
        self.stream = stream if stream is not None else sys.stderr
        self.mode = _mode(self.stream, enabled)
        self.clock = clock
        self.count = self._initial = initial  # a resumed job starts part-way; its rate does not
        self.cached = 0  # units read back from a cache in this run
        self.started = clock()
        self._last_line = self.started
        self._last_decile = self._decile()
        self._closed = False
        self._postfix = ""
        self._bar: Any = None
        if self.mode == "bar":
            from tqdm import tqdm

            self._bar = tqdm(
                total=total, desc=desc, unit=unit, leave=False, file=self.stream, initial=initial
            )

    def _decile(self) -> int:
        # in integers: 60 / 100 / 0.1 is 5.999... in floats, which put the 60 % line at 61 %
        parts = round(1 / LINE_EVERY_FRACTION)
        return self.count * parts // self.total if self.total else 0

    def _done(self) -> int:
        """Units this run did itself (neither resumed from before nor read from a cache)."""
        return self.count - self._initial - self.cached

    def rate(self) -> float | None:
        """Units per second in this run (a resumed job's earlier units and cached units do not
        count)."""
        elapsed = self.clock() - self.started
        done = self._done()
        return done / elapsed if elapsed > 0 and done else None

    def status(self) -> str:
        """``desc: done/total unit (pct%), rate unit/s, ETA t`` (what a plain line says)."""
        rate = self.rate()
        head = f"{self.desc}: {self.count:,}"
        if self.total:
            head += f"/{self.total:,} {self.unit} ({100 * self.count / self.total:.0f}%)"
        else:
            head += f" {self.unit}"
        if rate is None:
            return head
        head += f", {rate:,.1f} {self.unit}/s"
        if self.total and self.count < self.total:
            head += f", ETA {format_seconds((self.total - self.count) / rate)}"
        return head + (f", {self._postfix}" if self._postfix else "")

    def set_postfix(self, **values: object) -> None:
        """Extra ``key=value`` figures shown after the rate (e.g. the current loss)."""
        self._postfix = ", ".join(f"{k}={v}" for k, v in values.items())
        if self._bar is not None:
            self._bar.set_postfix_str(self._postfix)

    def update(self, n: int = 1, cached: bool = False) -> None:
        """``n`` more units done; ``cached``: read back from a cache rather than done now."""
        self.count += n
        self.cached += n if cached else 0
        if self.mode == "bar":
            self._bar.update(n)
        elif cached:  # a burst of cache hits is no progress worth a line, nor a rate
            self._last_decile = self._decile()
        elif self.mode == "lines":
            now = self.clock()
            decile = self._decile()
            due = now - self._last_line >= LINE_EVERY_SECONDS
            if (decile > self._last_decile or due) and (not self.total or self.count < self.total):
                print(self.status(), file=self.stream, flush=True)
                self._last_line, self._last_decile = now, decile

    def summary(self) -> str:
        elapsed = self.clock() - self.started
        rate = self.rate()
        done = self._done()
        line = f"{self.desc}: {done:,} {self.unit} in {format_seconds(elapsed)}"
        if self.cached:
            line = f"{line} and {self.cached:,} from the cache"
            if not done:
                line = f"{self.desc}: {self.cached:,} {self.unit}, all from the cache"
        if self._initial:
            line += f" (resumed at {self._initial:,}, now {self.count:,})"
        return line + (f", {rate:,.1f} {self.unit}/s" if rate is not None else "")

    def close(self) -> None:
        """Clear the bar (or stop the lines) and print the summary line on its own line."""
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.close()
        if self.mode != "off":
            print(self.summary(), file=self.stream, flush=True)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def progress(
    items: Iterable[T],
    desc: str,
    unit: str = "it",
    enabled: bool = True,
    total: int | None = None,
) -> Iterator[T]:
    """Iterate ``items`` with a :class:`Progress` (``total`` defaults to ``len(items)``)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(total, desc, unit, enabled) as bar:
        for item in items:
            yield item
            bar.update()
