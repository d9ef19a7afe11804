"""Named strata; each entry is a lazy ``module:Class`` reference, so a stratum's data loads only
when it is used. A new stratum registers one more entry (``STRATA.register_lazy`` or
``STRATA.register(name, factory)``); nothing else in assembly or the audit names strata."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reasonbench.registry import Registry
from reasonbench.strata.base import Stratum

__all__ = ["STRATA", "load_strata", "load_stratum"]

STRATA: Registry[Callable[[], Stratum]] = Registry("stratum")
STRATA.register_lazy("organizational", "reasonbench.strata.organizational:OrganizationalStratum")
STRATA.register_lazy("logical", "reasonbench.strata.logical:LogicalStratum")
STRATA.register_lazy("agentic", "reasonbench.strata.agentic:AgenticStratum")


def load_stratum(name: str) -> Stratum:
    """A fresh stratum object of the registered factory ``name``."""
    return STRATA.get(name)()


def load_strata(names: Sequence[str]) -> dict[str, Stratum]:
    return {name: load_stratum(name) for name in names}
