"""The operators of the organizational stratum: every mutation operator by name, typed by the one
source it changes.

Names are stable identifiers: an operator-shift split holds some of them out by name, so a
renamed operator silently changes a frozen split. Order here is the registry order used when a
caller passes no explicit operator list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from reasonbench.core.sources import GNA
from reasonbench.strata.base import Operator
from reasonbench.strata.organizational.ops.authority import AUTHORITY_OPERATORS
from reasonbench.strata.organizational.ops.grounds import GROUNDS_OPERATORS
from reasonbench.strata.organizational.ops.norms import NORM_OPERATORS

OPERATORS: Mapping[str, Operator] = MappingProxyType(
    {op.name: op for op in (*GROUNDS_OPERATORS, *NORM_OPERATORS, *AUTHORITY_OPERATORS)}
)


def resolve(names: Sequence[str] | None) -> tuple[Operator, ...]:
    """The operators named (all when ``None``), in registry order; unknown names fail."""
    if names is None:
        return tuple(OPERATORS.values())
    unknown = sorted(set(names) - set(OPERATORS))
    if unknown:
        raise KeyError(f"unknown operator(s) {unknown}; registered: {list(OPERATORS)}")
    wanted = set(names)
    return tuple(op for op in OPERATORS.values() if op.name in wanted)


def by_source(operators: Sequence[Operator]) -> dict[str, tuple[Operator, ...]]:
    return {source: tuple(op for op in operators if op.source == source) for source in GNA}
