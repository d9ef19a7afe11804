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
from reasonbench.targets import get_target

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


def trained_adapter(tiny: Path, out: Path) -> Path:
    """A LoRA adapter with non-zero B matrices: unlike a fresh one (B = 0), it changes the
    backbone's outputs, so a judge that dropped it would be caught. Every LoRA matrix is drawn
    from one seeded generator: peft draws A from the global RNG, whose state depends on the tests
    this process ran before (under pytest-xdist another order gave an adapter whose answers were
    as empty as the plain model's)."""
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(tiny, local_files_only=True)
    config = LoraConfig(
        r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"], task_type="CAUSAL_LM"
    )
    peft_model = get_peft_model(model, config)
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, p in peft_model.named_parameters():
            if "lora_A" in name or "lora_B" in name:
                p.copy_(torch.randn(p.shape, generator=generator) * 0.5)
    peft_model.save_pretrained(out)
    return out


def fake_run(tiny: Path, run_dir: Path, target: str, max_new_tokens: int | None = None) -> Path:
    """A finished run's files as a LoRA judge reads them (RUN.json, adapter, config.yaml)."""
    from omegaconf import OmegaConf

    trained_adapter(tiny, run_dir / "adapter")
    summary: dict[str, Any] = {"backbone": {"path": str(tiny)}, "target": target}
    (run_dir / "RUN.json").write_text(json.dumps(summary))
    if max_new_tokens is not None:
        resolved = {"target": {"name": target, "max_new_tokens": max_new_tokens}, "seed": 0}
        OmegaConf.save(OmegaConf.create(resolved), run_dir / "config.yaml")
    return run_dir


def test_lora_checkpoint_judges_with_the_training_cue(
    tiny: Path, prompts: list[str], tmp_path: Path
) -> None:
    import torch
    from peft import PeftModel

    from reasonbench.judges.hf import CausalLMJudge, load_causal_lm
    from reasonbench.models.prompting import model_input

    run_dir = fake_run(tiny, tmp_path / "run", "direct_verdict", 8)
    options = {"decoding": {"max_new_tokens": 6}, "batch_size": 4, "device": "cpu"}
    judge = make_judge("lora", name="lora", run_dir=str(run_dir), **options)
    assert judge.target == "direct_verdict" and not judge.sampling
    assert judge.decoding.max_new_tokens == 6  # type: ignore[attr-defined]  # explicit wins
    model, tokenizer = load_causal_lm(tiny, device="cpu")
    plain = CausalLMJudge("base", "direct_verdict", model, tokenizer, model_input, batch_size=4)
    plain.decoding = judge.decoding  # type: ignore[attr-defined]
    # the reference: the same backbone with the adapter applied by hand (not merged)
    adapted, _ = load_causal_lm(tiny, device="cpu")
    adapted = PeftModel.from_pretrained(adapted, run_dir / "adapter").eval()
    reference = CausalLMJudge(
        "ref", "direct_verdict", adapted, tokenizer, model_input, batch_size=4
    )
    reference.decoding = judge.decoding  # type: ignore[attr-defined]
    inputs = tokenizer(
        [model_input(p) for p in prompts], return_tensors="pt", padding=True,
        add_special_tokens=False,
    )  # fmt: skip
    with torch.no_grad():
        logits = judge.model(**inputs).logits  # type: ignore[attr-defined]
        torch.testing.assert_close(logits, adapted(**inputs).logits, rtol=1e-4, atol=1e-4)
        assert not torch.allclose(logits, model(**inputs).logits, atol=1e-2)  # adapter applied
    answers = judge.generate(prompts)
    assert answers == reference.generate(prompts)
    assert answers != plain.generate(prompts)


