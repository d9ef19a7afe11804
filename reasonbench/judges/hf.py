"""Judges backed by a local Hugging Face causal LM (transformers), loaded offline.

:class:`CausalLMJudge` batches prompts and decodes them greedily or by sampling through the
project's one inference stack: the backbone loader of :mod:`reasonbench.models` and the decoder of
:mod:`reasonbench.infer.decode` (the same loop ``reasonbench predict`` runs); it keeps only the
new tokens. ``hf_zero_shot`` wraps each prompt in the task :func:`instruction`, through
the tokenizer's chat template when it has one (``prompt_style: auto``) or as plain text; it
disables a Qwen3-style thinking block. Answers are cut to the target's number of lines (a
zero-shot model often keeps talking); the strict parser then reads them unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reasonbench.judges.base import Decoding, JudgeError, check_target, register_judge
from reasonbench.judges.instructions import instruction
from reasonbench.targets import get_target

if TYPE_CHECKING:  # torch loads with the first model, not with the judge registry
    from reasonbench.infer.decode import Chooser

__all__ = ["CausalLMJudge", "hf_zero_shot", "load_causal_lm", "trim_answer"]

GREEDY = Decoding()
THINK = re.compile(r"^\s*<think>.*?</think>\s*", re.DOTALL)


def trim_answer(text: str, target: str) -> str:
    """An empty ``<think>`` block dropped, then the first non-empty lines the target has."""
    lines = [line for line in THINK.sub("", text).strip().split("\n") if line.strip()]
    return "\n".join(lines[: get_target(target).lines])


def load_causal_lm(path: str | Path, dtype: str = "fp32", device: str = "auto") -> tuple[Any, Any]:
    """Model and tokenizer from a local directory, through the project's one loader
    (:mod:`reasonbench.models.backbone`: ``local_files_only``, nothing downloads)."""
    import transformers

    from reasonbench.models import DTYPES, BackboneNotFound, backbone_at, load_model, load_tokenizer
    from reasonbench.models.device import resolve_device

    hf_logging: Any = transformers.utils.logging
    hf_logging.disable_progress_bar()  # a judge's log is its answers, not loading bars
    if dtype not in DTYPES:
        raise JudgeError(f"unknown dtype {dtype!r}; one of {sorted(DTYPES)}")
    try:
        backbone = backbone_at(path)
        where = resolve_device(device)
    except (BackboneNotFound, ValueError) as exc:
        raise JudgeError(str(exc)) from None
    tokenizer = load_tokenizer(backbone)  # padding never reaches an answer: pad = eos if unset
    tokenizer.padding_side = "left"  # for callers that batch with the tokenizer themselves
    model = load_model(backbone, dtype, "sdpa")
    return model.to(where).eval(), tokenizer


class CausalLMJudge:
    """A causal LM answering prompts: ``render`` turns a benchmark prompt into the model's input
    text, which is decoded in batches of ``batch_size`` by the project's decoder
    (:func:`reasonbench.infer.decode.decode`: left padding, KV cache, stop at end-of-sequence),
    greedily or by temperature / nucleus sampling from a generator seeded per batch."""

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

    def _chooser(self, seed: int) -> Chooser:
        from reasonbench.infer.decode import argmax, sampler

        d = self.decoding
        if not d.sample:
            return argmax
        return sampler(d.temperature, d.top_p, seed, self.model.device)

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        from reasonbench.infer.decode import decode

        tokenizer, out = self.tokenizer, []
        for start in range(0, len(prompts), self.batch_size):
            batch = [self.render(p) for p in prompts[start : start + self.batch_size]]
            ids = [tokenizer(text, add_special_tokens=False)["input_ids"] for text in batch]
            gens = decode(
                self.model, ids, int(tokenizer.pad_token_id), int(tokenizer.eos_token_id),
                self.decoding.max_new_tokens, self.model.device,
                self._chooser(seed * 1_000_003 + start),  # per batch: reruns differ, runs replay
            )  # fmt: skip
            texts = [tokenizer.decode(list(g.token_ids), skip_special_tokens=True) for g in gens]
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
