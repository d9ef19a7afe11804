"""Validation of ARE documents (case-family YAML, state JSON), with errors that say where.

Every error is an :class:`AreError` whose message starts with the location (file, record and
field path), so a broken data file or a malformed state is fixed from the message alone. The
checks are the project's one kit (:mod:`reasonbench.validate`), bound to this family's error.
"""

from __future__ import annotations

import math

from reasonbench.validate import Checks


class AreError(ValueError):
    """An invalid ARE document or state; the message names the file/record/field and the fault."""


_CHECKS = Checks(AreError)
need = _CHECKS.need
record = _CHECKS.record
items = _CHECKS.items
text = _CHECKS.text
ident = _CHECKS.ident
number = _CHECKS.number
limit = _CHECKS.limit
choice = _CHECKS.choice
unique = _CHECKS.unique


def finite_or_null(value: float) -> float | None:
    """JSON has no infinity: ``inf`` is written as ``null`` (and read back by :func:`limit`)."""
    return None if math.isinf(value) else value
