"""How a library settings dataclass documents a field: one line of help in its metadata, which
the command whose keys are those fields shows under ``--help`` (``reasonbench/cli/keys.py``,
``derived``, reads it). One way to write it for every settings class."""

from __future__ import annotations

__all__ = ["help_line"]


def help_line(text: str) -> dict[str, str]:
    """``field(..., metadata=help_line("what it does"))``."""
    return {"help": text}
