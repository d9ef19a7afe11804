"""The JSON form of a logical evaluator state (the world format, docs/strata/logical.md §1)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any

from reasonbench.core.canonical import canonical_json, memo_text, parsed_once
from reasonbench.strata.logical.world import FORMAT, Atom, Authority, Facts, Rule, Rules, check_atom


def atom_to_json(atom: Atom) -> list[str]:
    return list(atom)


def atom_from_json(data: Any, *, ground: bool = True) -> Atom:
    if not isinstance(data, list | tuple):
        raise ValueError(f"an atom is a JSON list of strings, got {data!r}")
    return check_atom(tuple(data), ground=ground)


def rule_to_json(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "if": [atom_to_json(p) for p in rule.premises],
        "then": list(rule.conclusion),
    }


def components_to_json(facts: Facts, rules: Rules, authority: Authority) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "facts": [atom_to_json(a) for a in facts.atoms],
        "rules": [rule_to_json(r) for r in rules.rules],
        "authority": list(authority.allowed),
    }


def components_text(facts: Facts, rules: Rules, authority: Authority) -> str:
    """``canonical_json(components_to_json(...))``, each part encoded once per object (rules
    and fact sets recur across a unit's draws; ``SupportsStateText``)."""
    allowed = memo_text(authority, lambda: canonical_json(list(authority.allowed)))
    atoms = memo_text(facts, lambda: "[" + ",".join(map(_atom_text, facts.atoms)) + "]")
    listed = memo_text(
        rules,
        lambda: "[" + ",".join(memo_text(r, partial(_rule_text, r)) for r in rules.rules) + "]",
    )
    return f'{{"authority":{allowed},"facts":{atoms},"format":{_FORMAT_TEXT},"rules":{listed}}}'


_FORMAT_TEXT = canonical_json(FORMAT)


@lru_cache(maxsize=65536)
def _atom_text(atom: Atom) -> str:
    # a list's canonical JSON is its items' joined: fact sets are new on most draws, atoms not
    return canonical_json(atom_to_json(atom))


def _rule_text(rule: Rule) -> str:
    return canonical_json(rule_to_json(rule))


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
    # A world's few fact sets and rule sets recur across thousands of stored states (the audit
    # parses every one): each distinct component is parsed once (``parsed_once``).
    return _facts(data["facts"]), _rules(data["rules"]), _authority(data["authority"])


def _facts_of(atoms: list[Any]) -> Facts:
    return Facts.of(atom_from_json(a) for a in atoms)


def _authority_of(ids: list[Any]) -> Authority:
    for rule_id in ids:
        if isinstance(rule_id, bool) or not isinstance(rule_id, int):
            raise ValueError(f"authority ids must be positive ints, got {rule_id!r}")
    return Authority.of(ids)


def _rules_of(items: list[Any]) -> Rules:
    rules = [_rule_of(item) for item in items]
    if len({r.id for r in rules}) != len(rules):
        raise ValueError("rule ids must be unique")
    return Rules.of(rules)


_facts = parsed_once(_facts_of, 8192)
_authority = parsed_once(_authority_of, 8192)
_rules = parsed_once(_rules_of, 8192)


def _rule_of(item: Any) -> Rule:
    """One stored rule. Rule sets are often new (an edit makes one per case) while their rules
    are not: each distinct rule is parsed once, keyed by its content."""
    if not isinstance(item, Mapping) or set(item) != {"id", "if", "then"}:
        raise ValueError(f"a rule is {{'id', 'if', 'then'}}, got {item!r}")
    body, head = item["if"], item["then"]
    if isinstance(body, list) and all(isinstance(p, list) for p in body) and isinstance(head, list):
        try:
            return _rule(item["id"], tuple(map(tuple, body)), tuple(head))
        except TypeError:  # an unhashable part: parsed below, which says what is wrong
            pass
    premises, conclusion = _atoms(body, head)
    return Rule(item["id"], premises, conclusion)


def _atoms(body: Any, head: Any) -> tuple[tuple[Atom, ...], Atom]:
    if not isinstance(body, list):
        raise ValueError(f"a rule's 'if' is a JSON list of atoms, got {body!r}")
    return tuple(atom_from_json(p, ground=False) for p in body), atom_from_json(head, ground=False)


@lru_cache(maxsize=65536)
def _rule(rule_id: Any, body: tuple[Any, ...], head: Any) -> Rule:
    premises, conclusion = _atoms(list(body), head)
    return Rule(rule_id, premises, conclusion)
