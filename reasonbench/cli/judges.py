"""The judge a Hydra command names (config group ``judge``, ``conf/judge/*.yaml``), built once
for ``judge-card`` and ``evaluate`` alike."""

from __future__ import annotations

import inspect
from typing import Any

from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import MissingMandatoryValue

from reasonbench.cli.config import factory_parameters, typed_judge_args
from reasonbench.judges import Judge, JudgeError, make_judge

__all__ = ["configured_judge"]


def _chosen_judge(cfg: DictConfig) -> str:
    """The ``judge=`` option the command line chose (``openai``), as the user typed it; the
    factory's name where Hydra did not compose the config (a test calling ``run(cfg)``)."""
    if HydraConfig.initialized():
        chosen = HydraConfig.get().runtime.choices.get("judge")
        if chosen:
            return str(chosen)
    return str(cfg.judge.factory)


def configured_judge(cfg: DictConfig) -> tuple[Judge, dict[str, Any]]:
    """(judge, info recorded beside its results: factory and resolved args, typed by the
    factory's schema where it has one). A mandatory value left unset (``???``) is a
    :class:`JudgeError` that says which key to set, and for which ``judge=`` option (not the
    judge's display name, ``judge.name``)."""
    try:
        args: Any = OmegaConf.to_container(cfg.judge.args, resolve=True, throw_on_missing=True)
    except MissingMandatoryValue as exc:
        raise JudgeError(
            f"set {exc.full_key} (e.g. {exc.full_key}=...) for judge={_chosen_judge(cfg)}"
        ) from None
    factory = str(cfg.judge.factory)
    args = typed_judge_args(factory, args)
    judge = make_judge(factory, name=str(cfg.judge.name), **args)
    # recorded with every argument the judge ran with: the ones given, and the factory's own
    # defaults for the rest (conf/judge/*.yaml names only what the factory cannot know)
    # (and, where the judge resolved a default from its other arguments, what it resolved to:
    # a baseline judge's tfidf settings)
    effective = getattr(judge, "effective_args", {})
    return judge, {"factory": factory, "args": {**factory_defaults(factory), **args, **effective}}


def factory_defaults(factory: str) -> dict[str, Any]:
    """The keyword defaults of a registered judge factory's signature and of the function its
    ``**options`` go to (``name`` aside), as JSON values; {} for a factory that cannot be
    inspected."""
    return {
        p.name: list(p.default) if isinstance(p.default, tuple) else p.default
        for p in factory_parameters(factory).values()
        if p.name != "name" and p.default is not inspect.Parameter.empty
    }
