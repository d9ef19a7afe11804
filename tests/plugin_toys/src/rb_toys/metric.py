"""A metric (docs/extending.md, "A new metric"): the revised verdict right on gold changes away
from deny."""

from reasonbench.analysis import METRICS, Metric, rate
from reasonbench.analysis.scoring import Scored


def changed_from_deny(r: Scored) -> bool:
    return r.gold.receipt.old == "deny" and not r.gold.receipt.stable


METRICS.register(
    "deny_change_verdict_accuracy",
    Metric(
        "deny_change_verdict_accuracy",
        "revised verdict right on gold changes away from deny",
        rate(lambda r: r.verdict_correct, among=changed_from_deny),
    ),
)
