"""``reasonbench judge-card``: audit one judge — policy invariance beside accuracy — as a card.

A Hydra app (``conf/judge_card.yaml``); the judge is the config group ``judge`` (``conf/judge/``):
``reasonbench judge-card judge=tfidf data_dir=/tmp/rb``, or several with ``--multirun
judge=majority,tfidf``. Writes ``judge_card.{md,html,json}``, ``figures/`` and, with
``write_answers``, the stress suite and every answer, under ``out_dir``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import MissingMandatoryValue

from reasonbench.cli.hydra_app import add_hydra_parsers, fail

__all__ = ["add_parser", "run"]

COMMAND = "judge-card"
HELP = "audit a judge: policy-invariance stress test + accuracy -> Judge Card (md/html) (Hydra)"


def run(cfg: DictConfig) -> int:
    from reasonbench.invariance.metrics import PisConfig
    from reasonbench.invariance.suite import SuiteError
    from reasonbench.judges import JudgeError, make_judge
    from reasonbench.reports.judge_card import CardSettings, evaluate_judge, write_card
    from reasonbench.strata.organizational.rewrites.certify import CertificationError

    try:
        args: Any = OmegaConf.to_container(cfg.judge.args, resolve=True, throw_on_missing=True)
    except MissingMandatoryValue as exc:
        return fail(
            COMMAND, f"set {exc.full_key} (e.g. {exc.full_key}=/path) for judge={cfg.judge.name}"
        )
    pis: Any = OmegaConf.to_container(cfg.pis, resolve=True)
    settings = CardSettings(
        splits=tuple(cfg.splits),
        max_items=cfg.max_items,
        seed=int(cfg.seed),
        reruns=int(cfg.reruns),
        margin=int(cfg.margin),
        replicates=int(cfg.replicates),
        controls=bool(cfg.controls),
        pis=PisConfig(**pis),
    )
    try:
        judge = make_judge(str(cfg.judge.factory), name=str(cfg.judge.name), **args)
        info = {"factory": str(cfg.judge.factory), "args": args}
        card, suite, answers = evaluate_judge(judge, Path(cfg.data_dir), settings, info)
    except (JudgeError, SuiteError, CertificationError, FileNotFoundError) as exc:
        return fail(COMMAND, str(exc))
    keep = bool(cfg.write_answers)
    written = write_card(
        card,
        Path(cfg.out_dir),
        suite if keep else None,
        answers if keep else None,
        bool(cfg.overwrite),
    )
    pis_value = "undefined" if card.pis is None else f"{card.pis:.2f}"
    print(f"{judge.name}: PIS {pis_value} on {card.data['items']} items -> {written['html']}")
    return 0


def add_parser(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, {COMMAND: (run, HELP)})
