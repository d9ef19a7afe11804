"""Ctrl-C at any moment: one line, exit status 130, nothing half-written, within about a second.

Python turns SIGINT into ``KeyboardInterrupt`` in the main thread, between two bytecodes. That is
right once a command runs under :func:`reasonbench.cli.errors.guarded` (its ``finally`` blocks
remove temporary files, then one line and 130), but not before: during the imports and Hydra's
composition the exception escaped as a traceback (exit -2, measured at 1-2 s after the start).
And a main thread inside one long call that holds the GIL, or an interpreter that waits at exit for
a worker thread, took 28 s to stop (``analyze replicates=30000000``).

So the console script installs this first (:mod:`reasonbench.cli.entry`, before anything heavy is
imported), and it does two things:

* the Python-level handler raises ``KeyboardInterrupt`` as Python's own does, and the entry point
  catches it wherever it surfaces, printing the one line;
* the C-level handler also writes the signal to a pipe (:func:`signal.set_wakeup_fd`), which a
  watchdog thread reads at once, whatever the main thread does. If the process is still alive
  :data:`GRACE` seconds later, the watchdog prints the line (once), removes the temporary files
  being written (:func:`reasonbench.io.atomic.live_temporaries`) and ends the process with 130.

A second Ctrl-C ends it at once, the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from types import FrameType

__all__ = ["GRACE", "EXIT", "abandon", "install", "received", "say"]

GRACE = 1.0  # seconds the main thread has to unwind (finally blocks, one line) before the watchdog
EXIT = 130  # 128 + SIGINT, what a shell reports for a command ended by Ctrl-C

_state: dict[str, object] = {"command": "", "said": False, "installed": False, "signals": 0}
_lock = threading.Lock()


def line(command: str) -> str:
    return f"reasonbench {command}: interrupted; nothing half-written was kept (rerun to resume)"


def say(command: str | None = None) -> None:
    """Print the interrupted line on stderr, once per process."""
    with _lock:
        if _state["said"]:
            return
        _state["said"] = True
    name = command if command is not None else str(_state["command"])
    with contextlib.suppress(OSError, ValueError):  # a closed stderr (its reader went away)
        print(line(name), file=sys.stderr, flush=True)


def received() -> bool:
    """Whether Ctrl-C reached this process: then any error that follows is the interruption's
    (an exception raised while unwinding it, such as omegaconf's, measured while composing), and
    is reported as the interruption."""
    return int(str(_state["signals"])) > 0


def abandon() -> None:
    """End the process now: the line, the temporary files removed, exit status 130."""
    say()
    from reasonbench.io.atomic import live_temporaries  # light: os, json, uuid

    for path in live_temporaries():
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
    os._exit(EXIT)


def _handler(signum: int, frame: FrameType | None) -> None:
    _state["signals"] = int(str(_state["signals"])) + 1
    raise KeyboardInterrupt


def _watch(read_end: int) -> None:
    while True:
        try:
            data = os.read(read_end, 64)
        except OSError:
            return
        if not data:
            return
        if signal.SIGINT in data:
            break
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        time.sleep(0.05)
        if int(str(_state["signals"])) > 1:  # a second Ctrl-C: now
            break
    abandon()


def install(command: str) -> None:
    """Take over SIGINT for this process (main thread only; idempotent). ``command`` names the
    command in the line."""
    _state["command"] = command
    if _state["installed"] or threading.current_thread() is not threading.main_thread():
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    signal.signal(signal.SIGINT, _handler)
    threading.Thread(
        target=_watch, args=(read_end,), name="reasonbench-ctrl-c", daemon=True
    ).start()
    _state["installed"] = True
