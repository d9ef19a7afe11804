"""The refund rule of docs/certify.md, as a Python adjudicator (``python:refund_rules:decide``).

A hybrid maps each source to its value: ``request`` (amount, days since purchase, condition),
``policy`` (refund window, accepted conditions), ``agent`` (the amount this agent may refund on
their own) and ``season`` (extra days granted in the holiday season).
"""

from __future__ import annotations

from typing import Any

LABELS = ("approve", "deny", "refer")


def decide(hybrid: dict[str, Any]) -> str:
    request, policy = hybrid["request"], hybrid["policy"]
    if request["amount"] > hybrid["agent"]["limit"]:
        return "refer"  # beyond this agent's authority: a supervisor decides
    if request["days"] > policy["window_days"] + hybrid["season"]["extra_days"]:
        return "deny"
    if request["condition"] not in policy["accepted"]:
        return "deny"
    return "approve"
