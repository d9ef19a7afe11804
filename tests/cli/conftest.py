"""The user's plug-in package of tests/plugin_toys, on the path for one test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from reasonbench.analysis import METRICS
from reasonbench.baselines import BASELINES
from reasonbench.certify.plugins import KINDS
from reasonbench.controls import CONTROL_KINDS
from reasonbench.judges.base import JUDGES
from reasonbench.models.backbone import BACKBONE_SOURCES
from reasonbench.strata.registry import STRATA
from reasonbench.targets import TARGETS

TOYS = Path(__file__).resolve().parents[1] / "plugin_toys"
REGISTRIES = (METRICS, KINDS, CONTROL_KINDS, JUDGES, STRATA, TARGETS, BACKBONE_SOURCES, BASELINES)


@contextmanager
def toys_on_path() -> Iterator[None]:
    """``PYTHONPATH=tests/plugin_toys/src`` for the block; afterwards the registries, the
    ConfigStore, ``sys.path`` and ``sys.modules`` are as before (a later test must not see the
    toys)."""
    from hydra.core.config_store import ConfigStore

    before = [set(r.names()) for r in REGISTRIES]
    store = ConfigStore.instance().repo
    benchmarks = set(store.get("benchmark", {}))
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(TOYS / "src"))
        try:
            yield
        finally:
            for registry, names in zip(REGISTRIES, before, strict=True):
                for name in set(registry.names()) - names:
                    registry.unregister(name)
            for name in set(store.get("benchmark", {})) - benchmarks:
                del store["benchmark"][name]
            for module in [m for m in sys.modules if m.startswith("rb_toys")]:
                del sys.modules[module]


@pytest.fixture
def plugin_toys() -> Iterator[None]:
    """:func:`toys_on_path` for one test."""
    with toys_on_path():
        yield
