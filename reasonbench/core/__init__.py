"""Core semantics: states, the adjudicator protocol, cubes, receipts, certification, accounting."""

from reasonbench.core.accounting import Outcome, classify
from reasonbench.core.adjudicator import (
    REFER,
    Adjudicator,
    check_verdict,
    get_adjudicator,
    register_adjudicator,
    registered_adjudicators,
)
from reasonbench.core.answer import Answer
from reasonbench.core.certify import Certificate, certify_adaptive, certify_exhaustive
from reasonbench.core.cube import Cube, Oracle, execute_cube, state_oracle
from reasonbench.core.monotone import MonotoneCertificate, certify_monotone, monotone_lower_bound
from reasonbench.core.receipt import (
    Receipt,
    canonical_family,
    family_masks,
    is_antichain,
    minimal_sufficient,
    receipt_of,
)
from reasonbench.core.sources import (
    GNA,
    cell_key,
    cell_order,
    full_mask,
    mask_from_names,
    mask_members,
    parse_cell_key,
    popcount,
)
from reasonbench.core.state import EvaluatorState, changed_sources, hybrid, state_from_mapping
from reasonbench.core.verdict_order import MonotoneCheck, Violation, validate_order

__all__ = [
    "GNA",
    "REFER",
    "Answer",
    "Adjudicator",
    "Certificate",
    "Cube",
    "EvaluatorState",
    "MonotoneCertificate",
    "MonotoneCheck",
    "Oracle",
    "Outcome",
    "Receipt",
    "Violation",
    "canonical_family",
    "cell_key",
    "cell_order",
    "certify_adaptive",
    "certify_exhaustive",
    "certify_monotone",
    "changed_sources",
    "check_verdict",
    "classify",
    "execute_cube",
    "family_masks",
    "full_mask",
    "get_adjudicator",
    "hybrid",
    "is_antichain",
    "mask_from_names",
    "mask_members",
    "monotone_lower_bound",
    "minimal_sufficient",
    "parse_cell_key",
    "popcount",
    "receipt_of",
    "register_adjudicator",
    "registered_adjudicators",
    "state_from_mapping",
    "state_oracle",
    "validate_order",
]
