"""The quarantine conditions (Theorem 4) as a checkable report on a (base, perturbed) pair.

The perturbation adds claims I. Besides Definition 12 (I holds no action and no non-negotiable;
H, x_hat, F and Ac unchanged) and I being untrusted content (the oversight quantities read
channels: an injected claim on another channel would enter an override Ov_s, and its relations
the denominator of rho), the theorem needs:

* (Q1) relations among the base claims, their anchors and systematicity costs unchanged
  (stubbornness too: it scales the anchor term; and their channels, which Ov_s reads);
* (Q2) every relation incident to I is an attack, or a support whose supporting claim is in I;
* (Q3) each v in I is attacked by a non-negotiable accepted claim g with weight
  w_v > 2 kappa_v a0_v - lambda_v.

Then every injected claim is rejected in every global equilibrium and the global equilibria are
exactly the old ones extended by rejecting I: decision, Gamma_A and the oversight quantities
are unchanged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from reasonbench.are.model import ReflectiveState, Relation


@dataclass(frozen=True)
class QuarantineReport:
    injected: tuple[str, ...]
    problems: tuple[str, ...]  # each names the failed condition ("Q1: ...")

    @property
    def holds(self) -> bool:
        return not self.problems


def _key(r: Relation) -> tuple[str, str, str, float, str]:
    ends = (r.source, r.target) if r.type == "supp" else tuple(sorted((r.source, r.target)))
    return (ends[0], ends[1], r.type, r.weight, r.channel)


def defences(state: ReflectiveState, claim_id: str) -> list[float]:
    """Weights of the attacks between ``claim_id`` and a claim fixed true (non-negotiable):
    what Q3 weighs against the claim's pull."""
    fixed = dict(state.fixed)
    return [
        r.weight
        for r in state.relations
        if r.type == "att"
        and claim_id in (r.source, r.target)
        and fixed.get(r.target if r.source == claim_id else r.source) == 1
    ]


def check_quarantine(base: ReflectiveState, perturbed: ReflectiveState) -> QuarantineReport:
    old = set(base.index)
    injected = tuple(c.id for c in perturbed.claims if c.id not in old)
    new = set(injected)
    problems: list[str] = []
    if not old <= set(perturbed.index):
        problems.append("perturbation: a base claim is missing")
        return QuarantineReport(injected, tuple(problems))
    if any(perturbed.claim(v).kind == "A" for v in injected):
        problems.append("perturbation: an injected claim is an action")
    for v in injected:
        if perturbed.claim(v).channel != "untrusted":
            problems.append(f"perturbation: injected claim {v} is not on the untrusted channel")
    if set(perturbed.fixed) != set(base.fixed):
        problems.append("perturbation: H or its statuses changed")
    if set(perturbed.prohibitions) != set(base.prohibitions):
        problems.append("perturbation: F changed")
    if set(perturbed.consequential) != set(base.consequential):
        problems.append("perturbation: Ac changed")
    for c in base.claims:
        p = perturbed.claim(c.id)
        if (p.channel, p.anchor, p.stubbornness, p.systematicity) != (
            c.channel,
            c.anchor,
            c.stubbornness,
            c.systematicity,
        ):
            problems.append(f"Q1: channel, anchor, stubbornness or systematicity of {c.id} changed")
    among = Counter(_key(r) for r in perturbed.relations if r.source in old and r.target in old)
    if among != Counter(_key(r) for r in base.relations):
        problems.append("Q1: relations among the base claims changed")
    for r in perturbed.relations:
        if (r.source in new or r.target in new) and not (
            r.type == "att" or (r.type == "supp" and r.source in new)
        ):
            problems.append(
                f"Q2: {r.source} {r.type} {r.target} is neither an attack nor "
                "a support from an injected claim"
            )
    for v in injected:
        c = perturbed.claim(v)
        need_w = 2 * c.stubbornness * c.anchor - c.systematicity
        if not any(w > need_w for w in defences(perturbed, v)):
            problems.append(f"Q3: no non-negotiable attack on {v} outweighs {need_w:g}")
    return QuarantineReport(injected, tuple(problems))
