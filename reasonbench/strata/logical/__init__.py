"""The logical stratum: sampled worlds of facts (G), positive Horn rules (N) and an authority
mask over rules (A); one query per case; verdicts ``holds`` / ``refer`` / ``fails``.

Importing this package registers the ``"logical"`` adjudicator factory.
"""

from reasonbench.strata.logical.adjudicator import LogicalAdjudicator, logical_adjudicator, trace
from reasonbench.strata.logical.chaining import FAILS, HOLDS, LABELS, closure, verdict
from reasonbench.strata.logical.operators import OPERATORS
from reasonbench.strata.logical.sampler import WorldShape, sample_world
from reasonbench.strata.logical.stratum import HELD_OUT_FAMILIES, N_WORLDS, LogicalStratum
from reasonbench.strata.logical.unit import World
from reasonbench.strata.logical.world import Atom, Authority, Facts, Rule, Rules

__all__ = [
    "FAILS",
    "HELD_OUT_FAMILIES",
    "HOLDS",
    "LABELS",
    "N_WORLDS",
    "OPERATORS",
    "Atom",
    "Authority",
    "Facts",
    "LogicalAdjudicator",
    "LogicalStratum",
    "Rule",
    "Rules",
    "World",
    "WorldShape",
    "closure",
    "logical_adjudicator",
    "sample_world",
    "trace",
    "verdict",
]
