"""Failure accounting of predicted transitions against gold receipts (spec §2).

Per example, exactly one outcome:

* ``unparsed``        – an endpoint verdict could not be read from the output;
* ``no_change``       – gold stable, predicted stable;
* ``drift``           – gold stable, predicted change (false-positive change);
* ``inertia``         – gold change, predicted stable (false-negative change);
* ``misattribution``  – gold change, predicted change, wrong receipt family;
* ``attributed``      – gold change, predicted change, exact receipt family.

The rates over a batch (drift, inertia, misattribution shares, the verdict–receipt separation,
...) are the registered metrics of :mod:`reasonbench.analysis.metrics`, the one definition of
every reported number; they aggregate this per-example outcome.
"""

from __future__ import annotations

from enum import Enum

from reasonbench.core.answer import Answer
from reasonbench.core.receipt import Receipt


class Outcome(str, Enum):
    UNPARSED = "unparsed"
    NO_CHANGE = "no_change"
    DRIFT = "drift"
    INERTIA = "inertia"
    MISATTRIBUTION = "misattribution"
    ATTRIBUTED = "attributed"


def classify(gold: Receipt, pred: Answer) -> Outcome:
    """The one accounting outcome of ``pred`` against ``gold``."""
    changed = pred.changed
    if changed is None:
        return Outcome.UNPARSED
    if gold.stable:
        return Outcome.DRIFT if changed else Outcome.NO_CHANGE
    if not changed:
        return Outcome.INERTIA
    return Outcome.ATTRIBUTED if pred.sets == gold.sets else Outcome.MISATTRIBUTION
