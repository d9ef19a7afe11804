"""Judges backed by a local Hugging Face causal LM (transformers), loaded offline.

:class:`CausalLMJudge` batches prompts (left padding), decodes greedily or by sampling, and keeps
only the new tokens. ``hf_zero_shot`` wraps each prompt in the task :func:`instruction`, through
the tokenizer's chat template when it has one (``prompt_style: auto``) or as plain text; it
disables a Qwen3-style thinking block. Answers are cut to the target's number of lines (a
zero-shot model often keeps talking); the strict parser then reads them unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reasonbench.judges.base import Decoding, JudgeError, check_target, register_judge
from reasonbench.judges.instructions import instruction
from reasonbench.targets import get_target

__all__ = ["CausalLMJudge", "hf_zero_shot", "load_causal_lm", "trim_answer"]

GREEDY = Decoding()
THINK = re.compile(r"^\s*<think>.*?</think>\s*", re.DOTALL)


def trim_answer(text: str, target: str) -> str:
    """An empty ``<think>`` block dropped, then the first non-empty lines the target has."""
    lines = [line for line in THINK.sub("", text).strip().split("\n") if line.strip()]
    return "\n".join(lines[: get_target(target).lines])


def load_causal_lm(path: str | Path, dtype: str = "fp32", device: str = "auto") -> tuple[Any, Any]:
    """Model and tokenizer from a local directory (``local_files_only``: nothing downloads)."""
    import torch
    import transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer

    hf_logging: Any = transformers.utils.logging
    hf_logging.disable_progress_bar()  # a judge's log is its answers, not loading bars
    dtypes = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
    if dtype not in dtypes:
        raise JudgeError(f"unknown dtype {dtype!r}; one of {sorted(dtypes)}")
    if not (Path(path) / "config.json").is_file():
        raise JudgeError(f"{path} is not a model directory (no config.json)")
    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    if tokenizer.pad_token_id is None:  # padding never reaches an answer; any id will do
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"  # decoder-only batches must end where generation starts
    model: Any = AutoModelForCausalLM.from_pretrained(
        path, dtype=dtypes[dtype], local_files_only=True
    )
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    return model.to(device).eval(), tokenizer


class CausalLMJudge:
    def __init__(
        self,
        name: str,
        target: str,
        model: Any,
        tokenizer: Any,
        render: Callable[[str], str],
        decoding: Decoding = GREEDY,
        batch_size: int = 8,
        trim: bool = True,
    ) -> None:
        self.name, self.target = name, check_target(target)
        self.model, self.tokenizer, self.render = model, tokenizer, render
        self.decoding, self.batch_size, self.trim = decoding, batch_size, trim

    @property
    def sampling(self) -> bool:
        return self.decoding.sample

    def _options(self) -> dict[str, Any]:
        d = self.decoding
        options: dict[str, Any] = {
            "max_new_tokens": d.max_new_tokens,
            "do_sample": d.sample,
            "pad_token_id": self.tokenizer.pad_token_id,
            "eos_token_id": self.tokenizer.eos_token_id,
        }
        if d.sample:
            options |= {"temperature": d.temperature, "top_p": d.top_p}
        else:  # explicit, so a model's generation_config cannot turn sampling back on
            options |= {"temperature": None, "top_p": None, "top_k": None}
        return options

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        import torch

        out: list[str] = []
        for start in range(0, len(prompts), self.batch_size):
            batch = [self.render(p) for p in prompts[start : start + self.batch_size]]
            encoded = self.tokenizer(
                batch, return_tensors="pt", padding=True, add_special_tokens=False
            )
            encoded = encoded.to(self.model.device)
            torch.manual_seed(seed * 1_000_003 + start)  # per batch: reruns differ, runs replay
            with torch.no_grad():
                ids = self.model.generate(**encoded, **self._options())
            new = ids[:, encoded["input_ids"].shape[1] :]
            texts = self.tokenizer.batch_decode(new, skip_special_tokens=True)
            out += [trim_answer(t, self.target) if self.trim else t for t in texts]
        if len(out) != len(prompts):
            raise JudgeError(f"{self.name}: {len(out)} answers for {len(prompts)} prompts")
        return out


def zero_shot_renderer(tokenizer: Any, target: str, style: str) -> Callable[[str], str]:
    """Prompt -> model input: instruction + prompt, as chat messages or as plain text."""
    task = instruction(target)
    if style == "auto":
        style = "chat" if getattr(tokenizer, "chat_template", None) else "plain"
    if style == "plain":
        return lambda prompt: f"{task}\n\n{prompt}\n\nAnswer:\n"
    if style != "chat":
        raise JudgeError(f"prompt_style must be auto, chat or plain, got {style!r}")
    if not getattr(tokenizer, "chat_template", None):
        raise JudgeError("prompt_style=chat, but the tokenizer has no chat template")

    def render(prompt: str) -> str:
        messages = [{"role": "system", "content": task}, {"role": "user", "content": prompt}]
        text: str = tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True, enable_thinking=False
        )
        return text

    return render


@register_judge("hf_zero_shot")
def hf_zero_shot(
    name: str,
    path: str,
    target: str = "direct_receipt",
    prompt_style: str = "auto",
    decoding: dict[str, Any] | None = None,
    batch_size: int = 8,
    dtype: str = "fp32",
    device: str = "auto",
    trim: bool = True,
) -> CausalLMJudge:
    """Any local causal LM, zero-shot: the task is explained in the prompt."""
    model, tokenizer = load_causal_lm(path, dtype, device)
    render = zero_shot_renderer(tokenizer, check_target(target), prompt_style)
    return CausalLMJudge(
        name, target, model, tokenizer, render, Decoding(**(decoding or {})), batch_size, trim
    )
