"""The protocol's dress rehearsal on CPU: every run of the paper protocol, end to end, in minutes.

``REHEARSAL=1 bash scripts/reproduce_paper.sh`` (or ``python -m reasonbench.rehearsal``)
generates ``benchmark=small``, then runs the sweeps of :func:`reasonbench.train.protocol.protocol`
with both model roles mapped to the tiny model (``conf/model/tiny_1.7b.yaml``,
``tiny_0.6b.yaml``): all 4 targets x 5 seeds for both roles, permutation augmentation x 3 seeds,
both arms of the cardinality experiment x 5 seeds — as real Hydra sweeps (``reasonbench train -m``
and ``reasonbench predict -m``, through the basic launcher or ``hydra/launcher=submitit_local``).
Then baselines, analyze and tables, with the paper's role map (``conf/methods/paper.yaml``, read
here, never copied) rewritten to the stand-ins' method names. It fails when any run left no
output or any table cell reads "not run".

Scales: ``full`` is the protocol (56 runs, a few optimizer steps each, short decoding: the tiny
model never stops on its own); ``small`` keeps one seed per sweep, one step and 4 new tokens (the
test suite's rehearsal). The commands run in this process, exactly as typed on the command line
(``reasonbench.cli.main``), so the rehearsal exercises the user-facing path, config validation
included.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from reasonbench.models.trained import RUN_FILE
from reasonbench.train.protocol import Run, Sweep, protocol

__all__ = [
    "SCALES",
    "STAND_INS",
    "RehearsalError",
    "Scale",
    "method_of",
    "paper_roles",
    "rehearsal_roles",
    "rehearse",
    "role_overrides",
]

CONF = Path(__file__).resolve().parents[1] / "conf"
STAND_INS = {"qwen3_1.7b": "tiny_1.7b", "qwen3_0.6b": "tiny_0.6b"}  # conf/model/tiny_*.yaml
NOT_RUN = "not run"  # what a table cell says for a method without predictions


class RehearsalError(RuntimeError):
    """A step of the rehearsal failed, or a table still has a "not run" cell."""


@dataclass(frozen=True)
class Scale:
    seeds: int | None  # None: the protocol's seeds; n: the first n of each sweep
    steps: int  # optimizer steps per run
    batch_size: int  # examples per step
    max_new_tokens: int  # decoding budget of every prediction
    replicates: int  # analyze's bootstrap replicates


SCALES = {
    "full": Scale(seeds=None, steps=3, batch_size=8, max_new_tokens=8, replicates=200),
    "small": Scale(seeds=1, steps=2, batch_size=4, max_new_tokens=4, replicates=20),
}


Role = str | dict[str, Any]  # a method name, or {method, model, ...} (the analysis' role map)


def paper_roles() -> dict[str, Role]:
    """``conf/methods/paper.yaml``: role -> its method (a name, or a mapping with ``method``)."""
    from omegaconf import OmegaConf

    roles: Any = OmegaConf.to_container(OmegaConf.load(CONF / "methods" / "paper.yaml"))
    return {str(k): v if isinstance(v, dict) else str(v) for k, v in roles.items()}


def method_of(role: Role) -> str:
    return role if isinstance(role, str) else str(role["method"])


def _stand_in(method: str, stand_ins: Mapping[str, str]) -> str:
    model = next((m for m in stand_ins if method.startswith(f"{m}-")), None)
    return method if model is None else stand_ins[model] + method[len(model) :]


def rehearsal_roles(roles: Mapping[str, Role], stand_ins: Mapping[str, str]) -> dict[str, Role]:
    """Each role's method with its model replaced by the stand-in (a method is named
    ``<model>-<target><data suffix>``; a role's ``model`` field too); methods of no mapped model
    (baselines) stay."""
    out: dict[str, Role] = {}
    for name, role in roles.items():
        if isinstance(role, str):
            out[name] = _stand_in(role, stand_ins)
            continue
        entry = {**role, "method": _stand_in(str(role["method"]), stand_ins)}
        if role.get("model") in stand_ins:
            entry["model"] = stand_ins[str(role["model"])]
        out[name] = entry
    return out


def role_overrides(roles: Mapping[str, Role]) -> list[str]:
    """The role map as analyze/tables overrides (``methods.<role>=`` or ``methods.<role>.<key>=``)."""
    out = []
    for name, role in sorted(roles.items()):
        if isinstance(role, str):
            out.append(f"methods.{name}={role}")
        else:
            out += [f"methods.{name}.{k}={role[k]}" for k in ("method", "model") if role.get(k)]
    return out


def sweeps(scale: Scale, split: bool) -> list[Sweep]:
    """The protocol's sweeps with the stand-ins, one per model (the model's own keys, such as
    ``model.cache_dir``, can be set only where the model is fixed: Hydra composes a multirun's
    base config without its sweep overrides); ``split``: one per model x target, for a launcher
    that starts every job of a sweep at once (then at most 5)."""
    mapped = [s.mapped(STAND_INS, scale.seeds) for s in protocol()]
    return [
        Sweep((m,), targets, s.data, s.seeds)
        for s in mapped
        for m in s.models
        for targets in ([(t,) for t in s.targets] if split else [s.targets])
    ]


class Rehearsal:
    def __init__(
        self, root: Path, scale: Scale, launcher: str | None, quiet: bool, data: Path | None
    ) -> None:
        self.root, self.scale, self.launcher, self.quiet = root, scale, launcher, quiet
        self.data = data or root / "rb-small"
        self.seconds: dict[str, float] = {}

    def say(self, text: str) -> None:
        if not self.quiet:
            print(f"== rehearsal: {text}", flush=True)

    def command(self, argv: Sequence[str]) -> None:
        from reasonbench.cli.main import main

        if main(list(argv)) != 0:
            raise RehearsalError(f"reasonbench {' '.join(argv)}: failed (its error is above)")

    def timed(self, phase: str, argv: Sequence[str]) -> None:
        started = time.perf_counter()
        self.command(argv)
        self.seconds[phase] = self.seconds.get(phase, 0.0) + time.perf_counter() - started

    def common(self) -> list[str]:
        return [
            f"data_dir={self.data}", f"model.cache_dir={self.root / 'cache' / 'tiny'}",
            "progress=false",
        ]  # fmt: skip

    def train_overrides(self) -> list[str]:
        s = self.scale
        return [
            *self.common(), f"out_dir={self.root}/runs/${{method}}/seed${{seed}}",
            f"optim.max_steps={s.steps}", f"optim.batch_size={s.batch_size}",
            f"save_every={s.steps}", "log_every=1",
        ]  # fmt: skip

    def predict_overrides(self) -> list[str]:
        return [
            *self.common(), f"run_dir={self.root}/runs/${{method}}/seed${{seed}}",
            f"predictions_dir={self.root / 'predictions'}",
            f"cache_dir={self.root / 'cache' / 'predict'}",
            f"max_new_tokens={self.scale.max_new_tokens}", "model.predict_batch_size=64",
        ]  # fmt: skip

    def sweep(self, command: str, sweep: Sweep, n: int, total: int) -> None:
        runs = sweep.runs()
        self.say(f"{command} sweep {n}/{total}: {' '.join(sweep.overrides())} ({len(runs)} runs)")
        hydra = [f"hydra.sweep.dir={self.root}/multirun/{command}-{n}"]
        if self.launcher:
            hydra.append(f"hydra/launcher={self.launcher}")
        extra = self.train_overrides() if command == "train" else self.predict_overrides()
        self.timed(command, [command, "-m", *sweep.overrides(), *extra, *hydra])
        missing = [str(p) for p in self.outputs(command, runs) if not p.is_file()]
        if missing:
            raise RehearsalError(
                f"{command} sweep {n}: {len(missing)} run(s) left no output, e.g. {missing[0]}"
                + (f" (job logs under {self.root}/multirun)" if self.launcher else "")
            )

    def outputs(self, command: str, runs: Sequence[Run]) -> list[Path]:
        from reasonbench.cli.config import compose

        paths = []
        extra = self.train_overrides() if command == "train" else self.predict_overrides()
        for run in runs:
            cfg = compose(command, overrides=[*run.overrides().split(), *extra])
            paths.append(Path(cfg.out_dir) / RUN_FILE if command == "train" else Path(cfg.out))
        return paths

    def run(self, roles: Mapping[str, Role]) -> dict[str, Any]:
        started = time.perf_counter()
        if not (self.data / "MANIFEST.json").is_file():
            self.say("generate benchmark=small")
            self.timed("generate", ["generate", "benchmark=small", f"out_dir={self.data}",
                                    "progress=false", "workers=1"])  # fmt: skip
        plan = sweeps(self.scale, split=self.launcher is not None)
        for command in ("train", "predict"):
            for n, sweep in enumerate(plan, 1):
                self.sweep(command, sweep, n, len(plan))
        preds, metrics, tables = (self.root / n for n in ("predictions", "metrics.json", "tables"))
        assigned = role_overrides(roles)
        self.say("baselines, analyze, tables")
        self.timed("baselines", ["baselines", f"data_dir={self.data}", f"out_dir={preds}"])
        self.timed("analyze", ["analyze", f"data_dir={self.data}", f"predictions_dir={preds}",
                               f"out={metrics}", f"replicates={self.scale.replicates}",
                               *assigned, *CPU_STAND_INS])  # fmt: skip
        self.timed("tables", ["tables", f"data_dir={self.data}", f"metrics={metrics}",
                              f"out_dir={tables}", *assigned])  # fmt: skip
        cells = not_run_cells(tables)
        summary = {
            "scale": asdict(self.scale),
            "launcher": self.launcher or "basic",
            "runs": sum(len(s.runs()) for s in plan),
            "roles": dict(roles),
            "seconds": {k: round(v, 1) for k, v in self.seconds.items()},
            "wall_seconds": round(time.perf_counter() - started, 1),
            "not_run_cells": cells,
            "tables": str(tables),
        }
        (self.root / "REHEARSAL.json").write_text(json.dumps(summary, indent=2) + "\n")
        return summary


# the main job's CPU comparisons (analyze's cpu_models) asked of the stand-in runs of the
# same targets: the rehearsal exercises them too, and no cell of theirs reads "not run"
CPU_STAND_INS = (
    "cpu_models.cube=tiny_1.7b-cube",
    "cpu_models.direct_receipt=tiny_1.7b-direct_receipt",
)


def not_run_cells(tables: Path) -> list[str]:
    """``file:line`` of every Markdown/CSV table line with a "not run" cell."""
    return [
        f"{path.relative_to(tables)}:{i}"
        for path in sorted(tables.rglob("*"))
        if path.suffix in (".md", ".csv")
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if NOT_RUN in line
    ]


def rehearse(
    root: Path,
    scale: Scale = SCALES["full"],
    launcher: str | None = None,
    quiet: bool = False,
    data: Path | None = None,
) -> dict[str, Any]:
    """Run the rehearsal under ``root`` (on ``data``, a generated ``benchmark=small``, if given;
    else it is generated under ``root``); raises :class:`RehearsalError` on a missing output or a
    "not run" table cell, else returns its summary (also written to ``root/REHEARSAL.json``)."""
    root.mkdir(parents=True, exist_ok=True)
    rehearsal = Rehearsal(root, scale, launcher, quiet, data)
    summary = rehearsal.run(rehearsal_roles(paper_roles(), STAND_INS))
    if summary["not_run_cells"]:
        cells = summary["not_run_cells"]
        raise RehearsalError(
            f"{len(cells)} table line(s) under {summary['tables']} read {NOT_RUN!r}, "
            f"e.g. {', '.join(cells[:3])}"
        )
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--root", default="runs/rehearsal", help="where everything goes")
    parser.add_argument("--scale", choices=sorted(SCALES), default="full")
    parser.add_argument(
        "--launcher", help="a Hydra launcher for the sweeps, e.g. submitit_local (default: basic)"
    )
    parser.add_argument("--data-dir", help="an existing benchmark=small (default: generate one)")
    args = parser.parse_args(argv)
    data = Path(args.data_dir) if args.data_dir else None
    try:
        summary = rehearse(Path(args.root), SCALES[args.scale], args.launcher, data=data)
    except RehearsalError as exc:
        print(f"reasonbench rehearsal: error: {exc}", file=sys.stderr, flush=True)
        return 1
    print(
        f"rehearsal ({args.scale}, {summary['runs']} runs, {summary['launcher']} launcher): "
        f"{summary['wall_seconds']:.0f} s, no table cell reads {NOT_RUN!r} -> {summary['tables']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
