"""Strata: independent units, adjudicators, operators and renderings (one subpackage each)."""

from reasonbench.strata.base import Operator, Rendering, Stratum, Transition

__all__ = ["Operator", "Rendering", "Stratum", "Transition"]
