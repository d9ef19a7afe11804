"""Progress with rate and ETA: a tqdm bar on a terminal, plain lines every ``interval_s``
seconds (and at the end) otherwise, so logs of batch jobs stay readable.

(A minimal stand-in: when the project's shared progress helper lands, this module should become
a thin alias of it.)
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any

__all__ = ["Progress"]


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


class Progress:
    """``update(n)`` after ``n`` more units; ``close()`` at the end. Callable as ``update``."""

    def __init__(
        self,
        total: int,
        desc: str,
        unit: str = "answers",
        enabled: bool = True,
        stream: IO[str] | None = None,
        interval_s: float = 10.0,
    ) -> None:
        self.total, self.desc, self.unit, self.enabled = total, desc, unit, enabled
        self.stream = stream or sys.stderr
        self.interval_s, self.done = interval_s, 0
        self.started = self.last = time.monotonic()
        self._bar: Any = None
        if enabled and self.stream.isatty():
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=desc, unit=f" {unit}", file=self.stream)

    def __call__(self, n: int) -> None:
        self.update(n)

    def update(self, n: int) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        elif self.enabled and time.monotonic() - self.last >= self.interval_s:
            self._line()

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / elapsed
        share = f" ({100 * self.done / self.total:.0f}%)" if self.total else ""
        left = self.total - self.done
        eta = _duration(left / rate) if rate > 0 and left > 0 else "0m00s"
        return (
            f"{self.desc}: {self.done}/{self.total} {self.unit}{share}, {rate:.2f}/s, "
            f"ETA {eta}, elapsed {_duration(elapsed)}"
        )

    def _line(self) -> None:
        self.last = time.monotonic()
        print(self.line(), file=self.stream, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self.enabled:
            self._line()
