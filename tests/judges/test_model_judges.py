"""Model judges on the project's tiny random-init Qwen3 (``reasonbench.models.tiny``): greedy
zero-shot answers are deterministic, sampling follows its seed, and a LoRA checkpoint loads as a
judge that sees the training prompt format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reasonbench.baselines import load_rows
from reasonbench.judges import JudgeError, make_judge
from reasonbench.models.tiny import build_tiny

TINY = {"prompt_style": "plain", "batch_size": 4, "device": "cpu", "dtype": "fp32"}


@pytest.fixture(scope="module")
def tiny(small_bench: Path, tiny_cache: Path) -> Path:
    return build_tiny(small_bench, tiny_cache)


@pytest.fixture(scope="module")
def prompts(small_bench: Path) -> list[str]:
    rows = load_rows(small_bench, with_cardinality=False)["test_locked"]
    return [r["prompt"] for r in rows if r["stratum"] == "organizational"][:3]


def test_greedy_zero_shot_is_deterministic(tiny: Path, prompts: list[str]) -> None:
    judge = make_judge(
        "hf_zero_shot", name="tiny", path=str(tiny), decoding={"max_new_tokens": 6}, **TINY
    )
    assert not judge.sampling
    first = judge.generate(prompts, seed=0)
    assert len(first) == len(prompts) and all(isinstance(a, str) for a in first)
    assert judge.generate(prompts, seed=1) == first  # greedy ignores the seed: jitter 0


def test_sampling_follows_the_seed(tiny: Path, prompts: list[str]) -> None:
    decoding = {"sample": True, "temperature": 1.5, "max_new_tokens": 8}
    judge = make_judge(
        "hf_zero_shot", name="tiny", path=str(tiny), decoding=decoding, trim=False, **TINY
    )
    assert judge.sampling
    a, b = judge.generate(prompts, seed=0), judge.generate(prompts, seed=0)
    assert a == b  # a rerun replays its seed
    assert any(judge.generate(prompts, seed=s) != a for s in (1, 2, 3))


def test_model_judge_errors(tiny: Path, tmp_path: Path) -> None:
    with pytest.raises(JudgeError, match="no chat template"):
        make_judge("hf_zero_shot", name="t", path=str(tiny), **{**TINY, "prompt_style": "chat"})
    with pytest.raises(JudgeError, match="not a model directory"):
        make_judge("hf_zero_shot", name="t", path=str(tmp_path))
    with pytest.raises(JudgeError, match="needs run_dir"):
        make_judge("lora", name="t", base_path=str(tiny))
    with pytest.raises(JudgeError, match="not a finished training run"):
        make_judge("lora", name="t", run_dir=str(tmp_path))


def untrained_adapter(tiny: Path, out: Path) -> Path:
    """A freshly initialised LoRA adapter (B = 0: the model's outputs are the backbone's)."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(tiny, local_files_only=True)
    config = LoraConfig(
        r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"
    )
    get_peft_model(model, config).save_pretrained(out)
    return out


def test_lora_checkpoint_judges_with_the_training_cue(
    tiny: Path, prompts: list[str], tmp_path: Path
) -> None:
    from reasonbench.judges.hf import CausalLMJudge, load_causal_lm
    from reasonbench.models.prompting import model_input

    run_dir = tmp_path / "run"
    untrained_adapter(tiny, run_dir / "adapter")
    summary: dict[str, Any] = {"backbone": {"path": str(tiny)}, "target": "direct_verdict"}
    (run_dir / "RUN.json").write_text(json.dumps(summary))
    options = {"decoding": {"max_new_tokens": 6}, "batch_size": 4, "device": "cpu"}
    judge = make_judge("lora", name="lora", run_dir=str(run_dir), **options)
    assert judge.target == "direct_verdict" and not judge.sampling
    model, tokenizer = load_causal_lm(tiny, device="cpu")
    plain = CausalLMJudge("base", "direct_verdict", model, tokenizer, model_input, batch_size=4)
    plain.decoding = judge.decoding  # type: ignore[attr-defined]
    assert judge.generate(prompts) == plain.generate(prompts)
