"""Deontic synonym families (``data/invariance/lexicon.yaml``) and the T2 rewrite they define.

Per template family, a list of families of interchangeable phrases. Phrase 0 is the wording the
family's own templates use; T2 rewrite ``i`` replaces every phrase 0 by phrase ``i`` of the same
family — only inside policy templates, on whole words — so a swap never crosses deontic families.
Whether the swapped text still says the same rule is not taken on trust: every rewrite is
certified by execution (:mod:`reasonbench.strata.organizational.rewrites.certify`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from reasonbench.strata.organizational.parse import mapping, need, text

__all__ = ["Lexicon", "SynonymFamily", "parse_lexicon"]

MIN_PHRASES = 3


@dataclass(frozen=True)
class SynonymFamily:
    meaning: str
    phrases: tuple[str, ...]


def _capitalised(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


@dataclass(frozen=True)
class Lexicon:
    """Template family name -> its synonym families."""

    families: Mapping[str, tuple[SynonymFamily, ...]]

    def depth(self, family: str) -> int:
        """How many T2 rewrites the family supports (phrases beyond the base wording)."""
        return min(len(f.phrases) for f in self.families[family]) - 1

    def substitute(self, family: str, templates: Mapping[str, str], index: int) -> dict[str, str]:
        """``templates`` with every base phrase of ``family`` replaced by phrase ``index``."""
        replacement: dict[str, str] = {}
        for synonyms in self.families[family]:
            base, new = synonyms.phrases[0], synonyms.phrases[index]
            replacement[base] = new
            replacement[_capitalised(base)] = _capitalised(new)
        # Longest phrase first, so "not under" wins over "under" at the same position; letters
        # on either side forbid a match, so "under" never matches inside "thunder".
        alternatives = sorted(replacement, key=lambda p: (-len(p), p))
        pattern = re.compile(
            "(?<![A-Za-z])(" + "|".join(re.escape(p) for p in alternatives) + ")(?![A-Za-z])"
        )
        return {
            key: pattern.sub(lambda m: replacement[m.group(1)], template)
            for key, template in templates.items()
        }


def parse_lexicon(
    data: Any, where: str, policy_templates: Mapping[str, Mapping[str, str]]
) -> Lexicon:
    """Validate the lexicon against the base policy templates of every template family."""
    raw = mapping(data, where, {"families"}, ("families",))
    families = raw["families"]
    need(isinstance(families, dict), f"{where}.families", "expected a mapping per template family")
    missing = sorted(set(policy_templates) - set(families))
    need(not missing, f"{where}.families", f"no synonyms for template family(ies) {missing}")
    parsed: dict[str, tuple[SynonymFamily, ...]] = {}
    for name, entries in families.items():
        at = f"{where}.families.{name}"
        need(
            name in policy_templates,
            at,
            f"unknown template family; known {sorted(policy_templates)}",
        )
        need(isinstance(entries, list) and bool(entries), at, "expected a non-empty list")
        corpus = " \n ".join(policy_templates[name].values())
        seen: set[str] = set()
        out = []
        for i, entry in enumerate(entries):
            item = mapping(entry, f"{at}[{i}]", {"meaning", "phrases"}, ("meaning", "phrases"))
            phrases = item["phrases"]
            need(
                isinstance(phrases, list) and len(phrases) >= MIN_PHRASES,
                f"{at}[{i}]",
                f"need >= {MIN_PHRASES} phrases (the base wording first)",
            )
            words = tuple(text(p, f"{at}[{i}].phrases") for p in phrases)
            for phrase in words:
                need("{" not in phrase and "}" not in phrase, f"{at}[{i}]", "no braces in phrases")
                need(phrase.lower() not in seen, f"{at}[{i}]", f"phrase {phrase!r} used twice")
                seen.add(phrase.lower())
            base = words[0]
            found = re.search(
                f"(?<![A-Za-z])({re.escape(base)}|{re.escape(_capitalised(base))})(?![A-Za-z])",
                corpus,
            )
            need(found is not None, f"{at}[{i}]", f"base phrase {base!r} is not in the templates")
            out.append(SynonymFamily(text(item["meaning"], f"{at}[{i}].meaning"), words))
        parsed[str(name)] = tuple(out)
    return Lexicon(parsed)
