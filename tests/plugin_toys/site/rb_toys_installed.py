"""An installed package's plug-in, loaded through its ``reasonbench.plugins`` entry point."""

from reasonbench.analysis import METRICS, Metric, rate

METRICS.register(
    "installed_verdict_accuracy",
    Metric("installed_verdict_accuracy", "revised verdict right (installed plug-in)",
           rate(lambda r: r.verdict_correct)),
)  # fmt: skip
