"""Certified-equivalent rewrites of organizational policy text (T1 syntax, T2 lexicon, T4 exception
placement): the wordings and lexicon (data/invariance/), rendering a clause in a wording, parsing
rendered text back to a rule, and certifying a rewrite by execution. The stratum-independent part
of the stress test — the suite, the metrics and the Judge Card — lives in reasonbench.invariance."""

from reasonbench.strata.organizational.rewrites.certify import CertificationError, Certifier
from reasonbench.strata.organizational.rewrites.wording import (
    RewriteSet,
    Variant,
    Wording,
    load_rewrites,
)

__all__ = ["CertificationError", "Certifier", "RewriteSet", "Variant", "Wording", "load_rewrites"]
