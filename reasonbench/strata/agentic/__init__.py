"""The agentic stratum: decisions of AI agents under an exact reflective-equilibrium adjudicator.

Grounds = evidence claims and anchors; norms = principles, judgments, relations, priorities,
non-negotiables, prohibitions; authority = channel profile, caps, instruction authority,
protected sources and oversight thresholds. Verdict = the consequential decision of the exact
global equilibrium, or ``refer`` when an oversight rule fires. Importing this package registers
the ``"agentic"`` adjudicator factory. See docs/strata/agentic.md.
"""

from reasonbench.strata.agentic.adjudicator import (
    AgenticAdjudicator,
    Decision,
    agentic_adjudicator,
    decide,
    deliberation,
    labels_for,
    trace,
)
from reasonbench.strata.agentic.components import (
    FORMAT,
    Authority,
    Grounds,
    Norms,
    actions_of,
    context_of,
)
from reasonbench.strata.agentic.control import quarantine_control
from reasonbench.strata.agentic.operators import HELD_OUT_OPERATORS, OPERATORS
from reasonbench.strata.agentic.stratum import N_UNITS, AgenticStratum
from reasonbench.strata.agentic.units import AgenticUnit, base_state, make_unit

__all__ = [
    "FORMAT",
    "HELD_OUT_OPERATORS",
    "N_UNITS",
    "OPERATORS",
    "AgenticAdjudicator",
    "AgenticStratum",
    "AgenticUnit",
    "Authority",
    "Decision",
    "Grounds",
    "Norms",
    "actions_of",
    "agentic_adjudicator",
    "base_state",
    "context_of",
    "decide",
    "deliberation",
    "labels_for",
    "make_unit",
    "quarantine_control",
    "trace",
]
