"""The operator registry of the logical stratum: name -> typed :class:`Operator`.

Invariant kept by every operator: sink properties are never premises and core rules never
conclude them, so the three ``noop`` operators (which touch only sink material) cannot change
the verdict of any query, alone or composed with any other operator.
"""

from __future__ import annotations

from reasonbench.strata.base import Operator
from reasonbench.strata.logical.ops import authority as a
from reasonbench.strata.logical.ops import grounds as g
from reasonbench.strata.logical.ops import norms as n

OPERATORS: dict[str, Operator] = {
    op.name: op
    for op in (
        Operator("add_fact", "G", g.add_fact, description="add a fact (often a missing premise)"),
        Operator("remove_fact", "G", g.remove_fact, description="remove a fact (often a used one)"),
        Operator("move_fact", "G", g.move_fact, description="re-target a fact to another entity"),
        Operator("add_inert_fact", "G", g.add_inert_fact, True, "add a fact no rule reads"),
        Operator("add_rule", "N", n.add_rule, description="add a general rule under a fresh id"),
        Operator("remove_rule", "N", n.remove_rule, description="remove a rule"),
        Operator("rewrite_rule", "N", n.rewrite_rule, description="new body, same id"),
        Operator(
            "edit_premise", "N", n.edit_operator(n.replace_premise), description="swap a premise"
        ),
        Operator(
            "edit_conclusion",
            "N",
            n.edit_operator(n.replace_conclusion),
            description="swap the conclusion",
        ),
        Operator(
            "drop_premise",
            "N",
            n.edit_operator(n.drop_premise),
            description="drop a premise (weaken)",
        ),
        Operator(
            "add_premise",
            "N",
            n.edit_operator(n.add_premise),
            description="add a premise (strengthen)",
        ),
        Operator(
            "add_inert_rule", "N", n.add_inert_rule, True, "add a rule concluding a sink property"
        ),
        Operator("grant", "A", a.grant, description="authorise a rule"),
        Operator("revoke", "A", a.revoke, description="withdraw authority over a rule"),
        Operator("swap", "A", a.swap, description="revoke one rule and authorise another"),
        Operator("toggle_inert", "A", a.toggle_inert, True, "toggle authority over a sink rule"),
    )
}
