"""``reasonbench judge-card``: audit one judge — policy invariance beside accuracy — as a card.

A Hydra app (``conf/judge_card.yaml``); the judge is the config group ``judge`` (``conf/judge/``):
``reasonbench judge-card judge=tfidf data_dir=/tmp/rb``, or several with ``--multirun
judge=majority,tfidf``. Writes ``judge_card.{md,html,json}``, ``figures/`` and, with
``write_answers``, the stress suite and every answer, under ``out_dir``. Answers come through the
answering path of ``reasonbench evaluate`` (local model judges cache under ``cache_dir``, a served
judge in its own ``judge.args.cache_dir``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

from reasonbench.cli.hydra_app import add_hydra_parsers, fail
from reasonbench.cli.keys import typed_settings

__all__ = ["add_parser", "run"]

COMMAND = "judge-card"
HELP = "audit a judge: policy-invariance stress test + accuracy -> Judge Card (md/html) (Hydra)"


def run(cfg: DictConfig) -> int:
    from reasonbench.cli.judges import configured_judge
    from reasonbench.evaluate.run import Metered
    from reasonbench.invariance.suite import SuiteError
    from reasonbench.judge_card import CardSettings, evaluate_judge, write_card
    from reasonbench.judges import JudgeError
    from reasonbench.serve import ServeError
    from reasonbench.strata.organizational.rewrites.certify import CertificationError

    data: Any = OmegaConf.to_container(cfg, resolve=True)
    settings = typed_settings(CardSettings, data)
    cache_dir = Path(cfg.cache_dir) if cfg.cache_dir is not None else None
    try:
        judge, info = configured_judge(cfg)
        card, suite, answers = evaluate_judge(
            judge, Path(cfg.data_dir), settings, info, cache_dir, show_progress=bool(cfg.progress)
        )
    except (JudgeError, ServeError, SuiteError, CertificationError, FileNotFoundError) as exc:
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
    if isinstance(judge, Metered):
        print(f"{judge.name}: {judge.usage.summary()}")
    return 0


def add_parser(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, {COMMAND: (run, HELP)})
