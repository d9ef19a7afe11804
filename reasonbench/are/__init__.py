"""Agentic reflective equilibrium (ARE): an exact, certified adjudicator for agent decisions.

The model of ``shared/spec/reflective-equilibrium.md`` (Zhu, "Computational Reflective
Equilibrium for Agentic AI"): reflective states as validated data (:mod:`.model`), the
provenance-based construction (:mod:`.provenance`) from the harness's profile (:mod:`.profile`),
compilation to (W, b) (:mod:`.compilation`), an exact global solver with the decision margin
Gamma_A (:mod:`.solver`: enumeration or MILP), best-response local equilibria (:mod:`.local`),
certificates (:mod:`.certificate`), provenance attribution (:mod:`.attribution`), oversight rules
O1-O3 (:mod:`.oversight`), the quarantine and lexical-priority checks (:mod:`.quarantine`,
:mod:`.reduction`), and the two case families of the paper with a seeded environment sampler
(:mod:`.cases`, :mod:`.loader`, :mod:`.environment`).
See docs/are.md.
"""

from reasonbench.are.attribution import Attribution, attribute, attribute_decision
from reasonbench.are.cases import CaseFamily, Injection, Outcome, Tool
from reasonbench.are.certificate import Certificate, Reasons, certify, terms
from reasonbench.are.compilation import (
    TOL,
    Quadratic,
    direct_energy,
    energy_form,
    incoherence,
    override_form,
    violated,
    violation_form,
)
from reasonbench.are.environment import Environment, case_state, observe, sample_environment
from reasonbench.are.loader import FAMILIES, load_family, parse_family
from reasonbench.are.local import Dynamics, best_response, is_local_equilibrium, margins
from reasonbench.are.model import (
    CHANNELS,
    KINDS,
    NO_ACTION,
    STRUCTURE,
    TYPES,
    Claim,
    ReflectiveState,
    Relation,
    decision_label,
)
from reasonbench.are.oversight import Review, Thresholds, observables, oversee, review
from reasonbench.are.profile import PAPER_PROFILE, Profile
from reasonbench.are.provenance import construct
from reasonbench.are.quarantine import QuarantineReport, check_quarantine
from reasonbench.are.random_states import random_state
from reasonbench.are.reduction import lexically_prior
from reasonbench.are.solver import Solution, consequential_decision, feasible, solve
from reasonbench.are.specs import RUBRIC, ActionSpec, ClaimSpec, RelationSpec
from reasonbench.are.validate import AreError

__all__ = [
    "CHANNELS",
    "FAMILIES",
    "KINDS",
    "NO_ACTION",
    "PAPER_PROFILE",
    "RUBRIC",
    "STRUCTURE",
    "TOL",
    "TYPES",
    "ActionSpec",
    "AreError",
    "Attribution",
    "CaseFamily",
    "Certificate",
    "Claim",
    "ClaimSpec",
    "Dynamics",
    "Environment",
    "Injection",
    "Outcome",
    "Profile",
    "Quadratic",
    "QuarantineReport",
    "Reasons",
    "ReflectiveState",
    "Relation",
    "RelationSpec",
    "Review",
    "Solution",
    "Thresholds",
    "Tool",
    "attribute",
    "attribute_decision",
    "best_response",
    "case_state",
    "certify",
    "check_quarantine",
    "consequential_decision",
    "construct",
    "decision_label",
    "direct_energy",
    "energy_form",
    "feasible",
    "incoherence",
    "is_local_equilibrium",
    "lexically_prior",
    "load_family",
    "margins",
    "observables",
    "observe",
    "override_form",
    "oversee",
    "parse_family",
    "random_state",
    "review",
    "sample_environment",
    "solve",
    "terms",
    "violated",
    "violation_form",
]
