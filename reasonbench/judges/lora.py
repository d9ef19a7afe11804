"""A trained LoRA checkpoint as a judge: the backbone plus a PEFT adapter, both local.

The model sees exactly what it was trained on: the benchmark prompt followed by the training
answer cue (:func:`reasonbench.models.prompting.model_input`), no instruction — it learned the
target format. Decoding is greedy by default, as in the paper's protocol, and stops at the
target's decoding budget (``Target.max_new_tokens``, the length ``reasonbench predict`` decodes
to: 256 tokens for ``rationale_receipt``) unless ``decoding.max_new_tokens`` is given.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reasonbench.judges.base import Decoding, JudgeError, check_target, register_judge
from reasonbench.judges.hf import CausalLMJudge, load_causal_lm, model_identity
from reasonbench.targets import get_target

__all__ = ["lora_judge"]


def _from_run(run_dir: Path) -> tuple[str, str, str]:
    """(backbone path, adapter path, target) of a finished ``reasonbench train`` run."""
    summary = run_dir / "RUN.json"
    if not summary.is_file():
        raise JudgeError(f"{run_dir} is not a finished training run ({summary} missing)")
    run = json.loads(summary.read_text())
    return str(run["backbone"]["path"]), str(run_dir / "adapter"), str(run["target"])


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
) -> CausalLMJudge:
    """A finished training run (``run_dir``: backbone, adapter and target from its RUN.json), or
    explicit ``base_path`` (backbone directory), ``adapter_path`` (PEFT adapter) and ``target``;
    explicit values override the run's. ``decoding.max_new_tokens`` unset or null: the
    target's decoding budget (``reasonbench.targets``), so a long target such
    as ``rationale_receipt`` is not cut short."""
    from peft import PeftModel

    from reasonbench.models.prompting import model_input
    from reasonbench.train.lora import adapter_hash

    if run_dir is not None:
        run_base, run_adapter, run_target = _from_run(Path(run_dir))
        base_path, adapter_path = base_path or run_base, adapter_path or run_adapter
        target = target or run_target
    if base_path is None or adapter_path is None or target is None:
        raise JudgeError("a LoRA judge needs run_dir, or base_path, adapter_path and target")
    if not (Path(adapter_path) / "adapter_config.json").is_file():
        raise JudgeError(f"{adapter_path} is not a LoRA adapter (no adapter_config.json)")
    options = dict(decoding or {})
    if options.get("max_new_tokens") is None:  # the budget `reasonbench predict` decodes to
        options["max_new_tokens"] = get_target(check_target(target)).max_new_tokens
    model, tokenizer = load_causal_lm(base_path, dtype, device)
    model = PeftModel.from_pretrained(model, adapter_path, is_trainable=False)
    if merge:  # same outputs, faster decoding
        model = model.merge_and_unload()
    identity = {
        **model_identity("lora", base_path, dtype, device),
        "adapter": adapter_hash(Path(adapter_path)),
        "merged": merge,
    }
    return CausalLMJudge(
        name,
        check_target(target),
        model.eval(),
        tokenizer,
        model_input,
        Decoding(**options),
        batch_size,
        identity=identity,
    )
