"""The judge a Hydra command names (config group ``judge``, ``conf/judge/*.yaml``), built once
for ``judge-card`` and ``evaluate`` alike."""

from __future__ import annotations

from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import MissingMandatoryValue

from reasonbench.judges import Judge, JudgeError, make_judge

__all__ = ["configured_judge"]


def configured_judge(cfg: DictConfig) -> tuple[Judge, dict[str, Any]]:
    """(judge, info recorded beside its results: factory and resolved args). A mandatory value
    left unset (``???``) is a :class:`JudgeError` that says which key to set."""
    try:
        args: Any = OmegaConf.to_container(cfg.judge.args, resolve=True, throw_on_missing=True)
    except MissingMandatoryValue as exc:
        raise JudgeError(
            f"set {exc.full_key} (e.g. {exc.full_key}=...) for judge={cfg.judge.name}"
        ) from None
    judge = make_judge(str(cfg.judge.factory), name=str(cfg.judge.name), **args)
    return judge, {"factory": str(cfg.judge.factory), "args": args}
