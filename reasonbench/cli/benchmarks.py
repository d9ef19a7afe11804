"""What a stratum plug-in needs to offer a benchmark that builds it (docs/extending.md, "A new
stratum"): a shipped benchmark config as a plain mapping, the same config with the new stratum in
the place of others, and that config stored under a name, so ``reasonbench generate
plugins=[my.module] benchmark=<name>`` builds it. The plug-in imports nothing but ``reasonbench``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from omegaconf import OmegaConf

__all__ = ["benchmark_config", "store_benchmark", "with_stratum"]


def benchmark_config(name: str) -> dict[str, Any]:
    """The shipped benchmark ``conf/benchmark/<name>.yaml``, composed (its defaults applied) and
    resolved into plain dicts and lists."""
    from reasonbench.cli.config import compose

    node = compose("generate", [f"benchmark={name}"]).benchmark
    data = OmegaConf.to_container(node, resolve=True)
    assert isinstance(data, dict)
    return {str(k): v for k, v in data.items()}


def with_stratum(
    config: Mapping[str, Any],
    stratum: str,
    *,
    like: str,
    held_out_operators: Sequence[str],
    held_out_family: str,
    ambiguity_weight: float = 1.0,
) -> dict[str, Any]:
    """``config`` with ``stratum`` as its only stratum, taking ``like``'s units and cases in
    every split; the shifts a stratum must name itself (its operators and template family held
    out of training) are arguments, since only its author knows them."""
    out = OmegaConf.to_container(OmegaConf.create(dict(config)))  # a deep copy
    assert isinstance(out, dict)
    if like not in out["strata"]:
        raise ValueError(f"like={like!r} is not a stratum of the config: {out['strata']}")
    out["strata"] = [stratum]
    out["splits"] = {split: {stratum: sizes[like]} for split, sizes in out["splits"].items()}
    out["quotas"]["ambiguity_weight"] = {stratum: ambiguity_weight}
    out["shifts"]["held_out_operators"] = {stratum: list(held_out_operators)}
    out["shifts"]["held_out_family"] = {stratum: held_out_family}
    return {str(k): v for k, v in out.items()}


def store_benchmark(name: str, config: Mapping[str, Any]) -> None:
    """Offer ``config`` as ``benchmark=<name>`` to every command (Hydra's ConfigStore); its
    ``name`` key is set to ``name``, the name the build's manifest carries."""
    from hydra.core.config_store import ConfigStore

    ConfigStore.instance().store(group="benchmark", name=name, node={**config, "name": name})
