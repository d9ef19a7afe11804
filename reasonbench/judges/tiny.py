"""The project's tiny model (random-init Qwen3 with a tokenizer trained on the benchmark's train
split, :func:`reasonbench.models.tiny.build_tiny`) as a zero-shot judge, for CPU runs and CI.

It answers gibberish — every answer is a parse failure — which is exactly what exercises the
card's parse-failure handling end to end; with ``decoding.sample: true`` it is a sampling judge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reasonbench.judges.base import register_judge
from reasonbench.judges.hf import CausalLMJudge, hf_zero_shot, judge_kernels
from reasonbench.models.kernels import PORTABLE
from reasonbench.models.tiny import CACHE_DIR

__all__ = ["tiny_zero_shot"]


@register_judge("tiny_zero_shot")
def tiny_zero_shot(
    name: str,
    data_dir: str,
    cache_dir: str = CACHE_DIR,
    cpu_kernels: str = PORTABLE,
    **options: Any,
) -> CausalLMJudge:
    """Builds (once, cached) the tiny model of ``data_dir``, then judges zero-shot with it; the
    kernels apply before the build, whose random initialisation runs them too."""
    from reasonbench.models.tiny import build_tiny

    judge_kernels(cpu_kernels)
    path = build_tiny(Path(data_dir), Path(cache_dir))
    return hf_zero_shot(name, str(path), cpu_kernels=cpu_kernels, **options)


# where **options go: the arguments tiny_zero_shot takes beyond its own are hf_zero_shot's (the
# CLI lists and checks judge.args.* from both signatures)
setattr(tiny_zero_shot, "forwards", hf_zero_shot)  # noqa: B010
