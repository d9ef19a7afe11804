"""The learning curve: greedy accuracy on a fixed sample of a split while a run trains.

Every ``eval.every`` optimizer steps (and after the last) the main process decodes the sample
through the path ``reasonbench predict`` takes (the training cue, :func:`greedy_decode`, the
target's frozen parser, :func:`make_record`) and scores it as ``reasonbench analyze`` does
(:func:`reasonbench.analysis.scoring.score`). ``train_log.jsonl`` gets one line per point:
``{"step", "tokens", "eval": {"split", "examples", "revised_verdict", "exact_receipt",
"endpoints", "parse_failures"}}`` (rates in [0, 1]; receipt and endpoints are ``null`` for a
verdict-only target), so the curve is accuracy against training tokens.

The sample is the first ``eval.examples`` rows of the split in the order of sha256(id): the same
rows for every seed, target and tuning, so their curves compare point by point. Decoding runs in
inference mode, draws no random number and is excluded from the run's training time, so a run
with a curve trains exactly the weights of a run without one (tested).

It lives in ``infer``, not ``train``: training never imports inference (tests/models/
test_layers.py). ``reasonbench train`` hands :func:`plan_curve` to
:func:`reasonbench.train.train`, which sees only the :class:`reasonbench.train.loop.Probe` it
returns.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from reasonbench.analysis.gold import Gold, load_gold
from reasonbench.analysis.scoring import score
from reasonbench.infer.confidence import cache_entry
from reasonbench.infer.decode import greedy_decode
from reasonbench.infer.records import make_record
from reasonbench.io import read_split
from reasonbench.models.prompting import encode_prompt
from reasonbench.targets import get_target

__all__ = ["Curve", "plan_curve"]

BATCH = 32  # decoding batch: a curve point costs seconds on a CPU for a small model


@dataclass
class Curve:
    split: str
    every: int
    target: str
    rows: list[dict[str, Any]]
    prompts: list[list[int]]
    gold: Mapping[str, Gold]
    labels: Mapping[str, frozenset[str]]
    pad_id: int
    eos_id: int

    def due(self, step: int, total: int) -> bool:
        return step % self.every == 0 or step == total

    @torch.inference_mode()
    def measure(self, model: Any, tokenizer: Any, device: Any) -> dict[str, Any]:
        """Greedy accuracy of ``model`` (a causal LM) on the sample, scored as ``analyze``."""
        budget = get_target(self.target).max_new_tokens
        was_training = model.training
        # padding-free training runs the varlen kernel, which takes packed rows only; decoding
        # takes padded rows, so it runs on SDPA, as `reasonbench predict` does
        kernel = model.config._attn_implementation
        model.set_attn_implementation("sdpa")
        model.eval()
        scored = []
        try:
            for at in range(0, len(self.rows), BATCH):
                rows, prompts = self.rows[at : at + BATCH], self.prompts[at : at + BATCH]
                gens = greedy_decode(model, prompts, self.pad_id, self.eos_id, budget, device)
                for row, gen in zip(rows, gens, strict=True):
                    labels = self.labels[row["stratum"]]
                    entry = cache_entry(row["id"], gen, tokenizer, self.target, labels, BATCH)
                    record = make_record(row, "curve", 0, self.target, entry, labels, "seq_prob")
                    scored.append(score(self.gold[row["id"]], record))
        finally:
            model.set_attn_implementation(kernel)
            model.train(was_training)
        n = len(scored)

        def rate(values: list[bool | None]) -> float | None:
            known = [v for v in values if v is not None]
            return round(sum(known) / n, 6) if known else None

        return {
            "split": self.split,
            "examples": n,
            "revised_verdict": rate([s.verdict_correct for s in scored]),
            "exact_receipt": rate([s.receipt_correct for s in scored]),
            "endpoints": rate([s.endpoints_correct for s in scored]),
            "parse_failures": rate([not s.record.parse_ok for s in scored]),
        }


def plan_curve(cfg: Mapping[str, Any], data_dir: Path, tokenizer: Any) -> Curve | None:
    """The run's curve (``eval`` settings), or ``None`` when ``eval.every`` is 0."""
    from reasonbench.strata.registry import load_stratum

    settings = cfg.get("eval") or {}
    every = int(settings.get("every") or 0)
    if every <= 0:
        return None
    split, wanted = str(settings["split"]), int(settings["examples"])
    if wanted <= 0:
        raise ValueError(f"eval.examples must be positive, got {wanted}")
    rows = read_split(data_dir, split, ["id", "split", "stratum", "prompt"])
    rows.sort(key=lambda r: hashlib.sha256(str(r["id"]).encode()).hexdigest())
    rows = rows[:wanted]
    labels = {s: load_stratum(s).labels for s in sorted({r["stratum"] for r in rows})}
    return Curve(
        split=split,
        every=every,
        target=str(cfg["target"]["name"]),
        rows=rows,
        prompts=[encode_prompt(tokenizer, r["prompt"]) for r in rows],
        gold=load_gold(data_dir, (split,)),
        labels=labels,
        pad_id=int(tokenizer.pad_token_id),
        eos_id=int(tokenizer.eos_token_id),
    )
