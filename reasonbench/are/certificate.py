"""The certificate of a decision (Algorithm 1): margins, reasons, accepted tensions and radius.

The margin of an action a splits exactly into one term per relation r incident to a and one
anchor term (Lemma 1 grouped by relation, as in the proof of Proposition 5):

    mu_a = x_a h_a(x)
         = sum_{r ni a} x_a w_r (beta^W x_other + beta^(a)) + x_a (kappa_a a0_a - lambda_a/2)

These are the "reasons" of the certificate; :mod:`.attribution` regroups the same terms by source.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from reasonbench.are.compilation import BETA, Vector, energy_form, incoherence, violated
from reasonbench.are.local import margins
from reasonbench.are.model import ReflectiveState
from reasonbench.are.solver import Solution

Term = tuple[int | None, float]  # (relation index, or None for the anchor; contribution)


def terms(state: ReflectiveState, x: Vector, claim: str) -> list[Term]:
    """The exact split of claim ``claim``'s margin into relation terms and its anchor term."""
    index = state.index
    i = index[claim]
    out: list[Term] = []
    for k, r in enumerate(state.relations):
        if claim not in (r.source, r.target):
            continue
        beta_w, beta_1, beta_2, _ = BETA[r.type]
        own, other = (beta_1, r.target) if r.source == claim else (beta_2, r.source)
        out.append((k, float(x[i] * r.weight * (beta_w * x[index[other]] + own))))
    c = state.claims[i]
    out.append((None, float(x[i] * (c.stubbornness * c.anchor - c.systematicity / 2))))
    return out


@dataclass(frozen=True)
class Reasons:
    """One action's status, margin and its margin's terms (largest magnitude first)."""

    action: str
    taken: bool
    margin: float
    terms: tuple[Term, ...]


@dataclass(frozen=True)
class Certificate:
    """What Algorithm 1 logs for a decision (``to_json`` names relations by their endpoints)."""

    decision: tuple[str, ...]  # D(x*): every accepted action
    consequential: tuple[str, ...]  # Dc(x*)
    margins: tuple[tuple[str, float], ...]  # mu_u for every claim, claim order
    reasons: tuple[Reasons, ...]  # one per action, claim order
    tensions: tuple[int, ...]  # violated relations (indices into state.relations)
    gamma: float
    radius: float  # Gamma_A / 2: no perturbation of smaller influence changes the decision
    energy: float
    rho: float

    def to_json(self, state: ReflectiveState) -> dict[str, Any]:
        def name(k: int | None) -> str:
            if k is None:
                return "anchor"
            r = state.relations[k]
            return f"{r.source} {r.type} {r.target}"

        return {
            "decision": list(self.decision),
            "consequential": list(self.consequential),
            "margins": {u: round(m, 6) for u, m in self.margins},
            "reasons": {
                r.action: {
                    "taken": r.taken,
                    "margin": round(r.margin, 6),
                    "terms": [[name(k), round(v, 6)] for k, v in r.terms],
                }
                for r in self.reasons
            },
            "tensions": [name(k) for k in self.tensions],
            "gamma": _finite(self.gamma),
            "radius": _finite(self.radius),
            "energy": round(self.energy, 6),
            "rho": _finite(self.rho),
        }


def _finite(value: float) -> float | None:
    return None if math.isinf(value) else round(value, 6)


def certify(state: ReflectiveState, solution: Solution) -> Certificate:
    x = solution.vector()
    form = energy_form(state)
    mu = margins(form, x)
    reasons = []
    for a in state.actions:
        split = sorted(terms(state, x, a), key=lambda t: (-abs(t[1]), -1 if t[0] is None else t[0]))
        reasons.append(
            Reasons(a, bool(x[state.index[a]] > 0), float(mu[state.index[a]]), tuple(split))
        )
    return Certificate(
        tuple(a for a in state.actions if x[state.index[a]] > 0),
        solution.decision,
        tuple((c.id, float(m)) for c, m in zip(state.claims, mu, strict=True)),
        tuple(reasons),
        violated(state, x),
        solution.gamma,
        solution.gamma / 2,
        solution.energy,
        incoherence(state, x),
    )
