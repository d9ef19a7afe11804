"""Judges backed by a local Hugging Face causal LM (transformers), loaded offline.

:class:`CausalLMJudge` batches prompts and decodes them greedily or by sampling through the
project's one inference stack: the backbone loader of :mod:`reasonbench.models` and the decoder of
:mod:`reasonbench.infer.decode` (the same loop ``reasonbench predict`` runs); it keeps only the
new tokens. ``hf_zero_shot`` wraps each prompt in the task instruction and ``num_fewshot``
examples from ``train`` (:mod:`reasonbench.judges.prompting`, shared with the served judge),
through the tokenizer's chat template when it has one (``prompt_style: auto``) or as plain text;
it disables a Qwen3-style thinking block. Answers lose a leading reasoning block and are cut to
the target's number of lines (a zero-shot model often keeps talking); the strict parser then
reads them unchanged. Decoding runs with ``threads`` torch CPU threads (1 unless configured), as
``reasonbench predict`` does, whatever ``OMP_NUM_THREADS``, and with ``cpu_kernels`` (portable
unless configured; :mod:`reasonbench.models.kernels`), applied before the model loads: both are
part of the fingerprint.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reasonbench.cache import sha256_text
from reasonbench.judges.answering import Output
from reasonbench.judges.base import Decoding, JudgeError, check_target, register_judge
from reasonbench.judges.prompting import Prompter, fewshot_examples
from reasonbench.models.kernels import PORTABLE
from reasonbench.targets.trim import trim_answer

if TYPE_CHECKING:  # torch loads with the first model, not with the judge registry
    from reasonbench.infer.decode import Chooser

__all__ = [
    "CausalLMJudge",
    "hf_zero_shot",
    "load_causal_lm",
    "model_identity",
]

GREEDY = Decoding()


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


def model_identity(factory: str, path: str | Path, dtype: str, device: str) -> dict[str, Any]:
    """A local model as its judges' fingerprints name it (directory identity, not its path)."""
    from reasonbench.models.backbone import identity

    return {"factory": factory, "model": identity(Path(path)), "dtype": dtype, "device": device}


def judge_kernels(cpu_kernels: str) -> dict[str, str | None]:
    """Apply ``cpu_kernels`` before a factory builds or loads a model (it runs kernels); the
    kernels in effect go into the judge's fingerprint."""
    from reasonbench.models.kernels import KernelError, use_kernels

    try:
        return use_kernels(cpu_kernels)
    except (KernelError, ValueError) as exc:
        raise JudgeError(str(exc)) from None


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
        identity: Mapping[str, Any] | None = None,
        threads: int = 1,
    ) -> None:
        from reasonbench.models.device import check_threads

        self.name, self.target = name, check_target(target)
        self.model, self.tokenizer, self.render = model, tokenizer, render
        self.decoding, self.batch_size, self.trim = decoding, batch_size, trim
        try:
            self.threads = check_threads(threads)
        except ValueError as exc:
            raise JudgeError(str(exc)) from None
        # what the factory knows about the weights (directory identity, adapter hash, dtype)
        self.identity = dict(identity or {"model": str(model.config.name_or_path)})

    def fingerprint(self) -> dict[str, Any]:
        """What decides an answer besides prompt and seed: the answer cache's key material. The
        rendered probe covers instruction, few-shot examples and chat template."""
        return {
            **self.identity,
            "target": self.target,
            "decoding": asdict(self.decoding),
            "batch_size": self.batch_size,
            "threads": self.threads,  # a CPU reduction split another way can round differently
            "trim": self.trim,
            "render": sha256_text(self.render("\0probe\0")),
        }

    @property
    def sampling(self) -> bool:
        return self.decoding.sample

    def _chooser(self, seed: int) -> Chooser:
        from reasonbench.infer.decode import argmax, sampler

        d = self.decoding
        if not d.sample:
            return argmax
        return sampler(d.temperature, d.top_p, seed, self.model.device)

    def answers(self, prompts: Sequence[str], seed: int = 0) -> list[Output]:
        """The decoded outputs, and what the parser reads (trimmed, unless ``trim`` is off)."""
        raw = self._decode(prompts, seed)
        return [Output(trim_answer(t, self.target) if self.trim else t, t) for t in raw]

    def generate(self, prompts: Sequence[str], seed: int = 0) -> list[str]:
        return [a.text for a in self.answers(prompts, seed)]

    def _decode(self, prompts: Sequence[str], seed: int) -> list[str]:
        from reasonbench.infer.decode import decode
        from reasonbench.models.device import torch_threads

        tokenizer, out = self.tokenizer, []
        for start in range(0, len(prompts), self.batch_size):
            batch = [self.render(p) for p in prompts[start : start + self.batch_size]]
            ids = [tokenizer(text, add_special_tokens=False)["input_ids"] for text in batch]
            with torch_threads(self.threads):
                gens = decode(
                    self.model, ids, int(tokenizer.pad_token_id), int(tokenizer.eos_token_id),
                    self.decoding.max_new_tokens, self.model.device,
                    self._chooser(seed * 1_000_003 + start),  # per batch: reruns differ, runs replay
                )  # fmt: skip
            out += [tokenizer.decode(list(g.token_ids), skip_special_tokens=True) for g in gens]
        if len(out) != len(prompts):
            raise JudgeError(f"{self.name}: {len(out)} answers for {len(prompts)} prompts")
        return out


def zero_shot_renderer(
    tokenizer: Any, target: str, style: str, prompter: Prompter | None = None
) -> Callable[[str], str]:
    """Prompt -> model input: instruction (+ examples) + prompt, as chat or as plain text."""
    prompter = prompter or Prompter(target)
    if style == "auto":
        style = "chat" if getattr(tokenizer, "chat_template", None) else "plain"
    if style == "plain":
        return prompter.text
    if style != "chat":
        raise JudgeError(f"prompt_style must be auto, chat or plain, got {style!r}")
    if not getattr(tokenizer, "chat_template", None):
        raise JudgeError("prompt_style=chat, but the tokenizer has no chat template")

    def render(prompt: str) -> str:
        messages = prompter.messages(prompt)
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
    num_fewshot: int = 0,
    data_dir: str | None = None,
    fewshot_seed: int = 0,
    threads: int = 1,
    cpu_kernels: str = PORTABLE,
) -> CausalLMJudge:
    """Any local causal LM, zero-shot (or ``num_fewshot`` examples from ``data_dir``'s train
    split): the task is explained in the prompt. ``threads``: torch CPU threads while decoding;
    ``cpu_kernels``: :mod:`reasonbench.models.kernels`."""
    kernels = judge_kernels(cpu_kernels)
    if num_fewshot and data_dir is None:
        raise JudgeError("num_fewshot > 0 needs data_dir (the examples come from its train split)")
    shots = fewshot_examples(Path(data_dir or "."), check_target(target), num_fewshot, fewshot_seed)
    model, tokenizer = load_causal_lm(path, dtype, device)
    render = zero_shot_renderer(tokenizer, target, prompt_style, Prompter(target, tuple(shots)))
    identity = {**model_identity("hf_zero_shot", path, dtype, device), "cpu_kernels": kernels}
    return CausalLMJudge(
        name, target, model, tokenizer, render, Decoding(**(decoding or {})), batch_size, trim,
        identity, threads,
    )  # fmt: skip
