"""How an example becomes model input: one cue after the prompt, identical for every target.

Spec §5 requires identical inputs across targets, so the cue never names the target. Prompt and
target are tokenized separately (the target followed by the end-of-sequence token), so training
and inference see exactly the same prompt tokens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

ANSWER_CUE = "\n\nAnswer:\n"


def model_input(prompt: str) -> str:
    return prompt + ANSWER_CUE


def encode_prompt(tokenizer: Any, prompt: str) -> list[int]:
    ids: list[int] = tokenizer(model_input(prompt), add_special_tokens=False)["input_ids"]
    return ids


def encode_target(tokenizer: Any, target: str) -> list[int]:
    ids: list[int] = tokenizer(target, add_special_tokens=False)["input_ids"]
    return [*ids, int(tokenizer.eos_token_id)]


@dataclass(frozen=True)
class Encoded:
    """One training sequence: prompt tokens then target tokens (the loss covers the target)."""

    input_ids: tuple[int, ...]
    prompt_length: int
    truncated: bool  # the prompt lost tokens at its start to fit ``max_length``

    @property
    def length(self) -> int:
        return len(self.input_ids)

    @property
    def target_tokens(self) -> int:
        return len(self.input_ids) - self.prompt_length


def join(prompt_ids: Sequence[int], target_ids: Sequence[int], max_length: int) -> Encoded:
    """Prompt + target, cutting the prompt's start if needed: the target is never truncated
    (a truncated target would teach the model to stop early)."""
    if len(target_ids) >= max_length:
        raise ValueError(
            f"a target of {len(target_ids)} tokens does not fit max_length={max_length}"
        )
    room = max_length - len(target_ids)
    kept = list(prompt_ids[-room:]) if len(prompt_ids) > room else list(prompt_ids)
    return Encoded(tuple(kept + list(target_ids)), len(kept), len(kept) < len(prompt_ids))
