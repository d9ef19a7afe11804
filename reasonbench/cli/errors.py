"""Every error a user can cause ends in one line: ``reasonbench <command>: error: <what>, <where>``.

:func:`guarded` runs a command and turns the exceptions reasonbench raises for bad input —
configuration, paths, data, predictions, outputs it may not replace — and the file-system errors
of an ordinary machine (permission denied, read-only, disk full or ``ulimit -f``, a missing
directory) into that line and a non-zero exit status: 2 for bad input, 1 for a failed run, 130 for
Ctrl-C. Anything else is a bug in reasonbench: it, too, is one line, and
``REASONBENCH_DEBUG=1`` shows the traceback.
"""

from __future__ import annotations

import errno
import os
import sys
import traceback
from collections.abc import Callable
from typing import TypeVar

__all__ = ["BAD_INPUT", "describe", "fail", "guarded"]

BAD_INPUT = 2
T = TypeVar("T")

_ERRNO = {
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EFBIG: "file too large (a file-size limit such as ulimit -f)",
    errno.ENOENT: "no such file or directory",
    errno.ENOTDIR: "a path component is not a directory",
    errno.EISDIR: "is a directory",
    errno.EEXIST: "already exists",
    errno.ENAMETOOLONG: "file name too long",
}


def _os_error(exc: OSError) -> str:
    what = _ERRNO.get(exc.errno or 0) or exc.strerror or type(exc).__name__
    where = exc.filename if exc.filename is not None else None
    if exc.filename2 is not None:
        where = f"{exc.filename} -> {exc.filename2}"
    return f"{what}, at {where}" if where else what


def describe(exc: BaseException) -> str:
    """The one-line description of ``exc`` (without the command prefix)."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return _os_error(exc)
    text = str(exc).strip()
    if isinstance(exc, KeyError) and text.startswith(("'", '"')) and len(exc.args) == 1:
        text = str(exc.args[0])
    line = " ".join(text.split()) if text else type(exc).__name__
    return line


def _expected(exc: BaseException) -> bool:
    """Errors reasonbench raises for bad input or a failing environment (never bugs)."""
    from reasonbench.cli.config import ConfigError
    from reasonbench.io import OutputError

    if isinstance(exc, ConfigError | OutputError | OSError):
        return True
    # reasonbench's own error types carry one-line messages; they are ValueError/RuntimeError
    # subclasses defined in the package (SpecError, QuotaError, PredictionFileError, ...)
    module = type(exc).__module__ or ""
    return module.startswith("reasonbench.") and isinstance(
        exc, ValueError | RuntimeError | KeyError
    )


def fail(command: str, message: str, code: int = BAD_INPUT) -> int:
    """One clear line on stderr; the exit status (2: bad input or configuration). After a Ctrl-C
    the error is the interruption's (reasonbench/cli/interrupt.py): its line instead, and 130."""
    from reasonbench.cli import interrupt

    if interrupt.received():
        interrupt.say(command)
        return interrupt.EXIT
    print(f"reasonbench {command}: error: {message}", file=sys.stderr, flush=True)
    return code


def guarded(command: str, fn: Callable[[], int]) -> int:
    """Run ``fn`` (a command body returning its exit status); errors become one line."""
    try:
        return fn()
    except KeyboardInterrupt:
        from reasonbench.cli import interrupt

        interrupt.say(command)
        return interrupt.EXIT
    except Exception as exc:
        if os.environ.get("REASONBENCH_DEBUG"):
            traceback.print_exc()
        if _expected(exc):
            return fail(command, describe(exc))
        return fail(
            command,
            f"internal error {type(exc).__name__}: {describe(exc)} (a bug in reasonbench; "
            "REASONBENCH_DEBUG=1 shows the traceback)",
            1,
        )
