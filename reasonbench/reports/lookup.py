"""Reading numbers out of ``metrics.json``: averaged over a method's seeds, None when absent."""

from __future__ import annotations

from collections.abc import Mapping
from statistics import fmean
from typing import Any

NOT_RUN = "not run"


def dig(tree: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(tree, Mapping) or key not in tree:
            return None
        tree = tree[key]
    return tree


def seed_mean(metrics: Mapping[str, Any], method: str, *path: str) -> float | None:
    """Mean over the method's seeds of the value at ``path`` inside each seed entry."""
    seeds = dig(metrics, "methods", method, "seeds")
    if not seeds:
        return None
    values = [dig(entry, *path) for entry in seeds.values()]
    numbers = [float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    return fmean(numbers) if numbers else None


def has(metrics: Mapping[str, Any], method: str) -> bool:
    return dig(metrics, "methods", method) is not None


def seed_count(metrics: Mapping[str, Any], method: str) -> int:
    return len(dig(metrics, "methods", method, "seeds") or {})
