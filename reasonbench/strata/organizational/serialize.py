"""The state JSON: grounds values, the rule and the scope, executable without this package.

Format (``"format": "reasonbench.organizational.state/1"``)::

    {"format": ..., "grounds": {"amount": 80, "receipt": true, "region": "EU", ...},
     "norms": {"default": "deny",
               "conditions": [{"outcome": "approve", "when": [{"field": "amount", "op": "<=", "value": 60}]}],
               "exceptions": [...]},
     "authority": {"scope": [{"field": "region", "op": "in", "value": ["EU", "UK"]},
                             {"field": "amount", "op": "between", "value": [0, 1000]}]}}

Execution: ``refer`` unless every scope test holds; else the first exception (listed order)
whose predicates all hold decides; else ``deny`` if a deny-condition fires, ``approve`` if an
approve-condition fires, else the default. Operators: ``<= < >= >`` on integers, ``is`` on
booleans, ``in``/``not_in`` on strings, ``between`` (inclusive) on integers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.core.canonical import parsed_once
from reasonbench.core.state import EvaluatorState
from reasonbench.strata.organizational.adjudicator import unpack
from reasonbench.strata.organizational.model import Grounds, Norm, Scope, Value
from reasonbench.strata.organizational.parse import (
    ClauseError,
    mapping,
    need,
    norm_json,
    parse_norm,
    parse_scope,
    predicate_json,
)

FORMAT = "reasonbench.organizational.state/1"


def state_to_json(state: EvaluatorState[Any]) -> dict[str, Any]:
    grounds, norm, scope = unpack(state)
    return {
        "format": FORMAT,
        "grounds": dict(grounds.values),
        "norms": norm_json(norm),
        "authority": {"scope": [predicate_json(t) for t in scope.tests]},
    }


# A clause's few rules and scopes recur across thousands of stored states (the audit parses
# every one): each distinct one is parsed once.
def _parse_norm(raw: Any) -> Norm:
    return parse_norm(raw, "state.norms", None)


def _parse_scope(raw: Any) -> Scope:
    return parse_scope(raw, "state.authority.scope", None)


_norm = parsed_once(_parse_norm)
_scope = parsed_once(_parse_scope)


def state_from_json(data: Mapping[str, Any]) -> EvaluatorState[Any]:
    """Parse and check a state document; ``ClauseError`` names the first problem."""
    raw = mapping(data, "state", {"format", "grounds", "norms", "authority"},
                  ("format", "grounds", "norms", "authority"))  # fmt: skip
    need(raw["format"] == FORMAT, "state.format", f"expected {FORMAT!r}, got {raw['format']!r}")
    values = raw["grounds"]
    need(isinstance(values, dict), "state.grounds", "expected an object of field values")
    parsed: list[tuple[str, Value]] = []
    for name, value in values.items():
        need(isinstance(value, int | str), f"state.grounds.{name}", f"unsupported value {value!r}")
        parsed.append((str(name), value))
    grounds = Grounds(tuple(parsed))
    norm = _norm(raw["norms"])
    authority = mapping(raw["authority"], "state.authority", {"scope"}, ("scope",))
    scope = _scope(authority["scope"])
    missing = sorted((set(norm.fields()) | set(scope.fields())) - set(grounds.mapping))
    if missing:
        raise ClauseError(f"state: rule or scope mention field(s) {missing} the grounds lack")
    return EvaluatorState.of(G=grounds, N=norm, A=scope)
