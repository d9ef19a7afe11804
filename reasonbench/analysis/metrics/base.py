"""A metric is one registered object: a name, what it means, which targets it applies to, and
what one scored example contributes to its numerator and denominator.

Every number ``reasonbench analyze`` reports per split, subgroup, seed or pooled over seeds is
``Σ numerator / Σ denominator`` of a registered :class:`Metric` over the examples concerned (a
0/0 rate is ``None``, never 0), so a new metric is one :meth:`Registry.register` call and appears
in ``metrics.json`` and the ``all_metrics`` table without other changes (docs/extending.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from reasonbench.analysis.record import MetricInfo, Ratio, SplitSummary
from reasonbench.analysis.scoring import Carried, Scored
from reasonbench.registry import Registry

__all__ = ["METRICS", "Metric", "Observe", "applicable", "metric_info", "pool", "rate", "summarize"]

Observe = Callable[[Scored], tuple[float, float] | None]
"""One scored example -> (numerator, denominator) it adds, or ``None`` when it is not counted."""


def every_target(fields: Carried) -> bool:
    return True


@dataclass(frozen=True)
class Metric:
    name: str
    description: str  # one line, as tables and --help show it
    observe: Observe
    applies: Callable[[Carried], bool] = every_target  # from what the method's target carries
    co_primary: bool = False  # bootstrapped with CIs and compared (denominator: every example)


METRICS: Registry[Metric] = Registry("metric")
"""The reported metrics, in report order (``analysis/metrics/builtin.py`` registers the paper's)."""


def rate(
    hit: Callable[[Scored], bool | None], among: Callable[[Scored], bool] | None = None
) -> Observe:
    """The share of examples (satisfying ``among``) for which ``hit`` is true."""

    def observe(r: Scored) -> tuple[float, float] | None:
        if among is not None and not among(r):
            return None
        return (1.0 if hit(r) else 0.0, 1.0)

    return observe


def _ratio(numerator: float, denominator: float) -> Ratio:
    return Ratio(numerator / denominator if denominator else None, numerator, denominator)


def applicable(fields: Carried) -> list[Metric]:
    return [m for m in (METRICS.get(n) for n in METRICS) if m.applies(fields)]


def summarize(rows: Sequence[Scored], fields: Carried) -> SplitSummary:
    """Every metric that applies to the target (``fields``) over ``rows``."""
    out: dict[str, Ratio] = {}
    for metric in applicable(fields):
        num = den = 0.0
        for r in rows:
            seen = metric.observe(r)
            if seen is not None:
                num += seen[0]
                den += seen[1]
        out[metric.name] = _ratio(num, den)
    return SplitSummary(len(rows), out)


def pool(summaries: Iterable[SplitSummary]) -> SplitSummary:
    """Pooled over seed-example observations: numerators and denominators summed."""
    items = list(summaries)
    names = list(dict.fromkeys(n for s in items for n in s.metrics))
    pooled = {}
    for name in names:
        parts = [s.metrics[name] for s in items if name in s.metrics]
        pooled[name] = _ratio(sum(p.numerator for p in parts), sum(p.denominator for p in parts))
    return SplitSummary(sum(s.n for s in items), pooled)


def metric_info() -> dict[str, MetricInfo]:
    return {n: MetricInfo(METRICS.get(n).description, METRICS.get(n).co_primary) for n in METRICS}
