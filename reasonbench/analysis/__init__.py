"""``reasonbench analyze``: scoring, the metric registry, paired consistency, the hierarchical
bootstrap, calibration and selective debt (docs/analysis.md)."""

from reasonbench.analysis.metrics import METRICS, Metric, rate

__all__ = ["METRICS", "Metric", "rate"]
