"""The operator registry of the agentic stratum: name -> typed :class:`Operator`.

Names carry their source as a prefix (``g_``, ``n_``, ``a_``). The three ``noop`` operators
(``g_inject``, ``n_inert_principle``, ``a_lax_override``) change their component but no verdict:
quarantined injected text, a principle nothing relates to, an override trigger nothing reaches.
The sampler verifies every no-op source is inert in the executed cube and redraws otherwise.
"""

from __future__ import annotations

from reasonbench.strata.agentic.ops import authority as a
from reasonbench.strata.agentic.ops import grounds as g
from reasonbench.strata.agentic.ops import norms as n
from reasonbench.strata.base import Operator

OPERATORS: dict[str, Operator] = {
    op.name: op
    for op in (
        Operator("g_run_tool", "G", g.run_tool, description="run a tool not yet run"),
        Operator("g_retract_tool", "G", g.retract_tool, description="withdraw a tool's result"),
        Operator("g_flip_outcome", "G", g.flip_outcome, description="a tool returns otherwise"),
        Operator("g_inject", "G", g.inject, True, "plant quarantined untrusted text"),
        Operator("n_add_relation", "N", n.add_relation, description="one more reason is seen"),
        Operator("n_drop_relation", "N", n.drop_relation, description="drop an agent reading"),
        Operator("n_restrength", "N", n.restrength, description="a strength moves one step"),
        Operator("n_stance", "N", n.restance, description="another priority stance"),
        Operator("n_prohibit", "N", n.prohibit, description="impose or lift a prohibition"),
        Operator("n_hard", "N", n.toggle_hard, description="make or unmake a non-negotiable"),
        Operator("n_inert_principle", "N", n.inert_principle, True, "add an unrelated principle"),
        Operator("a_authority", "A", a.reauthorise, description="instruction authority level"),
        Operator("a_instruct", "A", a.reinstruct, description="give or withdraw an instruction"),
        Operator("a_stubbornness", "A", a.restubborn, description="a channel's kappa_bar"),
        Operator("a_untrusted", "A", a.retrust, description="how far untrusted text counts"),
        Operator("a_oversight", "A", a.reoversee, description="an oversight threshold"),
        Operator("a_lax_override", "A", a.lax_override, True, "an override trigger never reached"),
    )
}

HELD_OUT_OPERATORS: tuple[str, ...] = ("g_flip_outcome", "n_drop_relation", "a_stubbornness")
"""Suggested operators for the operator-shift split (one per source)."""
