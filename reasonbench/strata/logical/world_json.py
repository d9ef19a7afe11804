"""The JSON form of a logical evaluator state (the world format, docs/strata/logical.md §1)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reasonbench.strata.logical.world import FORMAT, Atom, Authority, Facts, Rule, Rules, check_atom


def atom_to_json(atom: Atom) -> list[str]:
    return list(atom)


def atom_from_json(data: Any, *, ground: bool = True) -> Atom:
    if not isinstance(data, list | tuple):
        raise ValueError(f"an atom is a JSON list of strings, got {data!r}")
    return check_atom(tuple(data), ground=ground)


def components_to_json(facts: Facts, rules: Rules, authority: Authority) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "facts": [atom_to_json(a) for a in facts.atoms],
        "rules": [
            {"id": r.id, "if": [atom_to_json(p) for p in r.premises], "then": list(r.conclusion)}
            for r in rules.rules
        ],
        "authority": list(authority.allowed),
    }


def components_from_json(data: Mapping[str, Any]) -> tuple[Facts, Rules, Authority]:
    """Inverse of :func:`components_to_json`; ``ValueError`` names what is malformed."""
    expected = {"format", "facts", "rules", "authority"}
    if set(data) != expected:
        raise ValueError(
            f"a logical state has exactly the keys {sorted(expected)}, got {sorted(data)}"
        )
    if data["format"] != FORMAT:
        raise ValueError(f"unknown format {data['format']!r} (expected {FORMAT!r})")
    for key in ("facts", "rules", "authority"):
        if not isinstance(data[key], list):
            raise ValueError(f"{key} must be a JSON list, got {type(data[key]).__name__}")
    for rule_id in data["authority"]:
        if isinstance(rule_id, bool) or not isinstance(rule_id, int):
            raise ValueError(f"authority ids must be positive ints, got {rule_id!r}")
    facts = Facts.of(atom_from_json(a) for a in data["facts"])
    rules: list[Rule] = []
    for item in data["rules"]:
        if not isinstance(item, Mapping) or set(item) != {"id", "if", "then"}:
            raise ValueError(f"a rule is {{'id', 'if', 'then'}}, got {item!r}")
        premises = tuple(atom_from_json(p, ground=False) for p in item["if"])
        rules.append(Rule(item["id"], premises, atom_from_json(item["then"], ground=False)))
    if len({r.id for r in rules}) != len(rules):
        raise ValueError("rule ids must be unique")
    return facts, Rules.of(rules), Authority.of(data["authority"])
