"""Named stratum factories; imported lazily so a stratum's data loads only when used."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from reasonbench.strata.base import Stratum

FACTORIES: dict[str, str] = {
    "organizational": "reasonbench.strata.organizational:OrganizationalStratum",
    "logical": "reasonbench.strata.logical:LogicalStratum",
    "agentic": "reasonbench.strata.agentic:AgenticStratum",
}


def load_stratum(name: str) -> Stratum:
    try:
        module_name, class_name = FACTORIES[name].split(":")
    except KeyError:
        raise KeyError(f"unknown stratum {name!r}; known: {sorted(FACTORIES)}") from None
    factory = getattr(importlib.import_module(module_name), class_name)
    stratum: Stratum = factory()
    return stratum


def load_strata(names: Sequence[str]) -> dict[str, Stratum]:
    return {name: load_stratum(name) for name in names}
