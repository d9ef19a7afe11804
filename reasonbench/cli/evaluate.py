"""``reasonbench evaluate``: any registered judge on any splits -> prediction records (Hydra).

``conf/evaluate.yaml``; the judge is the config group ``judge`` (``conf/judge/``), as for
``judge-card``::

    reasonbench evaluate judge=openai judge.name=qwen3-8b judge.args.base_url=http://127.0.0.1:8000/v1 \
        judge.args.model=Qwen/Qwen3-8B splits=[test_locked,controls_locked]
    reasonbench evaluate judge=hf_zero_shot judge.args.path=/models/Qwen3-1.7B judge.name=qwen3-zs

Writes ``<out_dir>/seed<k>.jsonl`` per run, ``evaluate.json`` and, for a served judge,
``usage.json``; resumable from the answer cache (docs/evaluate.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig

from reasonbench.cli.hydra_app import add_hydra_parsers, fail

__all__ = ["add_parser", "run"]

COMMAND = "evaluate"
HELP = "any judge (served LLM, local model, baseline) on any splits -> prediction records (Hydra)"


def _report(summary: dict[str, Any]) -> str:
    total = sum(summary["records_per_run"].values())
    ok = sum(summary["parse_ok"].values())
    runs = summary["runs"]
    lenient = summary["lenient_parse_ok"]
    extra = f"; the lenient reading accepts {sum(lenient.values()):,}" if lenient else ""
    return (
        f"{summary['method']}: {total:,} records x {runs} run(s) over {len(summary['splits'])} "
        f"split(s) -> {summary['out_dir']}; strict parse ok "
        f"{ok:,}/{total * runs:,}{extra}"
    )


def run(cfg: DictConfig) -> int:
    from reasonbench.cli.judges import configured_judge
    from reasonbench.evaluate import EvaluateSettings, Metered, evaluate
    from reasonbench.serve import ServeError

    if int(cfg.runs) < 1:  # typed by the CLI edge; the range is this command's
        return fail(COMMAND, f"runs must be >= 1, got {cfg.runs}")
    settings = EvaluateSettings(
        data_dir=Path(cfg.data_dir),
        splits=tuple(cfg.splits),
        out_dir=Path(cfg.out_dir),
        predictions_dir=Path(cfg.predictions_dir),
        runs=int(cfg.runs),
        seed=int(cfg.seed),
        cache_dir=Path(cfg.cache_dir) if cfg.cache_dir is not None else None,
        lenient=bool(cfg.lenient),
        progress=bool(cfg.progress),
        overwrite=bool(cfg.overwrite),
    )
    judge, info = configured_judge(cfg)
    try:
        summary = evaluate(judge, settings, info)
    except ServeError as exc:  # the server gave up on us: a failed run, not a bad config
        if isinstance(judge, Metered):  # what the stopped run spent, on stdout
            print(f"{judge.name}: {judge.usage.summary()}")
        return fail(COMMAND, str(exc), 1)
    print(_report(summary))
    if isinstance(judge, Metered):
        print(f"{judge.name}: {judge.usage.summary()} (usage.json)")
    return 0


def add_parser(subparsers: Any) -> None:
    add_hydra_parsers(subparsers, {COMMAND: (run, HELP)})
