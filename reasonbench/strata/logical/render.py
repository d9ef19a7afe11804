"""Rendering a transition as prompt text in one template family and one source order.

Each source section shows the OLD version of that source in full, then one revision line
listing what the revised state added, removed or changed (rules keep their ids across versions,
so an edited rule is shown as ``changed``). The query comes last. All wording comes from
``data/logical/templates.yaml``; entity and predicate words from ``vocabulary.yaml``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from reasonbench.core.sources import GNA
from reasonbench.strata.base import Rendering, Transition
from reasonbench.strata.logical.templates import Family
from reasonbench.strata.logical.world import VARIABLE, Atom, Authority, Facts, Rule, Rules


class _Words:
    """Atom and rule phrasing of one family; tracks the variable's first mention in a rule."""

    def __init__(self, family: Family, text: Mapping[str, str]) -> None:
        self.family = family
        self.english = family["style"] == "english"
        self.text = text
        self.seen_variable = False

    def term(self, name: str) -> str:
        if name == VARIABLE:
            key = "variable_later" if self.seen_variable else "variable_first"
            self.seen_variable = True
            return str(self.family[key])
        return self.text.get(name, name) if self.english else name

    def clause(self, atom: Atom) -> str:
        pred = self.text.get(atom[0], atom[0]) if self.english else atom[0]
        if len(atom) == 2:
            return str(self.family["unary"]).format(subject=self.term(atom[1]), property=pred)
        subject = self.term(atom[1])  # subject first: the first mention reads "something"
        return str(self.family["binary"]).format(
            subject=subject, relation=pred, object=self.term(atom[2])
        )

    def rule(self, rule: Rule) -> str:
        self.seen_variable = False
        premises = str(self.family["premise_join"]).join(self.clause(p) for p in rule.premises)
        conclusion = self.clause(rule.conclusion)
        return str(self.family["rule"]).format(id=rule.id, premises=premises, conclusion=conclusion)

    def ref(self, rule_id: int) -> str:
        return str(self.family["rule_ref"]).format(id=rule_id)


def _listing(section: Mapping[str, str], items: list[str], join: str) -> str:
    return section["list"].format(items=join.join(items)) if items else section["empty"]


# Listings of old components, by (family, wording, component): the old state of every case of a
# world is its base state, so most records repeat the listings of the few before them. Keyed by
# identity of the family and wording (held in the entry, so an id cannot be reused meanwhile);
# a listing never depends on what was phrased before it (each rule restarts the variable).
_LISTINGS: dict[tuple[int, int, object], tuple[Family, Mapping[str, str], str]] = {}
LISTINGS_KEPT = 4096


def _old_listing(component: object, words: _Words, build: Callable[[], str]) -> str:
    key = (id(words.family), id(words.text), component)
    found = _LISTINGS.get(key)
    if found is not None and found[0] is words.family and found[1] is words.text:
        return found[2]
    listing = build()
    if len(_LISTINGS) >= LISTINGS_KEPT:
        _LISTINGS.clear()
    _LISTINGS[key] = (words.family, words.text, listing)
    return listing


def _grounds_listing(old: Facts, words: _Words, section: Mapping[str, str], join: str) -> str:
    items = [section["item"].format(fact=words.clause(a)) for a in old.atoms]
    return _listing(section, items, section["join"])


def _grounds_changes(
    old: Facts, new: Facts, words: _Words, section: Mapping[str, str], join: str
) -> list[str]:
    def phrased(atoms: list[Atom]) -> list[str]:
        return [section["change_item"].format(fact=words.clause(a)) for a in atoms]

    added, removed = _minus(new.atoms, old.atoms), _minus(old.atoms, new.atoms)
    return _changes(section, join, (("added", phrased(added)), ("removed", phrased(removed))))


def _norms_listing(old: Rules, words: _Words, section: Mapping[str, str], join: str) -> str:
    items = [section["item"].format(rule=words.rule(r)) for r in old.rules]
    return _listing(section, items, section["join"])


def _norms_changes(
    old: Rules, new: Rules, words: _Words, section: Mapping[str, str], join: str
) -> list[str]:
    before = {r.id: r for r in old.rules}
    after = {r.id: r for r in new.rules}
    added = [words.rule(r) for r in new.rules if r.id not in before]
    removed = [words.ref(r.id) for r in old.rules if r.id not in after]
    changed = [words.rule(r) for r in new.rules if r.id in before and before[r.id] != r]
    return _changes(section, join, (("added", added), ("removed", removed), ("changed", changed)))


def _authority_listing(old: Authority, words: _Words, section: Mapping[str, str], join: str) -> str:
    return _listing(section, [words.ref(i) for i in old.allowed], join)


def _authority_changes(
    old: Authority, new: Authority, words: _Words, section: Mapping[str, str], join: str
) -> list[str]:
    added, removed = _minus(new.allowed, old.allowed), _minus(old.allowed, new.allowed)
    return _changes(
        section,
        join,
        (("added", [words.ref(i) for i in added]), ("removed", [words.ref(i) for i in removed])),
    )


def _changes(
    section: Mapping[str, str], join: str, groups: tuple[tuple[str, list[str]], ...]
) -> list[str]:
    """One phrase per non-empty group of changed items (``added``, ``removed``, ``changed``)."""
    return [section[key].format(items=join.join(items)) for key, items in groups if items]


class _Phrasing(NamedTuple):
    """How one source's section is phrased: the old component's listing, the change phrases."""

    listing: Callable[[Any, _Words, Mapping[str, str], str], str]
    changes: Callable[[Any, Any, _Words, Mapping[str, str], str], list[str]]


SECTIONS: dict[str, _Phrasing] = {
    "G": _Phrasing(_grounds_listing, _grounds_changes),
    "N": _Phrasing(_norms_listing, _norms_changes),
    "A": _Phrasing(_authority_listing, _authority_changes),
}


def _section(source: str, transition: Transition, words: _Words) -> list[str]:
    family = words.family
    section: Mapping[str, str] = family[source]
    old, new, join = transition.old[source], transition.new[source], str(family["item_join"])
    phrasing = SECTIONS[source]
    listing = _old_listing(old, words, lambda: phrasing.listing(old, words, section, join))
    changes = phrasing.changes(old, new, words, section, join)
    revision = (
        str(family["revision"]).format(changes=str(family["change_join"]).join(changes))
        if changes
        else str(family["no_revision"])
    )
    return [section["title"], listing, revision]


def _minus(left: tuple[Any, ...], right: tuple[Any, ...]) -> list[Any]:
    """Members of ``left`` not in ``right``, in ``left``'s (sorted) order."""
    exclude = set(right)
    return [x for x in left if x not in exclude]


def render(
    transition: Transition,
    query: Atom,
    family_name: str,
    families: Mapping[str, Family],
    text: Mapping[str, str],
    source_order: tuple[str, ...],
) -> Rendering:
    if family_name not in families:
        raise ValueError(f"unknown template family {family_name!r}; known: {sorted(families)}")
    if sorted(source_order) != sorted(GNA):
        raise ValueError(f"source_order must be a permutation of {GNA}, got {source_order}")
    family = families[family_name]
    words = _Words(family, text)
    lines = [str(family["intro"])] if family["intro"] else []
    for source in source_order:
        lines += _section(source, transition, words)
    words.seen_variable = False
    lines.append(str(family["query"]).format(fact=words.clause(query)))
    return Rendering("\n".join(lines), family_name, source_order)
