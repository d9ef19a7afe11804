"""A trained LoRA checkpoint as a judge: the backbone plus a PEFT adapter, both local.

The model sees exactly what it was trained on: the benchmark prompt followed by the training
answer cue (:func:`reasonbench.models.prompting.model_input`), no instruction — it learned the
target format. Decoding is greedy by default, as in the paper's protocol, and stops at the
target's decoding budget (``Target.max_new_tokens``, the length ``reasonbench predict`` decodes
to: 256 tokens for ``rationale_receipt``) unless ``decoding.max_new_tokens`` is given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reasonbench.judges.base import Decoding, JudgeError, check_target, register_judge
from reasonbench.judges.hf import CausalLMJudge, judge_kernels, load_causal_lm, model_identity
from reasonbench.models.kernels import PORTABLE
from reasonbench.targets import get_target

__all__ = ["lora_judge"]


def _from_run(run_dir: Path) -> tuple[str, str, str, str]:
    """(backbone path, adapter path, target, tuning) of a finished ``reasonbench train`` run."""
    from reasonbench.models.trained import RunFileError, RunNotFinished, TrainedRun

    try:
        run = TrainedRun.read(run_dir)
        return str(run.backbone_path), str(run.adapter_dir), run.target, run.tuning
    except RunNotFinished:
        raise JudgeError(f"{run_dir} is not a finished training run (no RUN.json)") from None
    except RunFileError as exc:
        raise JudgeError(str(exc)) from None


@register_judge("lora")
def lora_judge(
    name: str,
    run_dir: str | None = None,
    base_path: str | None = None,
    adapter_path: str | None = None,
    target: str | None = None,
    decoding: dict[str, Any] | None = None,
    batch_size: int = 8,
    dtype: str = "fp32",
    device: str = "auto",
    merge: bool = True,
    tuning: str | None = None,
    threads: int = 1,
    cpu_kernels: str = PORTABLE,
) -> CausalLMJudge:
    """A finished training run (``run_dir``: backbone, adapter and target from its RUN.json), or
    explicit ``base_path`` (backbone directory), ``adapter_path`` (PEFT adapter) and ``target``;
    explicit values override the run's. ``decoding.max_new_tokens`` unset or null: the
    target's decoding budget (``reasonbench.targets``), so a long target such
    as ``rationale_receipt`` is not cut short. A run trained with ``model.tuning=full`` is
    judged the same way: its ``adapter/`` is then the whole model (``tuning`` from the run, or
    ``lora`` when only paths are given). ``threads``: torch CPU threads while decoding;
    ``cpu_kernels``: :mod:`reasonbench.models.kernels`."""
    from reasonbench.models.prompting import model_input
    from reasonbench.models.tuning import TUNINGS, weights_hash

    kernels = judge_kernels(cpu_kernels)

    if run_dir is not None:
        run_base, run_adapter, run_target, run_tuning = _from_run(Path(run_dir))
        base_path, adapter_path = base_path or run_base, adapter_path or run_adapter
        target, tuning = target or run_target, tuning or run_tuning
    if base_path is None or adapter_path is None or target is None:
        raise JudgeError("a LoRA judge needs run_dir, or base_path, adapter_path and target")
    if (tuning or "lora") not in TUNINGS:
        raise JudgeError(TUNINGS.unknown(str(tuning)))
    kind = TUNINGS.get(tuning or "lora")
    weights = Path(adapter_path)
    try:
        kind.check(weights)
    except FileNotFoundError as exc:
        raise JudgeError(str(exc)) from None
    options = dict(decoding or {})
    if options.get("max_new_tokens") is None:  # the budget `reasonbench predict` decodes to
        options["max_new_tokens"] = get_target(check_target(target)).max_new_tokens
    source = kind.model_dir(Path(base_path), weights)
    model, tokenizer = load_causal_lm(source, dtype, device)
    model = kind.adapt(model, weights, merge)  # merged: same outputs, faster
    identity = {
        **model_identity("lora", base_path, dtype, device),
        "adapter": weights_hash(kind, weights),
        "merged": merge,
        "cpu_kernels": kernels,
    }
    return CausalLMJudge(
        name,
        check_target(target),
        model,
        tokenizer,
        model_input,
        Decoding(**options),
        batch_size,
        identity=identity,
        threads=threads,
    )
