"""The vocabulary data file (entity, property and relation names with English forms).

Names double as the identifiers of the JSON world format, so they are validated like atoms
are; English ``text`` forms are used by the ``english`` template style only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from reasonbench.strata.logical.world import is_name

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "logical"
POOLS = ("entities", "properties", "relations")


@dataclass(frozen=True)
class Vocabulary:
    entities: tuple[str, ...]
    properties: tuple[str, ...]
    relations: tuple[str, ...]
    text: dict[str, str] = field(hash=False)  # name -> English surface form


def parse_vocabulary(data: Any, origin: str = "vocabulary") -> Vocabulary:
    """Validate a parsed vocabulary document; ``ValueError`` says which entry is wrong."""
    if not isinstance(data, dict) or set(data) != set(POOLS):
        raise ValueError(f"{origin}: expected exactly the keys {list(POOLS)}")
    pools: dict[str, tuple[str, ...]] = {}
    text: dict[str, str] = {}
    for pool in POOLS:
        entries = data[pool]
        if not isinstance(entries, list) or not entries:
            raise ValueError(f"{origin}: {pool} must be a non-empty list")
        names: list[str] = []
        for entry in entries:
            if not isinstance(entry, dict) or set(entry) != {"name", "text"}:
                raise ValueError(f"{origin}: {pool} entry {entry!r} must have keys name, text")
            name, surface = entry["name"], entry["text"]
            if not is_name(name):
                raise ValueError(f"{origin}: {pool} name {name!r} is not an identifier")
            if not isinstance(surface, str) or not surface.strip():
                raise ValueError(f"{origin}: {pool} entry {name!r} needs a non-empty text")
            if name in text:
                raise ValueError(f"{origin}: name {name!r} is used twice")
            text[name] = surface
            names.append(name)
        pools[pool] = tuple(names)
    return Vocabulary(pools["entities"], pools["properties"], pools["relations"], text)


@lru_cache(maxsize=8)
def load_vocabulary(path: Path = DATA_DIR / "vocabulary.yaml") -> Vocabulary:
    with path.open(encoding="utf-8") as handle:
        return parse_vocabulary(yaml.safe_load(handle), str(path))
