"""Judges: one interface (prompt in, text out, optional sampling) and adapters for a trained LoRA
checkpoint, any local causal LM used zero-shot, any OpenAI-compatible served model (``openai``),
and the surface baselines."""

from reasonbench.judges import baseline, hf, lora, served, tiny  # noqa: F401  (registers them)
from reasonbench.judges.base import (
    Decoding,
    Judge,
    JudgeError,
    make_judge,
    register_judge,
    registered_judges,
)
from reasonbench.judges.instructions import instruction

__all__ = [
    "Decoding",
    "Judge",
    "JudgeError",
    "instruction",
    "make_judge",
    "register_judge",
    "registered_judges",
]
