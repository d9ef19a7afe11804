"""The rendering templates data file: one family per register, validated at load.

Every key of a family is a ``str.format`` template whose placeholders must be exactly the ones
listed below, so a typo in the data file fails at load rather than as a half-rendered prompt.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from string import Formatter
from typing import Any

import yaml

from reasonbench.strata.logical.vocabulary import DATA_DIR

STYLES = ("english", "formal")

FAMILY_KEYS: dict[str, tuple[str, ...]] = {
    "style": (),
    "intro": (),
    "variable_first": (),
    "variable_later": (),
    "unary": ("subject", "property"),
    "binary": ("subject", "relation", "object"),
    "premise_join": (),
    "rule": ("id", "premises", "conclusion"),
    "rule_ref": ("id",),
    "revision": ("changes",),
    "no_revision": (),
    "change_join": (),
    "item_join": (),
    "query": ("fact",),
}
_LIST = {"title": (), "list": ("items",), "empty": (), "added": ("items",), "removed": ("items",)}
SECTION_KEYS: dict[str, dict[str, tuple[str, ...]]] = {
    "G": {**_LIST, "item": ("fact",), "join": (), "change_item": ("fact",)},
    "N": {**_LIST, "item": ("rule",), "join": (), "changed": ("items",)},
    "A": dict(_LIST),
}

Family = Mapping[str, Any]
"""A validated family: the keys of FAMILY_KEYS plus one mapping per source G, N, A."""


def _check(where: str, value: Any, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, str):
        raise ValueError(f"{where}: must be a string, got {value!r}")
    try:
        used = {field for _, field, _, _ in Formatter().parse(value) if field is not None}
    except ValueError as exc:
        raise ValueError(f"{where}: bad template {value!r}: {exc}") from None
    if used != set(allowed):
        raise ValueError(f"{where}: placeholders {sorted(used)} != expected {sorted(allowed)}")


def parse_templates(data: Any, origin: str = "templates") -> dict[str, Family]:
    """Validate a parsed templates document; ``ValueError`` names the family and key."""
    if not isinstance(data, dict) or not data:
        raise ValueError(f"{origin}: expected a mapping of template families")
    families: dict[str, Family] = {}
    for name, family in data.items():
        expected = set(FAMILY_KEYS) | set(SECTION_KEYS)
        if not isinstance(family, dict) or set(family) != expected:
            got = sorted(family) if isinstance(family, dict) else family
            raise ValueError(f"{origin}: family {name!r} needs keys {sorted(expected)}, got {got}")
        for key, allowed in FAMILY_KEYS.items():
            _check(f"{origin}: {name}.{key}", family[key], allowed)
        if family["style"] not in STYLES:
            raise ValueError(f"{origin}: {name}.style must be one of {STYLES}")
        for source, keys in SECTION_KEYS.items():
            section = family[source]
            if not isinstance(section, dict) or set(section) != set(keys):
                raise ValueError(f"{origin}: {name}.{source} needs exactly the keys {sorted(keys)}")
            for key, allowed in keys.items():
                _check(f"{origin}: {name}.{source}.{key}", section[key], allowed)
        families[str(name)] = family
    return families


@lru_cache(maxsize=8)
def load_templates(path: Path = DATA_DIR / "templates.yaml") -> dict[str, Family]:
    with path.open(encoding="utf-8") as handle:
        return parse_templates(yaml.safe_load(handle), str(path))
