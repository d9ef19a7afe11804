"""The organizational stratum: policy clauses as typed, executable (grounds, norm, authority) units.

See docs/strata/organizational.md for the clause format, the operators and how to add a clause.
"""

from reasonbench.strata.organizational.adjudicator import OrganizationalAdjudicator, trace
from reasonbench.strata.organizational.clause_audit import ClauseAudit, audit_all, audit_clause
from reasonbench.strata.organizational.loader import ClauseSet, load_clause_set
from reasonbench.strata.organizational.model import Condition, Grounds, Norm, Predicate, Scope
from reasonbench.strata.organizational.operators import OPERATORS
from reasonbench.strata.organizational.parse import ClauseError
from reasonbench.strata.organizational.schema import Clause, FieldSpec
from reasonbench.strata.organizational.stratum import OrganizationalStratum

__all__ = [
    "OPERATORS",
    "Clause",
    "ClauseAudit",
    "ClauseError",
    "ClauseSet",
    "Condition",
    "FieldSpec",
    "Grounds",
    "Norm",
    "OrganizationalAdjudicator",
    "OrganizationalStratum",
    "Predicate",
    "Scope",
    "audit_all",
    "audit_clause",
    "load_clause_set",
    "trace",
]