def test_lora_judge_decodes_to_the_run_target_length(tiny: Path, tmp_path: Path) -> None:
    from omegaconf import OmegaConf

    run_dir = fake_run(tiny, tmp_path / "run", "rationale_receipt", 256)
    conf = Path(__file__).resolve().parents[2] / "conf" / "judge" / "lora.yaml"
    args: Any = OmegaConf.to_container(OmegaConf.load(conf).args)
    args |= {"run_dir": str(run_dir), "device": "cpu", "dtype": "fp32"}
    assert "decoding" not in args  # the config leaves it to the factory, which leaves it to the run
    judge: Any = make_judge("lora", name="lora", **args)
    assert judge.decoding.max_new_tokens == 256  # as trained and as `predict` decodes
    judge = make_judge("lora", name="lora", run_dir=str(run_dir), device="cpu")
    assert judge.decoding.max_new_tokens == 256  # no decoding given at all
    judge = make_judge(
        "lora", name="lora", run_dir=str(run_dir), device="cpu", decoding={"max_new_tokens": 300}
    )
    assert judge.decoding.max_new_tokens == 300  # an explicit value overrides
    explicit = {"base_path": str(tiny), "adapter_path": str(run_dir / "adapter")}
    judge = make_judge("lora", name="lora", target="direct_receipt", device="cpu", **explicit)
    assert judge.decoding.max_new_tokens == get_target("direct_receipt").max_new_tokens == 32
    # the budget is the target's, not a number the run's config.yaml must carry
    no_config = fake_run(tiny, tmp_path / "old", "rationale_receipt")
    judge = make_judge("lora", name="lora", run_dir=str(no_config), device="cpu")
    assert judge.decoding.max_new_tokens == get_target("rationale_receipt").max_new_tokens


def test_greedy_answers_are_transformers_greedy_search(tiny: Path, prompts: list[str]) -> None:
    """The judge decodes through the project's decoder; its greedy answers are the ones
    ``model.generate`` gives (left padding, the same end-of-sequence), so switching the stack
    changed no answer."""
    import torch

    judge: Any = make_judge(
        "hf_zero_shot", name="tiny", path=str(tiny), decoding={"max_new_tokens": 6},
        trim=False, **TINY,
    )  # fmt: skip
    tok = judge.tokenizer
    inputs = tok([judge.render(p) for p in prompts], return_tensors="pt", padding=True,
                 add_special_tokens=False)  # fmt: skip
    with torch.no_grad():
        ids = judge.model.generate(
            **inputs, max_new_tokens=6, do_sample=False, pad_token_id=tok.pad_token_id,
            eos_token_id=tok.eos_token_id, temperature=None, top_p=None, top_k=None,
        )  # fmt: skip
    expected = tok.batch_decode(ids[:, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
    assert judge.generate(prompts) == expected


def test_a_one_token_nucleus_samples_the_greedy_answer(tiny: Path, prompts: list[str]) -> None:
    greedy = make_judge(
        "hf_zero_shot", name="g", path=str(tiny), decoding={"max_new_tokens": 6}, **TINY
    )
    nucleus = make_judge(
        "hf_zero_shot", name="n", path=str(tiny), **TINY,
        decoding={"sample": True, "temperature": 1.0, "top_p": 1e-9, "max_new_tokens": 6},
    )  # fmt: skip
    assert nucleus.sampling
    assert nucleus.generate(prompts, seed=3) == greedy.generate(prompts)


def test_a_model_judge_decodes_with_its_threads(
    tiny: Path, prompts: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``threads`` is set while the judge decodes (then the caller's count is back) and is part
    of its fingerprint: another count can round a logit, so it may not share cached answers."""
    import importlib

    import torch

    # the module, not the function ``reasonbench.infer`` exports under the same name
    decoding = importlib.import_module("reasonbench.infer.decode")
    seen: list[int] = []
    real = decoding.decode

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(torch.get_num_threads())
        return real(*args, **kwargs)

    monkeypatch.setattr(decoding, "decode", watched)
    options = {**TINY, "decoding": {"max_new_tokens": 2}}
    one = make_judge("hf_zero_shot", name="t", path=str(tiny), **options)
    two = make_judge("hf_zero_shot", name="t", path=str(tiny), threads=2, **options)
    two.generate(prompts)
    assert seen and set(seen) == {2}
    assert torch.get_num_threads() == 1
    assert (one.fingerprint()["threads"], two.fingerprint()["threads"]) == (1, 2)  # type: ignore[attr-defined]
    with pytest.raises(JudgeError, match=r"threads=0: torch's CPU thread count"):
        make_judge("hf_zero_shot", name="t", path=str(tiny), threads=0, **options)
