"""The policy-invariance stress test: certified-equivalent rewrites of organizational policy text
(T1 syntax, T2 lexicon, T4 exception placement), threshold-shift pairs with executed directions,
an execution-defined clear/ambiguous split, and the metrics (Δflip, R_dir, U_rate, PIS) with
clustered bootstrap intervals. See docs/invariance.md."""

from reasonbench.invariance.metrics import invariance_report, pis
from reasonbench.invariance.report import (
    Comparison,
    Estimate,
    InvarianceReport,
    PairRuns,
    PisConfig,
    Repeat,
)
from reasonbench.invariance.suite import StressItem, StressSuite, SuiteError, build_suite
from reasonbench.strata.organizational.rewrites.certify import CertificationError, Certifier
from reasonbench.strata.organizational.rewrites.wording import (
    RewriteSet,
    Variant,
    Wording,
    load_rewrites,
)

__all__ = [
    "CertificationError",
    "Certifier",
    "Comparison",
    "Estimate",
    "InvarianceReport",
    "PairRuns",
    "PisConfig",
    "Repeat",
    "RewriteSet",
    "StressItem",
    "StressSuite",
    "SuiteError",
    "Variant",
    "Wording",
    "build_suite",
    "invariance_report",
    "load_rewrites",
    "pis",
]
